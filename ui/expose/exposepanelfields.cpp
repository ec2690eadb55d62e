// ExposePanel's fields: read as the gateway's options, and filled from a record.
#include "backend/core/apppaths.h"
#include "backend/expose/cidr.h"
#include "backend/expose/gatewayoperation.h"
#include "ui/expose/exposepanel.h"

#include <QLineEdit>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>

namespace flashdeck::ui {

namespace {

/** "a, b c": the list the operator typed, commas or spaces between. */
QStringList listOf(const QString &text)
{
    return text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
}

} // namespace

Result<expose::GatewayOptions> ExposePanel::options() const
{
    using expose::GatewayOptions;
    GatewayOptions o;
    o.wording = expose::Wording::Window; // its refusals name this panel's fields, not the command's options
    // None at all: validate() below says why the panel needs them.
    const QStringList networks = listOf(m_allow->text());
    for (const QString &text : networks) {
        const auto cidr = expose::Cidr::parse(text, tr("Allowed network"));
        if (!cidr) {
            return cidr.status();
        }
        o.allow.append(cidr.value());
    }
    o.listenAddress = m_listen->text().trimmed();
    o.listenPort = m_port->value();
    const auto rate = expose::RequestRate::parse(m_rate->text().trimmed(), o.wording);
    if (!rate) {
        return rate.status();
    }
    o.rate = rate.value();
    o.burst = m_burst->value();
    o.maxConcurrent = m_maxConcurrent->value();
    const auto body = GatewayOptions::parseSize(m_maxBody->text().trimmed(), tr("Largest body"));
    if (!body) {
        return body.status();
    }
    o.maxBodyBytes = body.value();
    for (const QString &text : listOf(m_media->text())) {
        const auto host = GatewayOptions::parseMediaHost(text, o.wording);
        if (!host) {
            return host.status();
        }
        o.mediaAllow.append(host.value());
    }
    o.tls = m_ownCertificate->isChecked() ? expose::TlsMode::OperatorCertificate : expose::TlsMode::SelfSigned;
    if (o.tls == expose::TlsMode::OperatorCertificate &&
        (m_certFile->text().trimmed().isEmpty() || m_keyFile->text().trimmed().isEmpty())) {
        return Status::failure(tr("Choose your certificate and its key, or let the host make a self-signed one."));
    }
    const Result<int> upstream = expose::GatewayOperation::upstreamPort(m_paths, m_host);
    o.upstreamPort = upstream ? upstream.value() : 30000;
    if (const Status s = o.validate(); !s) {
        return s;
    }
    return o;
}

bool ExposePanel::checkTarget(QString *host, int *port) const
{
    const QString text = m_checkAt->text().trimmed();
    host->clear();
    *port = 0;
    if (text.isEmpty()) {
        return true;
    }
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    bool ok = false;
    *port = colon > 0 ? text.mid(colon + 1).toInt(&ok) : 0;
    *host = colon > 0 ? text.left(colon) : QString();
    if (host->startsWith(QLatin1Char('[')) && host->endsWith(QLatin1Char(']'))) {
        *host = host->mid(1, host->size() - 2);
    }
    return ok && *port > 0 && *port < 65536 && !host->isEmpty();
}

void ExposePanel::fillFields(const expose::GatewayRecord &r)
{
    const QSignalBlocker blockAllow(m_allow);
    m_allow->setText(r.allow.join(QStringLiteral(", ")));
    m_listen->setText(r.listenAddress);
    m_port->setValue(r.port);
    m_rate->setText(r.rate);
    m_burst->setValue(r.burst);
    m_maxConcurrent->setValue(r.maxConcurrent);
    m_maxBody->setText(r.maxBodyBytes % (1024 * 1024) == 0 ? QStringLiteral("%1m").arg(r.maxBodyBytes / (1024 * 1024))
                                                           : QString::number(r.maxBodyBytes));
    m_media->setText(r.mediaAllow.join(QStringLiteral(", ")));
    (r.selfSigned ? m_selfSigned : m_ownCertificate)->setChecked(true);
}

} // namespace flashdeck::ui

// ExposePanel's work: the host's GatewayOperation, its outcomes, and the record it follows.
#include "backend/core/apppaths.h"
#include "backend/expose/gatewayoperation.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostsession.h"
#include "ui/expose/exposepanel.h"

#include <QEventLoop>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QStackedWidget>
#include <QTimer>

namespace flashdeck::ui {

namespace {

/** A file the operator chose, read whole; a failure names it. */
Result<QByteArray> readChosen(const QString &path, const QString &what)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(ExposePanel::tr("Cannot read the %1 %2: %3.").arg(what, path, f.errorString()));
    }
    return f.readAll();
}

} // namespace

bool ExposePanel::isRunning() const
{
    return m_operation && m_operation->isRunning();
}

expose::GatewayOperation *ExposePanel::operation()
{
    if (m_operation) {
        return m_operation;
    }
    fleet::HostSession *session = m_watcher.session(m_host);
    if (session == nullptr) {
        return nullptr;
    }
    // The session's child: a placement on its connection never outlives it.
    auto *op = new expose::GatewayOperation(m_paths, *session, session);
    connect(op, &expose::GatewayOperation::progress, this, [this](const QString &words) { say(words); });
    connect(op, &expose::GatewayOperation::exposed, this, &ExposePanel::onExposed);
    connect(op, &expose::GatewayOperation::unexposed, this, &ExposePanel::onUnexposed);
    connect(op, &expose::GatewayOperation::step, this, &ExposePanel::applyStep);
    connect(op, &expose::GatewayOperation::checked, this, &ExposePanel::onChecked);
    connect(op, &expose::GatewayOperation::phaseChanged, this, &ExposePanel::refreshPreview);
    m_operation = op;
    return op;
}

Result<expose::GatewayPlan> ExposePanel::plan() const
{
    const Result<expose::GatewayOptions> o = options();
    if (!o) {
        return o.status();
    }
    const fleet::HostEntry *entry = m_watcher.entry(m_host);
    expose::GatewayPlan p;
    p.host = m_host;
    p.hostAddress = entry ? entry->address : QString();
    p.options = o.value();
    if (p.options.tls == expose::TlsMode::OperatorCertificate) {
        const auto cert = readChosen(m_certFile->text().trimmed(), tr("certificate"));
        if (!cert) {
            return cert.status();
        }
        auto key = readChosen(m_keyFile->text().trimmed(), tr("key"));
        if (!key) {
            return key.status();
        }
        p.certificatePem = cert.value();
        p.keyPem = std::move(key).value();
        if (const Status usable = expose::GatewayOperation::certificateUsable(p, m_certFile->text().trimmed());
            !usable) {
            p.keyPem.fill('\0');
            return usable;
        }
    }
    return p;
}

void ExposePanel::exposeNow()
{
    if (isRunning() || m_record) {
        return;
    }
    const Result<int> upstream = expose::GatewayOperation::upstreamPort(m_paths, m_host);
    if (!upstream) {
        say({}, upstream.message());
        return;
    }
    Result<expose::GatewayPlan> p = plan();
    if (!p) {
        say({}, p.message());
        return;
    }
    fleet::HostSession *session = m_watcher.session(m_host);
    expose::GatewayOperation *op = operation();
    if (op == nullptr || session->state().phase != ssh::ConnectionPhase::Ready) {
        p.value().keyPem.fill('\0');
        say({}, tr("%1 is not connected: connect it from the host bar, then expose it.").arg(m_host));
        return;
    }
    // The lock every deploy, upgrade and expose of the host takes, from any window or terminal.
    Result<expose::GatewayOperation::Claim> claim = expose::GatewayOperation::claim(m_paths, m_host);
    if (!claim) {
        p.value().keyPem.fill('\0');
        say({}, claim.message());
        return;
    }
    resetSteps();
    say(tr("Placing the gateway on %1…").arg(m_host));
    if (const Status s = op->expose(std::move(p).value(), std::move(claim).value()); !s) {
        say({}, s.message());
    }
    refreshPreview();
}

/** Cancels a placement and waits (at most `ms`) for its undo: the window closes on a clean host. */
void ExposePanel::cancelAndWait(int ms)
{
    if (!isRunning()) {
        return;
    }
    cancelNow();
    QEventLoop wait;
    connect(m_operation, &expose::GatewayOperation::phaseChanged, &wait, [&wait](expose::GatewayPhase phase) {
        if (phase == expose::GatewayPhase::Idle) {
            wait.quit();
        }
    });
    QTimer::singleShot(ms, &wait, &QEventLoop::quit); // never hang the close on a dead host
    if (isRunning()) {
        wait.exec();
    }
}

void ExposePanel::cancelNow()
{
    if (m_operation && m_operation->phase() == expose::GatewayPhase::Placing) {
        say(tr("Cancelling: removing what was placed…"));
        m_operation->cancel();
        refreshPreview();
    }
}

void ExposePanel::reject()
{
    // Escape while placing cancels the placement; the panel stays to say what was undone.
    if (m_operation && m_operation->phase() == expose::GatewayPhase::Placing) {
        cancelNow();
        return;
    }
    QDialog::reject();
}

void ExposePanel::onExposed(const Result<expose::GatewayRecord> &result)
{
    if (!result) {
        say(tr("Not exposed."), result.message());
        refreshPreview();
        return;
    }
    m_record = result.value();
    showRecord();
    say(tr("Exposed at %1. Checking it from this machine…").arg(result.value().url()));
    checkNow();
}

void ExposePanel::unexposeNow()
{
    expose::GatewayOperation *op = operation();
    if (op == nullptr || isRunning() || !m_record) {
        return;
    }
    Result<expose::GatewayOperation::Claim> claim = expose::GatewayOperation::claim(m_paths, m_host);
    if (!claim) {
        say({}, claim.message());
        return;
    }
    if (const Status s = op->unexpose(std::move(claim).value()); !s) {
        say({}, s.message());
    }
    refreshPreview();
}

void ExposePanel::onUnexposed(const Result<QStringList> &removed, const QString &recordProblem)
{
    if (!removed) {
        say(tr("Still exposed."), removed.message());
        refreshPreview();
        return;
    }
    m_record.reset();
    showRecord();
    say(removed.value().isEmpty()
            ? tr("%1 was not exposed: no gateway there.").arg(m_host)
            : tr("Stopped and removed the gateway %1 and its folder (certificate and key); the server was not "
                 "touched.")
                  .arg(removed.value().join(QStringLiteral(", "))),
        recordProblem);
}

void ExposePanel::checkNow()
{
    expose::GatewayOperation *op = operation();
    if (op == nullptr || isRunning() || !m_record) {
        return;
    }
    QString host;
    int port = 0;
    if (!checkTarget(&host, &port)) {
        say({}, tr("Check at takes ADDR:PORT, as 10.0.0.5:8443."));
        return;
    }
    resetSteps();
    if (const Status s = op->check(*m_record, &m_watcher.secretStore(), host, port); !s) {
        say({}, s.message());
    }
    refreshPreview();
}

void ExposePanel::onChecked(bool passed, const QString &problem)
{
    if (!problem.isEmpty()) {
        say(tr("Not checked."), problem);
    } else {
        say(passed ? tr("Every check passed: the gateway is what the deployment page asks of an exposed server.")
                   : tr("A check failed: its line says what was expected and what was seen."),
            QString());
    }
    refreshPreview();
}

void ExposePanel::readRecord()
{
    const auto read = expose::GatewayRecord::read(m_paths, m_host);
    if (!read) {
        say({}, read.message());
        return;
    }
    const bool was = m_record.has_value();
    m_record = read.value();
    showRecord();
    if (was != m_record.has_value() && !isRunning()) {
        // Someone else (a terminal, another window) exposed or unexposed the host.
        say(m_record ? tr("Exposed at %1 (its record was written elsewhere: a terminal or another window).")
                           .arg(m_record->url())
                     : tr("Not exposed (its record was removed elsewhere: a terminal or another window)."));
        if (!m_record) {
            resetSteps();
        }
    }
}

void ExposePanel::showRecord()
{
    if (m_record) {
        const expose::GatewayRecord &r = *m_record;
        fillFields(r);
        m_url->setText(r.url());
        m_pin->setText(QStringLiteral("sha256//") + r.publicKeySha256);
        m_details->setText((r.selfSigned ? tr("Self-signed certificate made on the host, valid until %1.")
                                         : tr("Your certificate, valid until %1."))
                               .arg(r.certificateExpires) +
                           QLatin1Char('\n') + tr("Certificate SHA-256 fingerprint: %1").arg(r.certificateSha256) +
                           QLatin1Char('\n') + tr("Allowed networks: %1").arg(r.allow.join(QStringLiteral(", "))) +
                           QLatin1Char('\n') + tr("Container %1, %2").arg(r.containerName, r.image));
        m_curl->setText(r.curlLine());
        m_curl->setCursorPosition(0);
        m_right->setCurrentIndex(1);
    } else {
        m_right->setCurrentIndex(0);
    }
    refreshPreview();
}

} // namespace flashdeck::ui

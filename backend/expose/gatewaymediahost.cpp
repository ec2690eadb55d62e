// GatewayOptions::parseMediaHost: an entry of --media-allow, in the form the gateway's script
// compares (the Playground's allow-list rules: backend/chat/mediapolicy.cpp, hostAllowed()).
#include "backend/expose/gatewayoptions.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

namespace flashdeck::expose {

namespace {

Status refused(const QString &input, Wording wording, const char *why)
{
    return Status::failure(
        QCoreApplication::translate("Expose", "%1 %2: %3")
            .arg(settingName(GatewaySetting::MediaAllow, wording), input, QCoreApplication::translate("Expose", why)));
}

} // namespace

Result<QString> GatewayOptions::parseMediaHost(const QString &input, Wording wording)
{
    QString entry = input.trimmed().toLower();
    if (entry.endsWith(QLatin1Char('.'))) {
        entry.chop(1);
    }
    if (entry.contains(QLatin1String("://")) || entry.contains(QLatin1Char('/')) || entry.contains(QLatin1Char('@')) ||
        entry.contains(QLatin1Char(':'))) {
        return refused(input, wording,
                       QT_TRANSLATE_NOOP("Expose",
                                         "give the host name alone, as images.example.org (no scheme, "
                                         "port or path: only https on port 443 is let through)."));
    }
    const bool subdomains = entry.startsWith(QLatin1String("*."));
    const QString name = subdomains ? entry.mid(2) : entry;
    // The same test as the Playground's: anything inet_aton would read as an address.
    static const QRegularExpression numeric(QStringLiteral("^(0x[0-9a-f]*|[0-9]+)(\\.(0x[0-9a-f]*|[0-9]+))*$"));
    if (!QHostAddress(name).isNull() || numeric.match(name).hasMatch()) {
        return refused(input, wording,
                       QT_TRANSLATE_NOOP("Expose",
                                         "an address is never allowed (it could be the host's own "
                                         "network); allow the image server's name."));
    }
    const QString ace = QString::fromLatin1(QUrl::toAce(name));
    static const QRegularExpression hostName(
        QStringLiteral("^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$"));
    if (ace.isEmpty() || ace.size() > 253 || !hostName.match(ace).hasMatch()) {
        return refused(input, wording,
                       QT_TRANSLATE_NOOP("Expose",
                                         "not a host name: write it as images.example.org, or "
                                         "*.example.org for every name under example.org."));
    }
    if (!subdomains && !ace.contains(QLatin1Char('.'))) {
        return refused(input, wording,
                       QT_TRANSLATE_NOOP("Expose",
                                         "a name without a dot is looked up in the host's own network; "
                                         "allow the image server's full name."));
    }
    return subdomains ? QString(QStringLiteral("*.") + ace) : ace;
}

} // namespace flashdeck::expose

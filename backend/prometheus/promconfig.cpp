#include "backend/prometheus/promconfig.h"

#include "backend/core/settings.h"

#include <QCoreApplication>

namespace flashdeck::prom {

QString fleetSourceName(FleetSource source)
{
    return source == FleetSource::Prometheus ? QStringLiteral("prometheus") : QStringLiteral("ssh");
}

QString promAuthName(PromAuth auth)
{
    switch (auth) {
    case PromAuth::Bearer:
        return QStringLiteral("bearer");
    case PromAuth::Basic:
        return QStringLiteral("basic");
    case PromAuth::None:
        break;
    }
    return QStringLiteral("none");
}

PromAuth promAuthFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    return n == QLatin1String("bearer") ? PromAuth::Bearer
        : n == QLatin1String("basic")   ? PromAuth::Basic
                                        : PromAuth::None;
}

Status PromConfig::check() const
{
    if (url.isEmpty()) {
        return Status::failure(
            QCoreApplication::translate("Prometheus",
                                        "No Prometheus address is set: give one in Settings → Fleet, or "
                                        "with --prometheus-url."));
    }
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) ||
        url.host().isEmpty()) {
        return Status::failure(QCoreApplication::translate("Prometheus",
                                                           "“%1” is not a Prometheus address: write it as "
                                                           "http://host:9090 or https://host/prefix.")
                                   .arg(url.toString()));
    }
    if (hostLabel.trimmed().isEmpty()) {
        return Status::failure(
            QCoreApplication::translate("Prometheus", "No label names the hosts: use instance, Hostname or your own."));
    }
    return Status::ok();
}

PromConfig PromConfig::fromSettings(const Settings &settings)
{
    PromConfig c;
    const QMap<QString, QString> fleet = settings.section(QStringLiteral("fleet"));
    c.source = fleet.value(QStringLiteral("source")).trimmed().toLower() == QLatin1String("prometheus")
        ? FleetSource::Prometheus
        : FleetSource::Ssh;
    const QMap<QString, QString> p = settings.section(QStringLiteral("prometheus"));
    c.url = QUrl(p.value(QStringLiteral("url")).trimmed());
    c.throughHost = p.value(QStringLiteral("through_host")).trimmed();
    c.hostLabel = p.value(QStringLiteral("host_label"), c.hostLabel).trimmed();
    c.caFile = p.value(QStringLiteral("ca_file")).trimmed();
    c.auth = promAuthFromName(p.value(QStringLiteral("auth")));
    c.user = p.value(QStringLiteral("user")).trimmed();
    bool ok = false;
    const int timeout = p.value(QStringLiteral("timeout_s")).toInt(&ok);
    if (ok && timeout > 0 && timeout <= 300) {
        c.timeoutMs = timeout * 1000;
    }
    c.hostNames = settings.section(QStringLiteral("prometheus_hosts"));
    return c;
}

void PromConfig::writeTo(Settings &settings) const
{
    QMap<QString, QString> fleet = settings.section(QStringLiteral("fleet"));
    fleet.insert(QStringLiteral("source"), fleetSourceName(source));
    settings.setSection(QStringLiteral("fleet"), fleet);
    settings.setSection(
        QStringLiteral("prometheus"),
        {{QStringLiteral("url"), url.toString()},
         {QStringLiteral("through_host"), throughHost},
         {QStringLiteral("host_label"), hostLabel},
         {QStringLiteral("ca_file"), caFile},
         {QStringLiteral("auth"), auth == PromAuth::None ? QString() : promAuthName(auth)},
         {QStringLiteral("user"), user},
         {QStringLiteral("timeout_s"), timeoutMs == 10000 ? QString() : QString::number(timeoutMs / 1000)}});
    settings.setSection(QStringLiteral("prometheus_hosts"), hostNames);
}

} // namespace flashdeck::prom

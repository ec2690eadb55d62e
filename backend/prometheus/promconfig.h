#pragma once

#include "backend/core/result.h"

#include <QMap>
#include <QString>
#include <QUrl>

namespace flashdeck {
class Settings;
}

namespace flashdeck::prom {

/** Where the fleet's figures come from: each host over SSH (the default), or the operator's Prometheus. */
enum class FleetSource { Ssh, Prometheus };

/** How Flashdeck proves itself to Prometheus (or the proxy in front of it). */
enum class PromAuth { None, Bearer, Basic };

/**
 * The operator's Prometheus, as Settings → Fleet and flashdeck.ini (`[fleet] source`,
 * `[prometheus]`, `[prometheus_hosts]`) describe it. The token or password itself is never here:
 * it lives in the keyring (key `kSecretKey`), or FLASHDECK_PROMETHEUS_SECRET for a headless CLI.
 */
struct PromConfig
{
    FleetSource source = FleetSource::Ssh;
    QUrl url; // http(s)://host:9090, with a path prefix if Prometheus sits behind one
    /** Reach `url` through this inventory host's SSH session (a Prometheus only a bastion sees). */
    QString throughHost;
    /** The label that names a host: `instance` (its port dropped), `Hostname` (DCGM), `host`, … */
    QString hostLabel = QStringLiteral("instance");
    /** A label value (as written, or without its port) → the inventory's name for that host. */
    QMap<QString, QString> hostNames;
    QString caFile; // PEM; empty: the system's
    PromAuth auth = PromAuth::None;
    QString user; // basic auth
    int timeoutMs = 10000;

    static constexpr const char *kSecretKey = "prometheus/secret";
    static constexpr const char *kSecretEnv = "FLASHDECK_PROMETHEUS_SECRET";

    bool enabled() const { return source == FleetSource::Prometheus && url.isValid() && !url.isEmpty(); }
    /** A URL the API can be asked at, or why not (scheme, host), in words for the operator. */
    [[nodiscard]] Status check() const;

    static PromConfig fromSettings(const Settings &settings);
    void writeTo(Settings &settings) const;
};

QString fleetSourceName(FleetSource source);
QString promAuthName(PromAuth auth);
/** "bearer", "basic"; anything else is None. */
PromAuth promAuthFromName(const QString &name);

} // namespace flashdeck::prom

#pragma once

#include "backend/metrics/hoststatus.h"
#include "backend/prometheus/promconfig.h"
#include "backend/prometheus/promresponse.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

namespace flashdeck::prom {

/** What each of the fleet's queries is for. */
enum class FleetQuery { Gpus, Server, Ttft, E2e, Requests, Aborted, Up, Disk };

/** One instant query that asks for the whole fleet at once. */
struct FleetQueryText
{
    FleetQuery what;
    QString expr;
};

/**
 * The handful of instant queries that read every host's GPUs and server in one refresh, never
 * one per host: DCGM's and AMD's exporters' GPU series, SGLang's `sglang:` gauges, the TTFT and
 * end-to-end histograms' rates, request and abort rates, `up`, and node_exporter's free disk.
 */
QList<FleetQueryText> fleetQueries(const QString &hostLabel);

/** An inventory host, as far as matching Prometheus' labels to it needs. */
struct KnownHost
{
    QString name;
    QString address;
};

/**
 * Names the host of a series from its host label: the operator's mapping first (the value as
 * written or without its port), then an inventory host of that name or address, else the value
 * without its port (a host Prometheus knows and the inventory does not). Empty: no such label.
 */
class HostNamer final
{
public:
    HostNamer(const PromConfig &config, const QList<KnownHost> &inventory);
    QString nameOf(const PromSeries &series) const;
    bool inInventory(const QString &name) const { return m_inventory.contains(name); }
    /** "10.0.0.5:9400" → "10.0.0.5", "[fd00::5]:9400" → "fd00::5", "gpu1" → "gpu1". */
    static QString withoutPort(const QString &value);

private:
    QString m_label;
    QMap<QString, QString> m_map;
    QHash<QString, QString> m_byAddress; // lower-case name or address → inventory name
    QSet<QString> m_inventory;
};

/**
 * Every host the answers speak of, as the SSH monitor would have described it: GPUs, server
 * gauges (aggregated over ranks as from the server's own /metrics), TTFT and latency
 * quantiles, request and error rates, health from the server's `up`, free disk. What the
 * source lacks stays null; `source` is "prometheus". Sorted by name. A target with neither GPU
 * nor SGLang series is left out unless the inventory names it.
 */
QList<metrics::HostStatus> assembleFleet(const QHash<FleetQuery, PromResult> &answers, const HostNamer &namer,
                                         qint64 atMs);

} // namespace flashdeck::prom

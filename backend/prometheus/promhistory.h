#pragma once

#include "backend/metrics/timeseries.h"
#include "backend/prometheus/promclient.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

#include <map>
#include <memory>

namespace flashdeck::prom {

/**
 * One host's chart history read from Prometheus with range queries: its GPUs, KV pool, requests,
 * throughput, TTFT and latency quantiles and accept length over the chosen window (24 h at
 * most), even for the time Flashdeck was closed. The series use the Metrics page's keys
 * (MetricId) and stored units, so the charts draw them as they draw the SSH monitor's.
 */
class PromHistory final : public QObject
{
    Q_OBJECT

public:
    /** `labelValues`: the values of `hostLabel` that name this host in the series (PromFleetSource). */
    PromHistory(PromClient &client, QString hostLabel, QStringList labelValues, QObject *parent = nullptr);
    ~PromHistory() override;

    /** Reads [now - windowMs, now] again (a no-op while a read runs). */
    void load(qint64 windowMs);
    bool loading() const { return m_waiting > 0; }
    /** Why the last read failed, in Prometheus' words ("" when it did not). */
    const QString &error() const { return m_error; }
    const metrics::TimeSeries *series(const QString &key) const;
    /** The GPUs the history has, ascending. */
    QList<int> gpuIndexes() const;
    /** How many of its series hold at least one point (0: Prometheus had nothing for the host). */
    [[nodiscard]] int seriesWithData() const;
    /** A read has ended, well or not (before it, nothing is known). */
    [[nodiscard]] bool everLoaded() const { return m_round > 0 && m_waiting == 0; }

    /** The queries of one load: PromQL with `{matcher}` for the host, and what each fills. */
    static QStringList queries(const QString &matcher);

Q_SIGNALS:
    void loaded();

private:
    QPointer<PromClient> m_client;
    QString m_hostLabel;
    QStringList m_values;
    int m_waiting = 0;
    quint64 m_round = 0;
    QString m_error;
    std::map<QString, std::unique_ptr<metrics::TimeSeries>> m_series;
    std::map<QString, std::unique_ptr<metrics::TimeSeries>> m_next;
};

} // namespace flashdeck::prom

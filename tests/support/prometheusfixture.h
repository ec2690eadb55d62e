#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>

namespace flashdeck::testing {

/**
 * Debian's real Prometheus (2.42), started for one test on 127.0.0.1 with a port the kernel
 * picks (read back from its log), its own configuration and data directory; stopped with it.
 */
class PrometheusFixture final
{
public:
    PrometheusFixture();
    ~PrometheusFixture();
    PrometheusFixture(const PrometheusFixture &) = delete;
    PrometheusFixture &operator=(const PrometheusFixture &) = delete;

    /** Starts it with these `scrape_configs:` entries (YAML, indented two spaces) and a 1 s scrape interval. */
    bool start(const QString &scrapeConfigs, QString *error);
    QUrl url() const;
    /** Waits until an instant query of `expr` returns at least `series` series. */
    bool waitForSeries(const QString &expr, int series, int timeoutMs, QString *error);
    /** How many instant queries it has answered, from its own /metrics (prometheus_http_requests_total). */
    double instantQueriesAnswered() const;
    /** Stops it (what a Prometheus that went down looks like); url() keeps its address. */
    void stop();
    /** `promtool check rules FILE`: empty when it accepts the file, else what it said. */
    static QString checkRules(const QString &file);

private:
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
};

} // namespace flashdeck::testing

#include "backend/metrics/serversampler.h"

#include "backend/core/hosttext.h"
#include "backend/core/localhttpclient.h"
#include "backend/metrics/prometheustext.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTimer>

namespace flashdeck::metrics {

ServerSampler::ServerSampler(ssh::Transport &connection, quint16 remotePort, QString apiKey, int periodMs,
                             QObject *parent)
    : QObject(parent)
    , m_conn(connection)
    , m_remotePort(remotePort)
    , m_apiKey(std::move(apiKey))
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(periodMs);
    connect(m_timer, &QTimer::timeout, this, &ServerSampler::poll);
}

ServerSampler::~ServerSampler()
{
    stop();
}

void ServerSampler::start()
{
    if (m_running) {
        return;
    }
    m_running = true;
    m_timer->start();
    if (!m_tunnel) {
        openTunnel();
    }
}

void ServerSampler::openTunnel()
{
    ssh::TunnelReply *tunnel = m_conn.tunnelToPort(QStringLiteral("127.0.0.1"), m_remotePort, this);
    m_tunnel = tunnel;
    // The reply's own pointer: it emits ready, so it is alive here (a QPointer read may be null to GCC).
    connect(tunnel, &ssh::TunnelReply::ready, this, [this, tunnel] {
        m_http = std::make_unique<LocalHttpClient>(tunnel->link());
        poll();
    });
    const auto gone = [this](const QString &message) {
        dropTunnel();
        Q_EMIT failed(message);
    };
    connect(m_tunnel, &ssh::TunnelReply::ended, this, gone);
}

void ServerSampler::dropTunnel()
{
    if (m_tunnel) {
        m_tunnel->abandon();
        m_tunnel = nullptr;
    }
    if (m_http) {
        m_http->abortAll();
        m_http.release()->deleteLater(); // this may run inside one of its callbacks
    }
    m_inFlight = false;
}

void ServerSampler::stop()
{
    m_running = false;
    m_timer->stop();
    dropTunnel();
}

void ServerSampler::setHealth(ServerHealth health)
{
    if (health != m_health) {
        m_health = health;
        Q_EMIT healthChanged(health);
    }
}

void ServerSampler::poll()
{
    if (!m_running) {
        return;
    }
    if (!m_tunnel) {
        openTunnel(); // after a failure, again
        return;
    }
    if (!m_http || m_inFlight) {
        return; // the tunnel is not up yet, or the last poll has not answered: never pile up
    }
    m_inFlight = true;
    m_http->get("/health", {}, kTimeoutMs, [this](const LocalHttpResponse &r) {
        const int status = r.status;
        if (status == 200) {
            setHealth(ServerHealth::Ok);
        } else if (status == 503) {
            setHealth(ServerHealth::Starting); // Uvicorn is up, the model is not (host contract §5)
        } else {
            // Refused through the tunnel: nothing listens on the host's port.
            setHealth(ServerHealth::Down);
            m_inFlight = false;
            return;
        }
        if (m_metricsMissing) {
            pollLoads();
        } else {
            pollMetrics();
        }
    });
}

void ServerSampler::setApiKey(const QString &apiKey)
{
    m_apiKey = apiKey;
    m_metricsMissing = false; // /v1/loads may answer now; /metrics is tried first again
}

LocalHttpClient::Headers ServerSampler::authorization() const
{
    if (m_apiKey.isEmpty()) {
        return {};
    }
    return {{QByteArrayLiteral("Authorization"), "Bearer " + m_apiKey.toUtf8()}};
}

void ServerSampler::pollMetrics()
{
    // Older images guard /metrics too (sglang-facts §2).
    m_http->get("/metrics", authorization(), kTimeoutMs, [this](const LocalHttpResponse &r) {
        const int status = r.status;
        if (status == 404) {
            m_metricsMissing = true; // no --enable-metrics: /v1/loads from now on
            pollLoads();
            return;
        }
        m_inFlight = false;
        if (status != 200) {
            Q_EMIT failed(QCoreApplication::translate("Metrics", "/metrics answered %1 %2")
                              .arg(status)
                              .arg(status == 0 ? r.error : hostText(r.body, 300))); // the server's words, made safe
            return;
        }
        const PromScrape scrape = parsePrometheusText(r.body);
        setFromLog(false);
        publish(snapshotFromMetrics(scrape, QDateTime::currentMSecsSinceEpoch()));
    });
}

void ServerSampler::pollLoads()
{
    m_http->get("/v1/loads", authorization(), kTimeoutMs, [this](const LocalHttpResponse &r) {
        m_inFlight = false;
        const int status = r.status;
        if (status == 401) {
            setFromLog(true);
            Q_EMIT failed(
                QCoreApplication::translate("Metrics",
                                            "/v1/loads needs the server's API key, and Flashdeck does not have it "
                                            "(the keyring holds it for deployments Flashdeck made); reading the "
                                            "log's Decode batch lines instead"));
            return;
        }
        const ServerSnapshot s = snapshotFromLoads(r.body, QDateTime::currentMSecsSinceEpoch());
        if (status != 200 || s.source.isEmpty()) {
            setFromLog(true);
            Q_EMIT failed(
                QCoreApplication::translate("Metrics",
                                            "neither /metrics nor /v1/loads gave numbers (/v1/loads: %1); reading the "
                                            "log's Decode batch lines instead")
                    .arg(status));
            return;
        }
        setFromLog(false);
        publish(s);
    });
}

void ServerSampler::setFromLog(bool fromLog)
{
    if (fromLog != m_fromLog) {
        m_fromLog = fromLog;
        Q_EMIT logFallbackChanged(fromLog);
    }
}

void ServerSampler::feedLogLine(QByteArrayView line, qint64 atMs)
{
    if (!m_fromLog) {
        return; // the endpoints answer: they are exact, the log only every few seconds
    }
    if (const auto s = snapshotFromDecodeLine(line, atMs)) {
        publish(*s);
    }
}

void ServerSampler::publish(ServerSnapshot snapshot)
{
    ServerRates rates;
    if (m_previous && m_previous->source == snapshot.source) {
        rates = ratesBetween(*m_previous, snapshot);
    }
    m_previous = snapshot;
    Q_EMIT sampled(snapshot, rates);
}

} // namespace flashdeck::metrics

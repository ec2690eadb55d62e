#include "backend/metrics/serversampler.h"

#include "backend/metrics/prometheustext.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QTimer>

namespace flashdeck::metrics {

ServerSampler::ServerSampler(ssh::Transport &connection, quint16 remotePort, QString apiKey, int periodMs,
                             QObject *parent)
    : QObject(parent)
    , m_conn(connection)
    , m_remotePort(remotePort)
    , m_apiKey(std::move(apiKey))
    , m_http(new QNetworkAccessManager(this))
    , m_timer(new QTimer(this))
{
    m_http->setProxy(QNetworkProxy::NoProxy);
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
    m_tunnel = m_conn.tunnelToPort(QStringLiteral("127.0.0.1"), m_remotePort, this);
    connect(m_tunnel, &ssh::TunnelReply::ready, this, [this](quint16 local) {
        m_localPort = local;
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
    m_localPort = 0;
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
    if (m_localPort == 0 || m_inFlight) {
        return; // the tunnel is not up yet, or the last poll has not answered: never pile up
    }
    m_inFlight = true;
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/health").arg(m_localPort)));
    request.setTransferTimeout(10000);
    QNetworkReply *reply = m_http->get(request);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
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

void ServerSampler::pollMetrics()
{
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_localPort)));
    request.setTransferTimeout(10000);
    if (!m_apiKey.isEmpty()) { // older images guard /metrics too (sglang-facts §2)
        request.setRawHeader("Authorization", "Bearer " + m_apiKey.toUtf8());
    }
    QNetworkReply *reply = m_http->get(request);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 404) {
            m_metricsMissing = true; // no --enable-metrics: /v1/loads from now on
            pollLoads();
            return;
        }
        m_inFlight = false;
        if (status != 200) {
            Q_EMIT failed(QCoreApplication::translate("Metrics", "/metrics answered %1 %2")
                              .arg(status)
                              .arg(reply->errorString()));
            return;
        }
        const PromScrape scrape = parsePrometheusText(reply->readAll());
        setFromLog(false);
        publish(snapshotFromMetrics(scrape, QDateTime::currentMSecsSinceEpoch()));
    });
}

void ServerSampler::pollLoads()
{
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/loads").arg(m_localPort)));
    request.setTransferTimeout(10000);
    if (!m_apiKey.isEmpty()) {
        request.setRawHeader("Authorization", "Bearer " + m_apiKey.toUtf8());
    }
    QNetworkReply *reply = m_http->get(request);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        m_inFlight = false;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 401) {
            setFromLog(true);
            Q_EMIT failed(
                QCoreApplication::translate("Metrics",
                                            "/v1/loads needs the server's API key, and Flashdeck does not have it "
                                            "(the keyring holds it for deployments Flashdeck made); reading the "
                                            "log's Decode batch lines instead"));
            return;
        }
        const ServerSnapshot s = snapshotFromLoads(reply->readAll(), QDateTime::currentMSecsSinceEpoch());
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

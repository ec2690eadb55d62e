#pragma once

#include "backend/core/localhttpclient.h"
#include "backend/metrics/hoststate.h"
#include "backend/metrics/serversnapshot.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>
#include <optional>

class QTimer;

namespace flashdeck::ssh {
class Transport;
class TunnelReply;
} // namespace flashdeck::ssh

namespace flashdeck::metrics {

/**
 * One SGLang server, every `periodMs`, through an SSH tunnel to its loopback port (F16):
 * `/health` for its state, then `/metrics` (with --enable-metrics), else `/v1/loads` with the
 * API key (sglang-facts §5, §2), else the `Decode batch` lines of the server's log, which the
 * owner follows and feeds in while fromLog() (sglang-facts §11). Rates and percentiles come
 * from consecutive snapshots.
 */
class ServerSampler final : public QObject
{
    Q_OBJECT

public:
    ServerSampler(ssh::Transport &connection, quint16 remotePort, QString apiKey, int periodMs = 2000,
                  QObject *parent = nullptr);
    ~ServerSampler() override;

    void start();
    void stop();
    quint16 remotePort() const { return m_remotePort; }
    /** The key arrived late (read from the running container): sent from the next poll on. */
    void setApiKey(const QString &apiKey);
    /** Neither /metrics nor /v1/loads gave numbers: they come from the log's Decode batch lines. */
    bool fromLog() const { return m_fromLog; }
    /** A line of the server's log; a Decode batch line becomes a snapshot while fromLog(). */
    void feedLogLine(QByteArrayView line, qint64 atMs);

Q_SIGNALS:
    /** Ok (200), Starting (503, or the port answers nothing yet) or Down (no server). */
    void healthChanged(flashdeck::metrics::ServerHealth health);
    void sampled(const flashdeck::metrics::ServerSnapshot &snapshot, const flashdeck::metrics::ServerRates &rates);
    void failed(const QString &message);
    /** Whether the owner should follow the server's log for numbers (see fromLog()). */
    void logFallbackChanged(bool fromLog);

private:
    void openTunnel();
    void dropTunnel();
    void poll();
    void pollMetrics();
    void pollLoads();
    void publish(ServerSnapshot snapshot);
    void setHealth(ServerHealth health);
    void setFromLog(bool fromLog);
    LocalHttpClient::Headers authorization() const;

    static constexpr int kTimeoutMs = 10000;

    ssh::Transport &m_conn;
    quint16 m_remotePort;
    QString m_apiKey; // sent as a Bearer header, never logged
    QTimer *m_timer;
    QPointer<ssh::TunnelReply> m_tunnel;
    std::unique_ptr<LocalHttpClient> m_http; // on the tunnel's local port, while it is up
    bool m_running = false;
    bool m_metricsMissing = false; // /metrics answered 404: the server runs without --enable-metrics
    bool m_inFlight = false;
    bool m_fromLog = false;
    ServerHealth m_health = ServerHealth::Unknown;
    std::optional<ServerSnapshot> m_previous;
};

} // namespace flashdeck::metrics

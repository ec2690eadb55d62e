#pragma once

#include "backend/metrics/serversnapshot.h"

#include <QList>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace flashdeck::ssh {
class Transport;
} // namespace flashdeck::ssh

namespace flashdeck::metrics {

class ServerSampler;

/**
 * The other services of a deployment that runs several behind the SGLang Router (an 8-GPU node,
 * the AMD profile): the Router has none of SGLang's metrics, so each service is sampled on its own
 * port and the monitor adds them up with the first one's (sumOfServices). Keeps each one's last look.
 */
class ServiceSamplers final : public QObject
{
    Q_OBJECT

public:
    ServiceSamplers(ssh::Transport &connection, const QList<quint16> &ports, const QString &apiKey, int periodMs,
                    QObject *parent = nullptr);
    ~ServiceSamplers() override;

    void start();
    void stop();
    void setApiKey(const QString &apiKey);
    /** The last look at each service that answered, in port order. */
    QList<ServiceSnapshot> latest() const;

private:
    std::vector<std::unique_ptr<ServerSampler>> m_samplers;
    QList<ServiceSnapshot> m_latest; // one per sampler; atMs 0 until it answered
};

} // namespace flashdeck::metrics

#include "backend/metrics/servicesamplers.h"

#include "backend/metrics/serversampler.h"

namespace flashdeck::metrics {

ServiceSamplers::ServiceSamplers(ssh::Transport &connection, const QList<quint16> &ports, const QString &apiKey,
                                 int periodMs, QObject *parent)
    : QObject(parent)
{
    for (const quint16 port : ports) {
        const qsizetype index = m_latest.size();
        m_latest.append(ServiceSnapshot{port, {}});
        m_samplers.push_back(std::make_unique<ServerSampler>(connection, port, apiKey, periodMs));
        connect(m_samplers.back().get(), &ServerSampler::sampled, this,
                [this, index](const ServerSnapshot &s, const ServerRates &) { m_latest[index].snapshot = s; });
    }
}

ServiceSamplers::~ServiceSamplers() = default;

void ServiceSamplers::start()
{
    for (const auto &s : m_samplers) {
        s->start();
    }
}

void ServiceSamplers::stop()
{
    for (const auto &s : m_samplers) {
        s->stop();
    }
}

void ServiceSamplers::setApiKey(const QString &apiKey)
{
    for (const auto &s : m_samplers) {
        s->setApiKey(apiKey);
    }
}

QList<ServiceSnapshot> ServiceSamplers::latest() const
{
    QList<ServiceSnapshot> answered;
    for (const ServiceSnapshot &s : m_latest) {
        if (s.snapshot.atMs > 0) {
            answered.append(s);
        }
    }
    return answered;
}

} // namespace flashdeck::metrics

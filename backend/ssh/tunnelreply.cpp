#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>

namespace flashdeck::ssh {

TunnelReply::TunnelReply(std::function<void()> close, QObject *parent)
    : QObject(parent)
    , m_close(std::move(close))
{ }

TunnelReply::~TunnelReply()
{
    close();
}

LinkOpener TunnelReply::link() const
{
    return m_link.isNull() ? LinkOpener::loopback(m_port) : m_link;
}

void TunnelReply::close()
{
    if (m_phase == Phase::Failed || m_phase == Phase::Closed) {
        return;
    }
    m_phase = Phase::Closed;
    m_error = QCoreApplication::translate("Ssh", "Closed.");
    if (m_close) {
        m_close();
    }
}

void TunnelReply::abandon()
{
    disconnect();
    close();
    deleteLater();
}

void TunnelReply::onOpened(QObject *context, std::function<void(quint16)> ready,
                           std::function<void(const QString &)> failed)
{
    connect(this, &TunnelReply::ready, context, std::move(ready));
    connect(this, &TunnelReply::failed, context, std::move(failed));
}

void TunnelReply::deliverReady(quint16 localPort)
{
    if (m_phase != Phase::Opening) {
        return;
    }
    m_phase = Phase::Ready;
    m_port = localPort;
    Q_EMIT ready(localPort);
}

void TunnelReply::deliverFailed(const QString &message)
{
    if (m_phase == Phase::Opening) {
        m_phase = Phase::Failed;
        m_error = message;
        Q_EMIT failed(message);
        Q_EMIT ended(message);
    } else if (m_phase == Phase::Ready) {
        m_phase = Phase::Closed;
        m_error = message;
        Q_EMIT closed(message);
        Q_EMIT ended(message);
    }
}

} // namespace flashdeck::ssh

#pragma once

#include "backend/core/linkopener.h"

#include <QObject>
#include <QString>

#include <functional>

namespace flashdeck::ssh {

/**
 * One tunnel opened through a host: connections that reach a port on the host, or run a
 * command there (docker system dial-stdio). They are opened through link(): a private link
 * (no port: localPort() is 0) or a local 127.0.0.1 port. It reports only its own
 * opening and end: `ready` or `failed` once, then `closed` if it goes away after it was ready
 * (the session dropped). Parented to the caller's object: destroying it closes the tunnel.
 */
class TunnelReply final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TunnelReply)

public:
    enum class Phase { Opening, Ready, Failed, Closed };
    Q_ENUM(Phase)

    TunnelReply(std::function<void()> close, QObject *parent);
    ~TunnelReply() override;

    Phase phase() const { return m_phase; }
    /** 0 until ready, and for a private tunnel (no listener at all). */
    quint16 localPort() const { return m_port; }
    /**
     * Opens connections through the tunnel once it is ready: its private links where the
     * transport gives them, otherwise TCP to localPort(). Stays safe to use after the reply is gone.
     */
    LinkOpener link() const;
    /** For transports: the tunnel's private links. */
    void setLink(LinkOpener link) { m_link = std::move(link); }
    /** Why it failed or closed, in the transport's words. */
    const QString &errorText() const { return m_error; }
    void close();
    /** The caller is done with it: no more signals, closed, deleted later (safe in its own signals). */
    void abandon();

    /** Calls `ready` or `failed` once, as it opens or does not, in `context`'s lifetime. */
    void onOpened(QObject *context, std::function<void(quint16 localPort)> ready,
                  std::function<void(const QString &message)> failed);

    /** For transports. */
    void deliverReady(quint16 localPort);
    void deliverFailed(const QString &message);

Q_SIGNALS:
    void ready(quint16 localPort);
    /** It never opened. */
    void failed(const QString &message);
    /** It was ready and is gone. */
    void closed(const QString &message);
    /** Either: it never opened, or it was ready and is gone (for callers that treat both alike). */
    void ended(const QString &message);

private:
    std::function<void()> m_close;
    Phase m_phase = Phase::Opening;
    quint16 m_port = 0;
    LinkOpener m_link;
    QString m_error;
};

} // namespace flashdeck::ssh

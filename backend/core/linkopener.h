#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

class QObject;
class QTcpSocket;

namespace flashdeck {

/**
 * Opens a connected stream socket to whatever a tunnel leads to, for an HTTP client
 * (LocalHttpClient, LinkReply). Two kinds: a tunnel's private link (a socket pair whose other
 * end the SSH worker adopts: no port exists that another local user could open), or a TCP
 * connection to a port on 127.0.0.1 (a test's server, a tunnel the operator asked for).
 * Copyable; a private link's opener stays safe to call after its tunnel went away (the
 * connection then ends at once).
 */
class LinkOpener
{
public:
    /** Returns a connected descriptor (the caller owns it), or -1 with `error` set. */
    using Open = std::function<int(QString *error)>;

    LinkOpener() = default;
    LinkOpener(Open open, QByteArray hostHeader);

    /** TCP to 127.0.0.1:`port`; the Host header names it. */
    static LinkOpener loopback(quint16 port);

    bool isNull() const;
    /** A new connection (O_CLOEXEC, blocking: the caller's socket class makes it non-blocking). */
    [[nodiscard]] int open(QString *error) const;
    /**
     * A new connection as a QTcpSocket child of `parent`, or nullptr with `error` set (the
     * opener's words, or the socket's for a descriptor it would not take).
     */
    [[nodiscard]] QTcpSocket *openSocket(QObject *parent, QString *error) const;
    /**
     * Ends a socket openSocket() gave: no more signals to `receiver`, closed now, deleted later
     * (this may run inside the socket's own signal, and an owner deleted from a callback must not
     * delete the socket under it). Sets `socket` to nullptr; nothing for a null one.
     */
    static void release(QTcpSocket *&socket, QObject *receiver);
    /** What an HTTP request on it says in `Host:` unless the caller says otherwise. */
    const QByteArray &hostHeader() const { return m_hostHeader; }

private:
    Open m_open;
    QByteArray m_hostHeader;
};

} // namespace flashdeck

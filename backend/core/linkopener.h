#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

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

    bool isNull() const { return !m_open; }
    /** A new connection (O_CLOEXEC, blocking: the caller's socket class makes it non-blocking). */
    [[nodiscard]] int open(QString *error) const;
    /** What an HTTP request on it says in `Host:` unless the caller says otherwise. */
    const QByteArray &hostHeader() const { return m_hostHeader; }

private:
    Open m_open;
    QByteArray m_hostHeader;
};

} // namespace flashdeck

#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace flashdeck::expose {

/**
 * What `expose` learns of a host in one command before it changes anything: its home (the
 * gateway's folder is under it), whether it has openssl (the self-signed certificate is made
 * there, and an operator's key is checked there), and the TCP sockets listening (`ss -Htln`).
 */
class GatewayHostFacts final
{
public:
    /** The shell command that prints them, each line tagged. */
    static QByteArray probeCommand();
    static GatewayHostFacts parse(const QByteArray &output);

    const QString &home() const { return m_home; }
    bool hasOpenssl() const { return m_openssl; }
    bool hasSocketList() const { return m_ss; }
    /** Local addresses listening, as ss prints them ("127.0.0.1:30000", "[::]:22", "*:8443"). */
    const QStringList &listeners() const { return m_listeners; }
    /**
     * The socket already on `port` that keeps nginx from binding `address:port` (Linux: a
     * wildcard of a family conflicts with every address of it, and "*" with both), if any.
     */
    std::optional<QString> taking(const QString &address, int port) const;

private:
    QString m_home;
    bool m_openssl = false;
    bool m_ss = false;
    QStringList m_listeners;
};

} // namespace flashdeck::expose

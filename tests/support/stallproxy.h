#pragma once

#include <QObject>
#include <QPointer>

#include <vector>

class QTcpServer;
class QTcpSocket;

namespace flashdeck::test {

/**
 * A loopback TCP relay in front of a server that can be told to go silent: after stall(), the
 * connections it carries stop forwarding in both directions (what arrives is dropped), while
 * both TCP connections stay open — a silently dropped link, as a NAT entry expiring or a cut
 * upstream of a switch looks to both ends. Connections made after stall() are relayed again (the
 * network came back). Lives on the thread that creates it; needs that thread's event loop.
 */
class StallProxy final : public QObject
{
    Q_OBJECT

public:
    explicit StallProxy(quint16 upstreamPort, QObject *parent = nullptr);
    ~StallProxy() override;

    bool listen();
    quint16 port() const;
    /** Every connection open now goes silent. */
    void stall();
    int connectionsAccepted() const { return m_accepted; }
    qint64 bytesDropped() const { return m_dropped; }

private:
    struct Pair
    {
        QPointer<QTcpSocket> client;
        QPointer<QTcpSocket> upstream;
        bool stalled = false;
    };
    void accept();
    void relay(Pair &pair, QTcpSocket *from, QTcpSocket *to);

    quint16 m_upstreamPort;
    QTcpServer *m_server;
    std::vector<Pair *> m_pairs;
    int m_accepted = 0;
    qint64 m_dropped = 0;
};

} // namespace flashdeck::test

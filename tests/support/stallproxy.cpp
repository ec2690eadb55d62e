#include "tests/support/stallproxy.h"

#include <QTcpServer>
#include <QTcpSocket>

namespace flashdeck::test {

StallProxy::StallProxy(quint16 upstreamPort, QObject *parent)
    : QObject(parent)
    , m_upstreamPort(upstreamPort)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &StallProxy::accept);
}

StallProxy::~StallProxy()
{
    for (Pair *p : m_pairs) {
        delete p;
    }
}

bool StallProxy::listen()
{
    return m_server->listen(QHostAddress::LocalHost, 0);
}

quint16 StallProxy::port() const
{
    return m_server->serverPort();
}

void StallProxy::stall()
{
    for (Pair *p : m_pairs) {
        p->stalled = true;
    }
}

void StallProxy::accept()
{
    while (QTcpSocket *client = m_server->nextPendingConnection()) {
        ++m_accepted;
        auto *pair = new Pair;
        m_pairs.push_back(pair);
        pair->client = client;
        pair->upstream = new QTcpSocket(this);
        client->setParent(this);
        // Hold the client's bytes until the upstream connection is up (readyRead fires again).
        connect(pair->upstream, &QTcpSocket::connected, this,
                [this, pair] { relay(*pair, pair->client, pair->upstream); });
        connect(client, &QTcpSocket::readyRead, this, [this, pair] {
            if (pair->upstream && pair->upstream->state() == QAbstractSocket::ConnectedState) {
                relay(*pair, pair->client, pair->upstream);
            }
        });
        connect(pair->upstream, &QTcpSocket::readyRead, this,
                [this, pair] { relay(*pair, pair->upstream, pair->client); });
        // A real close on either side is passed on unless the link is stalled (then nothing is).
        // Each side read once into a plain pointer: GCC's -Wnull-dereference at -O3 does not
        // follow a QPointer's check to its use (the release build failed on it).
        connect(client, &QTcpSocket::disconnected, this, [pair] {
            if (QTcpSocket *up = pair->upstream.data(); up && !pair->stalled) {
                up->disconnectFromHost();
            }
        });
        connect(pair->upstream, &QTcpSocket::disconnected, this, [pair] {
            if (QTcpSocket *down = pair->client.data(); down && !pair->stalled) {
                down->disconnectFromHost();
            }
        });
        pair->upstream->connectToHost(QHostAddress::LocalHost, m_upstreamPort);
    }
}

void StallProxy::relay(Pair &pair, QTcpSocket *from, QTcpSocket *to)
{
    if (!from || !to) {
        return;
    }
    const QByteArray data = from->readAll();
    if (pair.stalled) {
        m_dropped += data.size();
        return;
    }
    to->write(data);
}

} // namespace flashdeck::test

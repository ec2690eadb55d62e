#include "backend/expose/gatewayrequest.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QNetworkProxy>
#include <QSslKey>

namespace flashdeck::expose {

GatewayRequest::GatewayRequest(const QString &host, int port, bool tls, QByteArray request, int timeoutMs, QString pin,
                               QObject *parent)
    : QObject(parent)
    , m_request(std::move(request))
{
    m_socket.setProxy(QNetworkProxy::NoProxy); // as a colleague's client goes: straight there
    m_socket.setPeerVerifyMode(QSslSocket::VerifyNone);
    connect(&m_socket, &QSslSocket::readyRead, this, [this] { m_received += m_socket.readAll(); });
    connect(&m_socket, &QSslSocket::disconnected, this, [this] { end(); });
    connect(&m_socket, &QSslSocket::errorOccurred, this, [this](QAbstractSocket::SocketError e) {
        // The server closing after its answer is the end of the answer, not a failure.
        end(e == QAbstractSocket::RemoteHostClosedError ? QString() : m_socket.errorString());
    });
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        end(QCoreApplication::translate("Expose", "no answer within %1 s").arg(m_timeout.interval() / 1000));
    });
    m_timeout.start(timeoutMs);
    if (tls) {
        connect(&m_socket, &QSslSocket::encrypted, this, [this, pin] {
            m_answer.peer = m_socket.peerCertificate();
            if (!pin.isEmpty() && pinOf(m_answer.peer) != pin) {
                end(QCoreApplication::translate("Expose",
                                                "another key answered (sha256//%1), not the recorded one: "
                                                "nothing was sent")
                        .arg(pinOf(m_answer.peer)));
                return;
            }
            m_socket.write(m_request);
        });
        m_socket.connectToHostEncrypted(host, quint16(port));
    } else {
        connect(&m_socket, &QSslSocket::connected, this, [this] { m_socket.write(m_request); });
        m_socket.connectToHost(host, quint16(port));
    }
}

QString GatewayRequest::pinOf(const QSslCertificate &certificate)
{
    return certificate.isNull()
        ? QString()
        : QString::fromLatin1(
              QCryptographicHash::hash(certificate.publicKey().toDer(), QCryptographicHash::Sha256).toBase64());
}

QByteArray GatewayRequest::build(const QByteArray &method, const QByteArray &path, const QString &host,
                                 const QByteArray &headers, const QByteArray &body)
{
    QByteArray r = method + ' ' + path + " HTTP/1.1\r\nHost: " + host.toUtf8() +
        "\r\nConnection: close\r\nUser-Agent: flashdeck-expose-check\r\n" + headers;
    if (!body.isNull()) {
        r += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    }
    return r + "\r\n" + body;
}

void GatewayRequest::end(const QString &error)
{
    if (m_ended) {
        return;
    }
    m_ended = true;
    m_timeout.stop();
    m_received += m_socket.readAll();
    // "HTTP/1.1 401 Unauthorized\r\n…\r\n\r\nbody" (chunked bodies are read as sent: the check
    // only looks for words in them).
    const qsizetype headEnd = m_received.indexOf("\r\n\r\n");
    if (m_received.startsWith("HTTP/1.") && headEnd > 0) {
        m_answer.status = m_received.mid(9, 3).toInt();
        m_answer.body = m_received.mid(headEnd + 4);
    } else {
        m_answer.error = error.isEmpty() ? QCoreApplication::translate("Expose", "no HTTP answer") : error;
    }
    m_socket.abort();
    Q_EMIT finished();
}

} // namespace flashdeck::expose

#pragma once

#include <QByteArray>
#include <QObject>
#include <QSslCertificate>
#include <QSslSocket>
#include <QString>
#include <QTimer>

namespace flashdeck::expose {

/**
 * One HTTP/1.1 request with `Connection: close`, over TLS or not, on a socket of the caller's
 * thread, for `expose --check`. Not QNetworkAccessManager: its connections live in a thread of
 * their own, and a process that ends right after its last answer (the CLI) left their TLS
 * objects behind (LeakSanitizer saw it). The certificate is not verified: the check compares
 * its public key with the recorded pin, as `curl --pinnedpubkey` does.
 */
class GatewayRequest final : public QObject
{
    Q_OBJECT

public:
    struct Answer
    {
        int status = 0; // 0: no answer
        QByteArray body;
        QString error; // the socket's words when there was no answer
        QSslCertificate peer; // TLS only
    };

    /**
     * Over TLS when `tls`; then, with a `pin`, the request (which may carry the API key) is written
     * only to a peer whose public key has that pin, on this connection, and never otherwise: a
     * pin checked on one connection says nothing of the next.
     */
    GatewayRequest(const QString &host, int port, bool tls, QByteArray request, int timeoutMs, QString pin = {},
                   QObject *parent = nullptr);
    /** A certificate's public-key pin as curl's --pinnedpubkey takes it: base64 of SHA-256 of the SPKI. */
    static QString pinOf(const QSslCertificate &certificate);
    /** "GET /v1/models HTTP/1.1" with Host, Connection: close, the headers and the body. */
    static QByteArray build(const QByteArray &method, const QByteArray &path, const QString &host,
                            const QByteArray &headers, const QByteArray &body);
    const Answer &answer() const { return m_answer; }

Q_SIGNALS:
    void finished();

private:
    void end(const QString &error = {});

    QSslSocket m_socket;
    QTimer m_timeout;
    QByteArray m_request;
    QByteArray m_received;
    Answer m_answer;
    bool m_ended = false;
};

} // namespace flashdeck::expose

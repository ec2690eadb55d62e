#pragma once

#include "backend/core/httpresponseparser.h"
#include "backend/core/linkopener.h"

#include <QNetworkReply>

class QTcpSocket;
class QTimer;

namespace flashdeck {

/**
 * One HTTP/1.1 request over a connection of its own that a LinkOpener gives (`Connection:
 * close`), read as a QNetworkReply: status and headers (metaDataChanged), the body as it
 * arrives (readyRead: streams such as a pull's progress or `logs?follow=1`), then finished.
 * Why not QNetworkAccessManager: Qt 6.4's cannot speak over a descriptor it did not connect,
 * and a tunnel's private link (a socket pair, no port) is what keeps every other local user
 * away from the host's Docker Engine (docs/SECURITY.md).
 *
 * Errors as QNetworkAccessManager reports them: a connection that could not be opened or
 * closed early is RemoteHostClosedError/ConnectionRefusedError with the socket's words; an
 * HTTP error status is only an attribute (the body is dockerd's JSON message); abort() is
 * OperationCanceledError.
 */
class LinkReply final : public QNetworkReply
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LinkReply)

public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    /** Starts at once (from the event loop): no signal is emitted before the caller connects. */
    LinkReply(const LinkOpener &link, const QByteArray &method, const QByteArray &pathAndQuery, const Headers &headers,
              const QByteArray &body, QObject *parent);
    ~LinkReply() override;

    /**
     * As QNetworkRequest's: the reply fails with TimeoutError once no byte came for `ms`
     * (0: never). Set it before the event loop runs, or any time after.
     */
    void setTransferTimeout(int ms);

    void abort() override;
    qint64 bytesAvailable() const override;
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char *data, qint64 maxSize) override;

private:
    void start(const LinkOpener &link, QByteArray request);
    void onReadyRead();
    void onClosed();
    void fail(NetworkError code, const QString &message);
    void finishOk();
    void dropSocket();

    QTcpSocket *m_socket = nullptr;
    HttpResponseParser m_parser;
    QByteArray m_in; // read from the connection, not yet parsed
    QByteArray m_body; // decoded, not yet read by the caller
    bool m_metaDataSent = false;
    QTimer *m_idle = nullptr;
};

} // namespace flashdeck

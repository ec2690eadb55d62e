#include "backend/core/linkreply.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <cstring>

namespace flashdeck {

namespace {

bool hasHeader(const LinkReply::Headers &headers, QByteArrayView name)
{
    return std::any_of(headers.begin(), headers.end(), [name](const auto &h) {
        return h.first.size() == name.size() && QByteArrayView(h.first).compare(name, Qt::CaseInsensitive) == 0;
    });
}

/** The error QNetworkAccessManager gives an HTTP status (statusCodeFromHttp in Qt 6.4). */
QNetworkReply::NetworkError errorOf(int status)
{
    switch (status) {
    case 400:
    case 418:
        return QNetworkReply::ProtocolInvalidOperationError;
    case 401:
        return QNetworkReply::AuthenticationRequiredError;
    case 403:
        return QNetworkReply::ContentAccessDenied;
    case 404:
        return QNetworkReply::ContentNotFoundError;
    case 405:
        return QNetworkReply::ContentOperationNotPermittedError;
    case 407:
        return QNetworkReply::ProxyAuthenticationRequiredError;
    case 409:
        return QNetworkReply::ContentConflictError;
    case 410:
        return QNetworkReply::ContentGoneError;
    case 500:
        return QNetworkReply::InternalServerError;
    case 501:
        return QNetworkReply::OperationNotImplementedError;
    case 503:
        return QNetworkReply::ServiceUnavailableError;
    default:
        return status > 500 ? QNetworkReply::UnknownServerError : QNetworkReply::UnknownContentError;
    }
}

} // namespace

LinkReply::LinkReply(const LinkOpener &link, const QByteArray &method, const QByteArray &pathAndQuery,
                     const Headers &headers, const QByteArray &body, QObject *parent)
    : QNetworkReply(parent)
{
    setOperation(QNetworkAccessManager::CustomOperation);
    setUrl(QUrl(QStringLiteral("http://") + QString::fromLatin1(link.hostHeader() + pathAndQuery)));
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);

    QByteArray request = method + ' ' + pathAndQuery + " HTTP/1.1\r\n";
    if (!hasHeader(headers, "host")) {
        request += "Host: " + link.hostHeader() + "\r\n";
    }
    for (const auto &[name, value] : headers) {
        request += name + ": " + value + "\r\n";
    }
    if (!body.isEmpty() || method == "POST" || method == "PUT") {
        request += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    }
    // One request per connection: on a private link each is one short-lived channel, and
    // nothing waits on a kept-alive connection the server may close under it.
    request += "Connection: close\r\n\r\n" + body;
    QTimer::singleShot(0, this, [this, link, request]() mutable {
        start(link, std::move(request));
        request.fill('\0'); // may hold an API key or a launch line
    });
}

LinkReply::~LinkReply()
{
    dropSocket();
}

void LinkReply::start(const LinkOpener &link, QByteArray request)
{
    if (isFinished()) {
        return; // aborted before it started
    }
    QString error;
    m_socket = link.openSocket(this, &error);
    if (!m_socket) {
        fail(ConnectionRefusedError, error);
        return;
    }
    connect(m_socket, &QTcpSocket::readyRead, this, &LinkReply::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &LinkReply::onClosed);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError socketError) {
        if (socketError != QAbstractSocket::RemoteHostClosedError) {
            onClosed(); // the peer closing is also "disconnected", which reads what came first
        }
    });
    m_socket->write(request);
    request.fill('\0');
}

void LinkReply::setTransferTimeout(int ms)
{
    if (ms <= 0) {
        delete m_idle;
        m_idle = nullptr;
        return;
    }
    if (!m_idle) {
        m_idle = new QTimer(this);
        m_idle->setSingleShot(true);
        connect(m_idle, &QTimer::timeout, this,
                [this] { fail(TimeoutError, QCoreApplication::translate("Core", "Operation timed out")); });
    }
    m_idle->start(ms);
}

void LinkReply::onReadyRead()
{
    if (!m_socket || isFinished()) {
        return;
    }
    if (m_idle) {
        m_idle->start(); // a byte came: the wait starts again
    }
    m_in += m_socket->readAll();
    const qsizetype before = m_body.size();
    const HttpResponseParser::Result result = m_parser.feed(m_in, m_body);
    if (m_parser.headersDone() && !m_metaDataSent) {
        m_metaDataSent = true;
        setAttribute(QNetworkRequest::HttpStatusCodeAttribute, m_parser.status());
        setAttribute(QNetworkRequest::HttpReasonPhraseAttribute, QString::fromLatin1(m_parser.reason()));
        for (const auto &[name, value] : m_parser.headers()) {
            setRawHeader(name, value);
        }
        Q_EMIT metaDataChanged();
    }
    if (result == HttpResponseParser::Result::Failed) {
        fail(ProtocolFailure,
             QCoreApplication::translate("Core", "The server's answer was not HTTP that Flashdeck can read."));
        return;
    }
    if (m_body.size() > before) {
        Q_EMIT readyRead();
    }
    if (result == HttpResponseParser::Result::Done) {
        finishOk();
    }
}

void LinkReply::onClosed()
{
    if (!m_socket || isFinished()) {
        return;
    }
    if (m_socket->bytesAvailable() > 0) {
        onReadyRead();
        if (isFinished()) {
            return;
        }
    }
    if (m_parser.completeAtClose()) {
        finishOk();
        return;
    }
    fail(RemoteHostClosedError,
         m_parser.headersDone() || m_socket->error() == QAbstractSocket::RemoteHostClosedError
             ? QCoreApplication::translate("Core", "The connection closed before the answer was complete.")
             : m_socket->errorString());
}

void LinkReply::fail(NetworkError code, const QString &message)
{
    dropSocket();
    setError(code, message);
    setFinished(true);
    Q_EMIT errorOccurred(code);
    Q_EMIT finished();
}

void LinkReply::finishOk()
{
    dropSocket();
    if (const int status = m_parser.status(); status >= 400) {
        // As QNetworkAccessManager reports an error status (qhttpthreaddelegate.cpp): the body
        // (dockerd's JSON message) stays readable, error() says the status's kind.
        setError(errorOf(status),
                 QCoreApplication::translate("Core", "Error transferring %1 - server replied: %2")
                     .arg(url().toString(), QString::fromLatin1(m_parser.reason())));
        setFinished(true);
        Q_EMIT errorOccurred(error());
        Q_EMIT finished();
        return;
    }
    setFinished(true);
    Q_EMIT finished();
}

void LinkReply::abort()
{
    if (isFinished()) {
        return;
    }
    // Closing the connection is what makes dockerd cancel a pull or end a follow.
    fail(OperationCanceledError, QCoreApplication::translate("Core", "Operation canceled"));
    close(); // as QNetworkAccessManager's: an aborted reply is closed, nothing more to read
}

qint64 LinkReply::bytesAvailable() const
{
    return m_body.size() + QNetworkReply::bytesAvailable();
}

qint64 LinkReply::readData(char *data, qint64 maxSize)
{
    if (m_body.isEmpty()) {
        return isFinished() ? -1 : 0;
    }
    const qint64 n = std::min<qint64>(maxSize, m_body.size());
    std::memcpy(data, m_body.constData(), static_cast<size_t>(n));
    m_body.remove(0, n);
    return n;
}

void LinkReply::dropSocket()
{
    if (m_idle) {
        m_idle->stop(); // the connection is over: nothing more to wait for
    }
    LinkOpener::release(m_socket, this);
}

} // namespace flashdeck

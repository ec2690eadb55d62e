#pragma once

#include "backend/core/linkopener.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>

#include <nlohmann/json_fwd.hpp>

#include <functional>

class QNetworkReply;

namespace flashdeck {
class LocalHttpClient;
}

namespace flashdeck::docker {

class DockerEndpoint;

/** A finished Engine API call. */
struct DockerResponse
{
    int status = 0; // HTTP status; 0 when the call never got an answer
    QByteArray body;
    QString transportError; // the tunnel or connection failed: no answer at all

    bool ok() const { return transportError.isEmpty() && status >= 200 && status < 300; }
    /** dockerd's `{"message": …}`, or the transport error, or "HTTP <status>". */
    QString message() const;
    nlohmann::json json() const;
};

/**
 * The Docker Engine API spoken over Flashdeck's stdio tunnel (`docker system dial-stdio`
 * on the host, the transport the docker CLI uses for ssh:// hosts; host contract §3). Each
 * HTTP connection through the tunnel is one exec channel (one dial-stdio) on the host's single
 * SSH session. Calls share one kept-alive connection, one at a time (over a DockerEndpoint:
 * the host's one, shared with every other part of the process); each stream (pull, logs,
 * wait) is a connection of its own (LinkReply), as it never leaves room for another request.
 * Calls are asynchronous; streams hand out the QNetworkReply.
 */
class DockerClient final : public QObject
{
    Q_OBJECT

public:
    /** `tunnelPort`: the local port of HostConnection::openStdioTunnel("docker system dial-stdio"). */
    explicit DockerClient(quint16 tunnelPort, QObject *parent = nullptr);
    /** Over a tunnel's private link (TunnelReply::link()): no port another local user could open. */
    explicit DockerClient(LinkOpener link, QObject *parent = nullptr);
    /**
     * Over the host's endpoint (open: DockerEndpoint::whenOpen): its one call connection and its
     * tunnel for streams. A call made after the tunnel closed fails with the transport's words.
     */
    explicit DockerClient(DockerEndpoint &endpoint, QObject *parent = nullptr);
    ~DockerClient() override;

    /** The API version path prefix in use ("/v1.47"); settled by ping(). */
    QString apiPrefix() const { return m_prefix; }

    using Done = std::function<void(const DockerResponse &)>;
    /** GET /_ping, and settle the API version: the server's, at most the one we speak. */
    void ping(Done done);
    /** `timeoutMs`: fail with "No answer within N s" once the answer is that late (0: never, as a stop). */
    void call(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody, Done done,
              int timeoutMs = 0);
    /**
     * Aborts every call and stream in flight; none of their callbacks runs. Closing a pull's
     * connection makes dockerd cancel that pull (the layers it finished stay). A call already on
     * a shared connection is left to finish there, unheard: the others on it go on.
     */
    void abortAll();
    /**
     * abortAll(), and lets go of the endpoint now: its tunnel closes if nobody else uses it. For
     * an owner that deletes the client later (from inside one of its signals); no use after.
     */
    void close();
    /** A streamed call: read it as it arrives; it is deleted with this client at the latest. */
    QNetworkReply *stream(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody = {});

    /** Percent-encodes a query value (image references hold '/', ':' and '@'). */
    static QString q(const QString &value);
    /** The status and body of a finished reply, as call() reports them. */
    /** What a call that got no answer says, with `detail` (the socket's or tunnel's words). */
    static QString noAnswer(const QString &detail);
    static DockerResponse responseOf(QNetworkReply *reply);

private:
    QNetworkReply *send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody);
    using Answer = std::function<void(DockerResponse, const QByteArray &apiVersion)>;
    /** One call on the shared (or own) kept-alive connection; `answer` runs unless aborted since. */
    void request(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody, Answer answer,
                 int timeoutMs = 0);
    LinkOpener link() const;

    LinkOpener m_link; // without an endpoint
    LocalHttpClient *m_ownCalls = nullptr; // without an endpoint: this client's kept-alive connection
    QPointer<DockerEndpoint> m_endpoint;
    quint64 m_generation = 0; // abortAll() bumps it: answers of calls made before are dropped
    QString m_prefix = QStringLiteral("/v1.41");
};

} // namespace flashdeck::docker

#include "backend/docker/dockerclient.h"

#include "backend/applog/logging.h"
#include "backend/core/jsonread.h"
#include "backend/core/linkreply.h"
#include "backend/core/localhttpclient.h"
#include "backend/core/versions.h"
#include "backend/docker/dockerendpoint.h"

#include <QCoreApplication>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrl>

#include <nlohmann/json.hpp>
#include <spdlog/logger.h>

namespace flashdeck::docker {

namespace {
// The newest Engine API this client was written against; older servers are spoken to in
// their own version (>= 1.41, Docker 20.10: what Debian 12 ships).
const QString kOurApi = QStringLiteral("1.47");
const QString kOldestApi = QStringLiteral("1.41");
} // namespace

QString DockerResponse::message() const
{
    if (!transportError.isEmpty()) {
        return transportError;
    }
    const nlohmann::json j = json();
    if (j.is_object() && j.contains("message") && j["message"].is_string()) {
        return QString::fromStdString(j["message"].get<std::string>());
    }
    return QStringLiteral("HTTP %1").arg(status);
}

nlohmann::json DockerResponse::json() const
{
    return jsonread::parse(body.constData(), body.constData() + body.size());
}

DockerClient::DockerClient(quint16 tunnelPort, QObject *parent)
    : DockerClient(LinkOpener::loopback(tunnelPort), parent)
{ }

DockerClient::DockerClient(LinkOpener link, QObject *parent)
    : QObject(parent)
    , m_link(std::move(link))
    , m_ownCalls(new LocalHttpClient(m_link, this))
{ }

DockerClient::DockerClient(DockerEndpoint &endpoint, QObject *parent)
    : QObject(parent)
    , m_endpoint(&endpoint)
{
    endpoint.attach();
}

LinkOpener DockerClient::link() const
{
    if (m_ownCalls) {
        return m_link;
    }
    // One read of the QPointer (GCC's -O3 flow analysis treats each read as maybe null).
    const DockerEndpoint *endpoint = m_endpoint.data();
    return endpoint != nullptr ? endpoint->link() : LinkOpener();
}

DockerClient::~DockerClient()
{
    close();
}

void DockerClient::close()
{
    abortAll(); // before the endpoint may close: no callback of this client runs
    if (DockerEndpoint *endpoint = m_endpoint.data()) {
        m_endpoint = nullptr;
        endpoint->detach();
    }
}

QString DockerClient::q(const QString &value)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(value));
}

QNetworkReply *DockerClient::send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody)
{
    // "Host: docker" as the docker CLI sends it over dial-stdio. No timeout: pulls and follows
    // last as long as they last.
    LinkReply::Headers headers{{QByteArrayLiteral("Host"), QByteArrayLiteral("docker")}};
    if (!jsonBody.isEmpty() || method == "POST") {
        headers.append({QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")});
    }
    // The path as given: callers percent-encode query values (q()).
    return new LinkReply(link(), method, pathAndQuery.toUtf8(), headers, jsonBody, this);
}

void DockerClient::request(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody,
                           Answer answer, int timeoutMs)
{
    const DockerEndpoint *endpoint = m_endpoint.data(); // one read (see link())
    LocalHttpClient *calls = m_ownCalls != nullptr ? m_ownCalls : (endpoint != nullptr ? endpoint->calls() : nullptr);
    const quint64 generation = m_generation;
    const QPointer<DockerClient> self(this);
    auto heard = [self, generation, answer = std::move(answer)](const LocalHttpResponse &r) {
        const DockerClient *client = self.data(); // one read (see link())
        if (client == nullptr || client->m_generation != generation) {
            return; // aborted, or gone: nobody waits for it
        }
        DockerResponse res{r.status, r.body, r.status == 0 ? noAnswer(r.error) : QString()};
        QByteArray apiVersion;
        for (const auto &[name, value] : r.headers) {
            if (name.compare("Api-Version", Qt::CaseInsensitive) == 0) {
                apiVersion = value;
            }
        }
        answer(std::move(res), apiVersion);
    };
    if (!calls) {
        const QString closed = QCoreApplication::translate("Docker", "the Docker tunnel is closed");
        QTimer::singleShot(0, this, [heard = std::move(heard), closed] { heard({0, {}, closed, {}}); });
        return;
    }
    // "Host: docker" as the docker CLI sends it over dial-stdio. No timeout unless asked: a stop
    // waits for the container as long as it takes; a poll wants to hear of a hung daemon.
    LocalHttpClient::Headers headers{{QByteArrayLiteral("Host"), QByteArrayLiteral("docker")}};
    if (!jsonBody.isEmpty() || method == "POST") {
        headers.append({QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")});
    }
    calls->request(method, pathAndQuery.toUtf8(), std::move(headers), jsonBody, timeoutMs, std::move(heard));
}

DockerResponse DockerClient::responseOf(QNetworkReply *reply)
{
    DockerResponse r;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.body = reply->readAll();
    if (r.status == 0) {
        r.transportError = noAnswer(reply->errorString());
    }
    return r;
}

QString DockerClient::noAnswer(const QString &detail)
{
    return QCoreApplication::translate("Docker",
                                       "No answer from the Docker Engine through the SSH tunnel: %1. Is Docker "
                                       "installed and running on the host (docker system dial-stdio)?")
        .arg(detail);
}

void DockerClient::call(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody, Done done,
                        int timeoutMs)
{
    // The path only (never a body: a create carries the launch line and its API key).
    const QString path = pathAndQuery.section(QLatin1Char('?'), 0, 0);
    applog::docker().debug("{} {}", method.toStdString(), path.toStdString());
    if (path.endsWith(QLatin1String("/wait")) || path.endsWith(QLatin1String("/stop"))) {
        // These wait for a container (to exit; up to its stop timeout): on a connection of their
        // own, so the shared one never waits for a container.
        QNetworkReply *reply = send(method, m_prefix + pathAndQuery, jsonBody);
        connect(reply, &QNetworkReply::finished, this, [reply, done = std::move(done)] {
            const DockerResponse r = responseOf(reply);
            reply->deleteLater();
            done(r);
        });
        return;
    }
    request(
        method, m_prefix + pathAndQuery, jsonBody,
        [method, pathAndQuery, done = std::move(done)](const DockerResponse &r, const QByteArray &) {
            if (!r.ok()) {
                applog::docker().info("{} {}: {}", method.toStdString(),
                                      pathAndQuery.section(QLatin1Char('?'), 0, 0).toStdString(),
                                      r.message().toStdString());
            }
            done(r);
        },
        timeoutMs);
}

void DockerClient::abortAll()
{
    ++m_generation;
    if (m_ownCalls) {
        m_ownCalls->abortAll();
    }
    for (QNetworkReply *reply : findChildren<QNetworkReply *>(Qt::FindDirectChildrenOnly)) {
        reply->disconnect(); // the caller gave up on it: no callback runs
        if (!reply->isFinished()) {
            reply->abort(); // (aborting a reply that already failed warns: it reports twice)
        }
        reply->deleteLater();
    }
}

void DockerClient::ping(Done done)
{
    request("GET", QStringLiteral("/_ping"), {}, [this, done = std::move(done)](DockerResponse r, const QByteArray &v) {
        const QString server = QString::fromLatin1(v);
        if (r.ok() && !server.isEmpty()) {
            if (compareVersions(server, kOldestApi) < 0) {
                r.status = 0;
                r.transportError =
                    QCoreApplication::translate("Docker",
                                                "The host's Docker Engine speaks API %1; Flashdeck needs %2 or "
                                                "newer (Docker 20.10). Upgrade Docker on the host.")
                        .arg(server, kOldestApi);
            } else {
                m_prefix = QStringLiteral("/v") + (compareVersions(server, kOurApi) < 0 ? server : kOurApi);
            }
        }
        done(r);
    });
}

QNetworkReply *DockerClient::stream(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody)
{
    applog::docker().debug("{} {} (streamed)", method.toStdString(),
                           pathAndQuery.section(QLatin1Char('?'), 0, 0).toStdString());
    return send(method, m_prefix + pathAndQuery, jsonBody);
}

} // namespace flashdeck::docker

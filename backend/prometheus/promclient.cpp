#include "backend/prometheus/promclient.h"

#include <QCoreApplication>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QUrlQuery>

namespace flashdeck::prom {

namespace {

/** The API path under the configured URL's path, with its query; through the tunnel when there is one. */
QUrl apiUrl(const PromConfig &config, const QUrl &route, const QString &path,
            const QList<std::pair<QString, QString>> &params)
{
    QUrl url = config.url;
    QString base = url.path();
    if (!base.endsWith(QLatin1Char('/'))) {
        base += QLatin1Char('/');
    }
    url.setPath(base + path);
    QUrlQuery query;
    for (const auto &[k, v] : params) {
        query.addQueryItem(k, QString::fromLatin1(QUrl::toPercentEncoding(v)));
    }
    url.setQuery(query);
    if (!route.isEmpty()) {
        url.setHost(route.host());
        url.setPort(route.port());
    }
    return url;
}

void addCredentials(QNetworkRequest &request, const PromConfig &config, const QString &secret)
{
    if (config.auth == PromAuth::Bearer && !secret.isEmpty()) {
        request.setRawHeader("Authorization", "Bearer " + secret.toUtf8());
    } else if (config.auth == PromAuth::Basic) {
        request.setRawHeader("Authorization", "Basic " + (config.user + QLatin1Char(':') + secret).toUtf8().toBase64());
    }
}

/** What a finished reply says: the parsed answer, or why there is none in words. */
Result<PromResult> answerOf(QNetworkReply *reply, const QString &shown, qint64 max)
{
    const int http = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->property("tooLarge").toBool()) {
        return Status::failure(
            QCoreApplication::translate("Prometheus",
                                        "Prometheus at %1 answered more than %2 MB to one query: too much "
                                        "for a fleet view; narrow what it keeps (the host label) or ask "
                                        "its operator.")
                .arg(shown)
                .arg(double(max) / (1024 * 1024), 0, 'g', 3));
    }
    // The body first: an error's reason is in it, and it can be read once.
    const QByteArray body = reply->readAll();
    if (http == 401 || http == 403) {
        return Status::failure(
            QCoreApplication::translate("Prometheus",
                                        "Prometheus at %1 refused the credentials (HTTP %2): check the "
                                        "token or password in Settings → Fleet.")
                .arg(shown)
                .arg(http));
    }
    if (http == 0 || (reply->error() != QNetworkReply::NoError && body.isEmpty())) {
        const QString why =
            reply->error() == QNetworkReply::OperationCanceledError || reply->error() == QNetworkReply::TimeoutError
            ? QCoreApplication::translate("Prometheus", "no answer in time")
            : reply->errorString();
        return Status::failure(
            QCoreApplication::translate("Prometheus", "Prometheus at %1 did not answer: %2.").arg(shown, why));
    }
    Result<PromResult> parsed = parsePromResponse(body, http);
    if (!parsed) {
        return Status::failure(QStringLiteral("%1 (%2)").arg(parsed.message(), shown));
    }
    return parsed;
}

} // namespace

PromClient::PromClient(const PromConfig &config, QString secret, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_secret(std::move(secret))
    , m_nam(new QNetworkAccessManager(this))
{
    m_nam->setRedirectPolicy(QNetworkRequest::NoLessSafeRedirectPolicy);
    if (!m_config.caFile.isEmpty()) {
        const QList<QSslCertificate> ca = QSslCertificate::fromPath(m_config.caFile, QSsl::Pem);
        if (ca.isEmpty()) {
            m_setupError =
                QCoreApplication::translate("Prometheus",
                                            "The CA file %1 holds no PEM certificate: choose the one that signed "
                                            "Prometheus' certificate.")
                    .arg(m_config.caFile);
        } else {
            QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
            ssl.setCaCertificates(ca);
            m_ssl = ssl;
        }
    }
}

PromClient::~PromClient() = default;

void PromClient::routeThrough(const QUrl &local)
{
    m_route = local;
}

void PromClient::query(const QString &expr, Done done, std::optional<QDateTime> at)
{
    QList<std::pair<QString, QString>> params{{QStringLiteral("query"), expr}};
    if (at) {
        params.append({QStringLiteral("time"), QString::number(double(at->toMSecsSinceEpoch()) / 1000.0, 'f', 3)});
    }
    get(QStringLiteral("api/v1/query"), params, std::move(done));
}

void PromClient::queryRange(const QString &expr, const QDateTime &start, const QDateTime &end, int stepSeconds,
                            Done done)
{
    get(QStringLiteral("api/v1/query_range"),
        {{QStringLiteral("query"), expr},
         {QStringLiteral("start"), QString::number(start.toSecsSinceEpoch())},
         {QStringLiteral("end"), QString::number(end.toSecsSinceEpoch())},
         {QStringLiteral("step"), QString::number(std::max(1, stepSeconds))}},
        std::move(done));
}

void PromClient::get(const QString &path, const QList<std::pair<QString, QString>> &params, Done done)
{
    const QUrl url = apiUrl(m_config, m_route, path, params);
    const QString shown = m_config.url.toString(QUrl::RemoveUserInfo);
    QNetworkRequest request(url);
    request.setTransferTimeout(m_config.timeoutMs);
    request.setRawHeader("Accept", "application/json");
    if (!m_route.isEmpty()) {
        // Through a tunnel: the certificate and the Host header still name the real address.
        const int port = m_config.url.port();
        request.setRawHeader(
            "Host",
            (m_config.url.host(QUrl::FullyEncoded) + (port > 0 ? QStringLiteral(":%1").arg(port) : QString()))
                .toUtf8());
        request.setPeerVerifyName(m_config.url.host());
    }
    if (m_ssl) {
        request.setSslConfiguration(*m_ssl);
    }
    addCredentials(request, m_config, m_secret);
    if (!m_setupError.isEmpty()) {
        done(Status::failure(m_setupError));
        return;
    }
    QNetworkReply *reply = m_nam->get(request);
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply, max = m_maxAnswerBytes](qint64 received, qint64) {
        if (received > max) {
            reply->setProperty("tooLarge", true);
            reply->abort();
        }
    });
    connect(reply, &QNetworkReply::finished, this, [reply, done = std::move(done), shown, max = m_maxAnswerBytes] {
        reply->deleteLater();
        done(answerOf(reply, shown, max));
    });
}

} // namespace flashdeck::prom

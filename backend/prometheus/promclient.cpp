#include "backend/prometheus/promclient.h"

#include <QCoreApplication>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QUrlQuery>

namespace flashdeck::prom {

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
    QUrl url = m_config.url;
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
    const QString shown = m_config.url.toString(QUrl::RemoveUserInfo);
    if (!m_route.isEmpty()) {
        url.setHost(m_route.host());
        url.setPort(m_route.port());
    }
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
    if (m_config.auth == PromAuth::Bearer && !m_secret.isEmpty()) {
        request.setRawHeader("Authorization", "Bearer " + m_secret.toUtf8());
    } else if (m_config.auth == PromAuth::Basic) {
        request.setRawHeader("Authorization",
                             "Basic " + (m_config.user + QLatin1Char(':') + m_secret).toUtf8().toBase64());
    }
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
        const int http = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->property("tooLarge").toBool()) {
            done(Status::failure(
                QCoreApplication::translate("Prometheus",
                                            "Prometheus at %1 answered more than %2 MB to one query: too much "
                                            "for a fleet view; narrow what it keeps (the host label) or ask "
                                            "its operator.")
                    .arg(shown)
                    .arg(double(max) / (1024 * 1024), 0, 'g', 3)));
            return;
        }
        // The body first: an error's reason is in it, and it can be read once.
        const QByteArray body = reply->readAll();
        if (http == 401 || http == 403) {
            done(Status::failure(
                QCoreApplication::translate("Prometheus",
                                            "Prometheus at %1 refused the credentials (HTTP %2): check the "
                                            "token or password in Settings → Fleet.")
                    .arg(shown)
                    .arg(http)));
            return;
        }
        if (http == 0 || (reply->error() != QNetworkReply::NoError && body.isEmpty())) {
            const QString why =
                reply->error() == QNetworkReply::OperationCanceledError || reply->error() == QNetworkReply::TimeoutError
                ? QCoreApplication::translate("Prometheus", "no answer in time")
                : reply->errorString();
            done(Status::failure(
                QCoreApplication::translate("Prometheus", "Prometheus at %1 did not answer: %2.").arg(shown, why)));
            return;
        }
        Result<PromResult> parsed = parsePromResponse(body, http);
        if (!parsed) {
            done(Status::failure(QStringLiteral("%1 (%2)").arg(parsed.message(), shown)));
            return;
        }
        done(parsed);
    });
}

} // namespace flashdeck::prom

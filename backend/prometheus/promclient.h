#pragma once

#include "backend/core/result.h"
#include "backend/prometheus/promconfig.h"
#include "backend/prometheus/promresponse.h"

#include <QDateTime>
#include <QObject>
#include <QSslConfiguration>
#include <QUrl>

#include <functional>
#include <optional>

class QNetworkAccessManager;

namespace flashdeck::prom {

/**
 * Asks one Prometheus (its HTTP API, https://prometheus.io/docs/prometheus/latest/querying/api/)
 * instant and range queries, with the operator's CA, bearer token or basic auth. Every failure is
 * said in the words of whoever gave it: the network, the proxy in front (its HTTP status), or
 * Prometheus' own error. Answers over kMaxAnswerBytes are cut off with a message, never buffered.
 */
class PromClient final : public QObject
{
    Q_OBJECT

public:
    using Done = std::function<void(const Result<PromResult> &)>;
    static constexpr qint64 kMaxAnswerBytes = 256LL * 1024 * 1024;

    /** `secret` is the bearer token or the basic-auth password (empty: none). */
    PromClient(const PromConfig &config, QString secret, QObject *parent = nullptr);
    ~PromClient() override;

    /** Why the CA file could not be used ("" when none is set or it was read). */
    const QString &setupError() const { return m_setupError; }
    /**
     * Sends the requests to `local` (a tunnel's 127.0.0.1 port) while TLS and the Host header
     * still name the configured address. Empty: straight to it.
     */
    void routeThrough(const QUrl &local);
    const QUrl &url() const { return m_config.url; }
    /** A lower cap than kMaxAnswerBytes (tests). */
    void setMaxAnswerBytes(qint64 bytes) { m_maxAnswerBytes = bytes; }

    void query(const QString &expr, Done done, std::optional<QDateTime> at = std::nullopt);
    void queryRange(const QString &expr, const QDateTime &start, const QDateTime &end, int stepSeconds, Done done);

private:
    void get(const QString &path, const QList<std::pair<QString, QString>> &params, Done done);

    PromConfig m_config;
    QString m_secret;
    QUrl m_route;
    qint64 m_maxAnswerBytes = kMaxAnswerBytes;
    QString m_setupError;
    std::optional<QSslConfiguration> m_ssl;
    QNetworkAccessManager *m_nam;
};

} // namespace flashdeck::prom

#include "prometheusfixture.h"

#include "backend/metrics/prometheustext.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>
#include <QUrlQuery>

namespace flashdeck::testing {

namespace {

/** One GET, its body or nothing (the event loop runs meanwhile, so fakes in this process answer). */
QByteArray httpGet(const QUrl &url, int timeoutMs)
{
    QNetworkAccessManager nam;
    QNetworkRequest request(url);
    request.setTransferTimeout(timeoutMs);
    QNetworkReply *reply = nam.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray body = reply->error() == QNetworkReply::NoError ? reply->readAll() : QByteArray();
    reply->deleteLater();
    return body;
}

/** Lets the event loop run for `ms` (the fakes in this process answer Prometheus' scrapes meanwhile). */
void pollAgainAfter(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace

PrometheusFixture::PrometheusFixture() = default;

PrometheusFixture::~PrometheusFixture()
{
    stop();
}

bool PrometheusFixture::start(const QString &scrapeConfigs, QString *error)
{
    const QString binary = QStandardPaths::findExecutable(QStringLiteral("prometheus"));
    if (binary.isEmpty()) {
        *error = QStringLiteral("prometheus is not installed (scripts/bootstrap installs Debian's)");
        return false;
    }
    const QString config = m_dir.filePath(QStringLiteral("prometheus.yml"));
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly)) {
        *error = f.errorString();
        return false;
    }
    f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n" + scrapeConfigs.toUtf8());
    f.close();
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->start(binary,
                     {QStringLiteral("--config.file=") + config,
                      QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("data")),
                      QStringLiteral("--web.listen-address=127.0.0.1:0"), QStringLiteral("--log.level=info")});
    if (!m_process->waitForStarted(10000)) {
        *error = m_process->errorString();
        return false;
    }
    // Port 0: the kernel picks a free one, and Prometheus logs it ("Listening on" address=…).
    static const QRegularExpression listening(QStringLiteral("msg=\"Listening on\" address=127\\.0\\.0\\.1:(\\d+)"));
    QByteArray log;
    const QDeadlineTimer deadline(30000);
    while (!deadline.hasExpired() && m_port == 0) {
        if (!m_process->waitForReadyRead(200) && m_process->state() != QProcess::Running) {
            *error = QStringLiteral("prometheus exited: ") + QString::fromUtf8(log + m_process->readAll());
            return false;
        }
        log += m_process->readAll();
        if (const auto m = listening.match(QString::fromUtf8(log)); m.hasMatch()) {
            m_port = quint16(m.captured(1).toUInt());
        }
    }
    if (m_port == 0) {
        *error = QStringLiteral("prometheus did not say where it listens: ") + QString::fromUtf8(log.right(2000));
        return false;
    }
    while (!deadline.hasExpired()) {
        QUrl ready = url();
        ready.setPath(QStringLiteral("/-/ready"));
        if (!httpGet(ready, 2000).isEmpty()) {
            return true;
        }
        pollAgainAfter(100);
    }
    *error = QStringLiteral("prometheus was not ready in time");
    return false;
}

QUrl PrometheusFixture::url() const
{
    QUrl u;
    u.setScheme(QStringLiteral("http"));
    u.setHost(QStringLiteral("127.0.0.1"));
    u.setPort(m_port);
    return u;
}

bool PrometheusFixture::waitForSeries(const QString &expr, int series, int timeoutMs, QString *error)
{
    const QDeadlineTimer deadline(timeoutMs);
    int seen = 0;
    while (!deadline.hasExpired()) {
        QUrl q = url();
        q.setPath(QStringLiteral("/api/v1/query"));
        q.setQuery(QUrlQuery{{QStringLiteral("query"), QString::fromLatin1(QUrl::toPercentEncoding(expr))}});
        const QJsonObject o = QJsonDocument::fromJson(httpGet(q, 5000)).object();
        seen = int(o.value(QLatin1String("data")).toObject().value(QLatin1String("result")).toArray().size());
        if (seen >= series) {
            return true;
        }
        pollAgainAfter(200);
    }
    *error = QStringLiteral("%1 gave %2 series, not %3").arg(expr).arg(seen).arg(series);
    return false;
}

double PrometheusFixture::instantQueriesAnswered() const
{
    QUrl u = url();
    u.setPath(QStringLiteral("/metrics"));
    const metrics::PromScrape scrape = metrics::parsePrometheusText(httpGet(u, 5000));
    double total = 0;
    for (const metrics::PromSample *s : scrape.named("prometheus_http_requests_total")) {
        if (s->label("handler") == "/api/v1/query") {
            total += s->value;
        }
    }
    return total;
}

void PrometheusFixture::stop()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->terminate();
        if (!m_process->waitForFinished(10000)) {
            m_process->kill();
            m_process->waitForFinished();
        }
    }
}

QString PrometheusFixture::checkRules(const QString &file)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("promtool"), {QStringLiteral("check"), QStringLiteral("rules"), file});
    if (!p.waitForFinished(60000)) {
        return QStringLiteral("promtool did not finish");
    }
    const QString out = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? QString() : out;
}

} // namespace flashdeck::testing

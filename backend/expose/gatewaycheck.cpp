#include "backend/expose/gatewaycheck.h"

#include "backend/expose/gatewayoptions.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHostAddress>

#include <memory>

namespace flashdeck::expose {

namespace {

constexpr int kTimeoutMs = 30000;

/** What an answer was, in a few words: "HTTP 401" or the socket's error. */
QString seenOf(const GatewayRequest::Answer &a)
{
    return a.status > 0 ? QStringLiteral("HTTP %1").arg(a.status) : a.error;
}

} // namespace

GatewayCheck::GatewayCheck(GatewayRecord record, QString apiKey, QString host, int port, QObject *parent)
    : QObject(parent)
    , m_record(std::move(record))
    , m_key(std::move(apiKey))
    , m_host(std::move(host))
    , m_port(port)
{ }

void GatewayCheck::start()
{
    checkTls();
}

QString GatewayCheck::url() const
{
    const QHostAddress a(m_host);
    const QString host =
        a.protocol() == QAbstractSocket::IPv6Protocol ? QLatin1Char('[') + a.toString() + QLatin1Char(']') : m_host;
    return QStringLiteral("https://%1:%2").arg(host).arg(m_port);
}

void GatewayCheck::send(const QByteArray &path, const QByteArray &body, bool withKey, const Answered &answered,
                        int port)
{
    // The key goes only over TLS, to the recorded key, checked on every connection: never in
    // clear to the server's own port, never to a peer only the first request met.
    const bool tls = port == 0;
    Q_ASSERT(tls || !withKey);
    const QByteArray headers = withKey && tls ? "Authorization: Bearer " + m_key.toUtf8() + "\r\n" : QByteArray();
    auto *request =
        new GatewayRequest(m_host, tls ? m_port : port, tls,
                           GatewayRequest::build(body.isNull() ? "GET" : "POST", path, m_host, headers, body),
                           tls ? kTimeoutMs : 5000, withKey ? m_record.publicKeySha256 : QString(), this);
    connect(request, &GatewayRequest::finished, this, [request, answered] {
        request->deleteLater();
        answered(request->answer());
    });
}

void GatewayCheck::report(const QString &id, const QString &title, bool pass, const QString &expected,
                          const QString &seen, const QString &fix)
{
    recipe::StepRecord r;
    r.step = id;
    r.status = pass ? recipe::StepStatus::Pass : recipe::StepStatus::Fail;
    r.title = title;
    r.expected = expected;
    r.seen = seen;
    r.fix = pass ? QString() : fix;
    r.at = QDateTime::currentDateTimeUtc();
    m_passed = m_passed && pass;
    Q_EMIT step(r);
}

void GatewayCheck::checkTls()
{
    send("/v1/models", QByteArray(), false, [this](const GatewayRequest::Answer &reply) {
        const QString pin = GatewayRequest::pinOf(reply.peer);
        const QString where = url();
        report(QStringLiteral("expose.tls"), QCoreApplication::translate("Expose", "TLS with the recorded key"),
               !pin.isEmpty() && pin == m_record.publicKeySha256, QStringLiteral("sha256//") + m_record.publicKeySha256,
               pin.isEmpty() ? seenOf(reply) : QStringLiteral("sha256//") + pin,
               QCoreApplication::translate("Expose",
                                           "%1 is not the gateway Flashdeck placed (another key answers there, or "
                                           "nothing): check the address and port, or expose again.")
                   .arg(where));
        if (pin.isEmpty() || pin != m_record.publicKeySha256) {
            Q_EMIT finished(false); // nothing else can be judged through an unknown server
            return;
        }
        const int status = reply.status;
        report(QStringLiteral("expose.nokey"), QCoreApplication::translate("Expose", "Refused without the API key"),
               status == 401, QStringLiteral("HTTP 401"), seenOf(reply),
               QCoreApplication::translate("Expose", "The gateway let a request without a key through: expose again."));
        checkKey();
    });
}

void GatewayCheck::checkKey()
{
    send("/v1/models", QByteArray(), true, [this](const GatewayRequest::Answer &reply) {
        report(QStringLiteral("expose.key"), QCoreApplication::translate("Expose", "Served with the API key"),
               reply.status == 200, QStringLiteral("HTTP 200"), seenOf(reply),
               reply.status == 403 ? QCoreApplication::translate(
                                         "Expose", "This machine's address is not in the gateway's --allow list.")
                                   : QCoreApplication::translate("Expose",
                                                                 "Is the server running ('flashdeck status')? "
                                                                 "Is the key the deployment's?"));
        checkMedia();
    });
}

void GatewayCheck::checkMedia()
{
    // A name that resolves nowhere (RFC 2606 .invalid): never on an allow-list worth having.
    const QByteArray chat = R"({"model":"default","max_tokens":1,"messages":[{"role":"user","content":[)"
                            R"({"type":"image_url","image_url":{"url":"https://media-check.invalid/flashdeck.png"}},)"
                            R"({"type":"text","text":"?"}]}]})";
    send("/v1/chat/completions", chat, true, [this](const GatewayRequest::Answer &reply) {
        const QByteArray &body = reply.body;
        report(QStringLiteral("expose.media"), QCoreApplication::translate("Expose", "A remote image URL refused"),
               reply.status == 403 && body.contains("media_refused"), QStringLiteral("HTTP 403 media_refused"),
               seenOf(reply) + QLatin1Char(' ') + QString::fromUtf8(body.left(200)).trimmed(),
               QCoreApplication::translate("Expose", "The gateway passed a remote image URL: expose again."));
        checkServerPort();
    });
}

void GatewayCheck::checkServerPort()
{
    // Asked without the key (it never goes in clear): any HTTP answer on the server's port from
    // here is a server listening beyond the host's loopback. Through --connect (a tunnel, a NAT)
    // that port would be this machine's or the relay's, which says nothing of the host.
    const int port = m_record.upstreamPort;
    const QString title = QCoreApplication::translate("Expose", "The server's own port not reachable");
    if (m_host != m_record.address || m_port != m_record.port) {
        recipe::StepRecord r;
        r.step = QStringLiteral("expose.serverport");
        r.status = recipe::StepStatus::Skipped;
        r.title = title;
        r.seen = QCoreApplication::translate("Expose",
                                             "the gateway was reached through %1:%2, not at the host's %3:%4: the "
                                             "server's port %5 is judged only from there")
                     .arg(m_host)
                     .arg(m_port)
                     .arg(m_record.address)
                     .arg(m_record.port)
                     .arg(port);
        r.at = QDateTime::currentDateTimeUtc();
        Q_EMIT step(r);
        checkRate();
        return;
    }
    send(
        "/v1/models", QByteArray(), false,
        [this, port, title](const GatewayRequest::Answer &bare) {
            report(QStringLiteral("expose.serverport"), title, bare.status == 0,
                   QCoreApplication::translate("Expose", "no HTTP answer on port %1").arg(port), seenOf(bare),
                   QCoreApplication::translate("Expose",
                                               "Something answers HTTP on port %1 of %2 from outside the host: the "
                                               "server must listen on the host's loopback only (deploy again), or "
                                               "a firewall must close the port.")
                       .arg(port)
                       .arg(m_record.address));
            checkRate();
        },
        port);
}

void GatewayCheck::checkRate()
{
    // nodelay: past the burst the next request in the same instant is refused at once.
    // More than the burst plus what the rate refills in the seconds a slow link takes to send them.
    const auto rate = RequestRate::parse(m_record.rate);
    const int perSecond = !rate                        ? 10
        : rate.value().per == RequestRate::Per::Second ? rate.value().count
                                                       : std::max(1, rate.value().count / 60);
    const int count = std::min(m_record.burst + 3 * perSecond + 20, 500);
    auto pending = std::make_shared<int>(count);
    auto limited = std::make_shared<int>(0);
    for (int i = 0; i < count; ++i) {
        send("/v1/models", QByteArray(), true, [this, pending, limited, count](const GatewayRequest::Answer &reply) {
            *limited += reply.status == 429 ? 1 : 0;
            if (--*pending > 0) {
                return;
            }
            report(QStringLiteral("expose.rate"), QCoreApplication::translate("Expose", "429 past the rate"),
                   *limited > 0,
                   QCoreApplication::translate("Expose", "some of %1 requests at once get 429 (rate %2, burst %3)")
                       .arg(count)
                       .arg(m_record.rate)
                       .arg(m_record.burst),
                   QCoreApplication::translate("Expose", "%1 of %2 got 429").arg(*limited).arg(count),
                   QCoreApplication::translate("Expose", "The gateway did not limit the rate: expose again."));
            Q_EMIT finished(m_passed);
        });
    }
}

} // namespace flashdeck::expose

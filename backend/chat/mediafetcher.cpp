#include "backend/chat/mediafetcher.h"

#include "backend/chat/imageprobe.h"

#include <QHostInfo>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTimer>

namespace flashdeck::chat {

namespace {
constexpr qsizetype kMaxHead = 32 * 1024;
}

MediaFetcher::MediaFetcher(MediaPolicy policy, QObject *parent)
    : QObject(parent)
    , m_policy(std::move(policy))
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] {
        fail(tr("The image did not arrive within %1 s (the limit in Settings → Playground).")
                 .arg(m_policy.limits().timeoutMs / 1000));
    });
}

MediaFetcher::~MediaFetcher()
{
    abort();
}

void MediaFetcher::setResolverForTesting(std::function<QList<QHostAddress>(const QString &)> resolver)
{
    m_resolver = std::move(resolver);
}

void MediaFetcher::setAddressCheckForTesting(std::function<Status(const QHostAddress &)> check)
{
    m_check = std::move(check);
}

void MediaFetcher::abort()
{
    m_done = true;
    m_timer->stop();
    if (m_lookupId >= 0) {
        QHostInfo::abortHostLookup(m_lookupId);
        m_lookupId = -1;
    }
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket->deleteLater();
        m_socket.clear();
    }
}

void MediaFetcher::fail(const QString &message)
{
    if (m_done) {
        return;
    }
    abort();
    Q_EMIT failed(message);
}

void MediaFetcher::fetch(const QString &url)
{
    abort();
    m_done = false;
    m_buffer.clear();
    m_body.clear();
    m_haveHead = false;
    m_chunked = false;
    m_chunkedDone = false;
    m_contentLength = -1;
    m_contentType.clear();
    if (const Status s = m_policy.checkUrl(url); !s) {
        QTimer::singleShot(0, this, [this, s] { fail(s.message()); });
        return;
    }
    m_url = QUrl(url.trimmed(), QUrl::StrictMode);
    m_host = m_url.host(QUrl::FullyEncoded).toLower();
    if (m_host.endsWith(QLatin1Char('.'))) {
        m_host.chop(1);
    }
    m_timer->start(m_policy.limits().timeoutMs);
    if (m_resolver) {
        const QList<QHostAddress> addresses = m_resolver(m_host);
        QTimer::singleShot(0, this, [this, addresses] { connectTo(addresses); });
        return;
    }
    m_lookupId = QHostInfo::lookupHost(m_host, this, [this](const QHostInfo &info) {
        m_lookupId = -1;
        if (info.error() != QHostInfo::NoError) {
            fail(tr("Cannot resolve %1: %2.").arg(m_host, info.errorString()));
            return;
        }
        connectTo(info.addresses());
    });
}

void MediaFetcher::connectTo(const QList<QHostAddress> &addresses)
{
    if (m_done) {
        return;
    }
    if (addresses.isEmpty()) {
        fail(tr("%1 has no address.").arg(m_host));
        return;
    }
    // Every answer must pass: a name that resolves to one public and one private address is
    // exactly what a rebinding attack looks like.
    for (const QHostAddress &a : addresses) {
        const Status s = m_check ? m_check(a) : m_policy.checkAddress(a);
        if (!s) {
            fail(s.message());
            return;
        }
    }
    m_socket = new QSslSocket(this);
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setPeerVerifyMode(QSslSocket::VerifyPeer);
    if (!m_extraCa.isEmpty()) {
        QList<QSslCertificate> ca = tls.caCertificates();
        ca += m_extraCa;
        tls.setCaCertificates(ca);
    }
    m_socket->setSslConfiguration(tls);
    m_socket->setReadBufferSize(0);
    connect(m_socket, &QSslSocket::encrypted, this, [this] {
        const QByteArray path =
            m_url.path(QUrl::FullyEncoded).isEmpty() ? QByteArray("/") : m_url.path(QUrl::FullyEncoded).toLatin1();
        const QByteArray query = m_url.hasQuery() ? "?" + m_url.query(QUrl::FullyEncoded).toLatin1() : QByteArray();
        m_socket->write("GET " + path + query + " HTTP/1.1\r\nHost: " + m_host.toLatin1() +
                        "\r\nUser-Agent: Flashdeck\r\nAccept: image/png, image/jpeg, image/webp\r\n"
                        "Accept-Encoding: identity\r\nConnection: close\r\n\r\n");
    });
    connect(m_socket, &QSslSocket::readyRead, this, &MediaFetcher::onReadyRead);
    connect(m_socket, &QSslSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
        fail(tr("The TLS certificate of %1 is not valid: %2. The image is not fetched.")
                 .arg(m_host, errors.isEmpty() ? QString() : errors.first().errorString()));
    });
    connect(m_socket, &QSslSocket::disconnected, this, [this] {
        if (!m_done) {
            onReadyRead();
        }
        if (!m_done) {
            finish();
        }
    });
    connect(m_socket, &QSslSocket::errorOccurred, this, [this](QAbstractSocket::SocketError e) {
        if (e == QAbstractSocket::RemoteHostClosedError) {
            return; // the end of a Connection: close response
        }
        if (m_socket) {
            fail(tr("Cannot fetch the image from %1: %2.").arg(m_host, m_socket->errorString()));
        }
    });
    // The checked address itself, with the name only for TLS (SNI and the certificate).
    m_socket->connectToHostEncrypted(addresses.first().toString(), m_testPort ? m_testPort : quint16(m_url.port(443)),
                                     m_host);
}

bool MediaFetcher::parseHead()
{
    const qsizetype end = m_buffer.indexOf("\r\n\r\n");
    if (end < 0) {
        if (m_buffer.size() > kMaxHead) {
            fail(tr("The image server sent an oversized response head."));
        }
        return false;
    }
    const QList<QByteArray> lines = m_buffer.left(end).split('\n');
    const QList<QByteArray> status = lines.first().trimmed().split(' ');
    const int code = status.size() >= 2 ? status[1].toInt() : 0;
    QByteArray location;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon < 0) {
            continue;
        }
        const QByteArray name = lines[i].left(colon).trimmed().toLower();
        const QByteArray value = lines[i].mid(colon + 1).trimmed();
        if (name == "content-length") {
            bool ok = false;
            m_contentLength = value.toLongLong(&ok);
            m_contentLength = ok ? m_contentLength : -1;
        } else if (name == "transfer-encoding") {
            m_chunked = value.toLower().contains("chunked");
        } else if (name == "content-type") {
            m_contentType = QString::fromLatin1(value.split(';').first().trimmed().toLower());
        } else if (name == "location") {
            location = value;
        }
    }
    m_buffer.remove(0, end + 4);
    m_haveHead = true;
    if (code >= 300 && code < 400) {
        fail(tr("The image URL redirects (HTTP %1) to %2; redirects are not followed. Check that address and use "
                "it directly if you trust it.")
                 .arg(code)
                 .arg(QString::fromLatin1(location.left(300))));
        return false;
    }
    if (code != 200) {
        fail(tr("The image server answered HTTP %1.").arg(code));
        return false;
    }
    static const QStringList types{QStringLiteral("image/png"), QStringLiteral("image/jpeg"),
                                   QStringLiteral("image/webp")};
    if (!types.contains(m_contentType)) {
        fail(tr("The URL serves %1, not a PNG, JPEG or WebP image.")
                 .arg(m_contentType.isEmpty() ? tr("no content type") : m_contentType));
        return false;
    }
    if (m_contentLength > m_policy.limits().maxBytes) {
        fail(tr("The image is %1 MB; the limit is %2 MB (Settings → Playground).")
                 .arg(double(m_contentLength) / 1048576.0, 0, 'f', 1)
                 .arg(double(m_policy.limits().maxBytes) / 1048576.0, 0, 'f', 1));
        return false;
    }
    return true;
}

bool MediaFetcher::decodeChunked()
{
    // RFC 9112 §7.1: size in hex (extensions after ';'), CRLF, data, CRLF; a 0 size ends it.
    for (;;) {
        const qsizetype eol = m_buffer.indexOf("\r\n");
        if (eol < 0) {
            return false;
        }
        bool ok = false;
        const qint64 size = m_buffer.left(eol).split(';').first().trimmed().toLongLong(&ok, 16);
        if (!ok || size < 0) {
            fail(tr("The image server sent a malformed chunked body."));
            return false;
        }
        if (size == 0) {
            m_chunkedDone = true;
            return true;
        }
        if (m_buffer.size() < eol + 2 + size + 2) {
            return false;
        }
        m_body.append(m_buffer.mid(eol + 2, size));
        m_buffer.remove(0, eol + 2 + size + 2);
        if (m_body.size() > m_policy.limits().maxBytes) {
            return true; // finish() reports the size
        }
    }
}

void MediaFetcher::onReadyRead()
{
    if (m_done || !m_socket) {
        return;
    }
    m_buffer.append(m_socket->readAll());
    if (!m_haveHead && !parseHead()) {
        return;
    }
    bool complete = false;
    if (m_chunked) {
        complete = decodeChunked();
    } else {
        m_body.append(m_buffer);
        m_buffer.clear();
        complete = m_contentLength >= 0 && m_body.size() >= m_contentLength;
    }
    if (m_body.size() > m_policy.limits().maxBytes) {
        fail(tr("The image is larger than the %1 MB limit (Settings → Playground); the download was stopped.")
                 .arg(double(m_policy.limits().maxBytes) / 1048576.0, 0, 'f', 1));
        return;
    }
    if (complete) {
        finish();
    }
}

void MediaFetcher::finish()
{
    if (m_done) {
        return;
    }
    if (!m_haveHead) {
        fail(tr("The image server closed the connection without an answer."));
        return;
    }
    if (m_chunked && !m_chunkedDone) {
        fail(tr("The image arrived cut short (the chunked body has no end)."));
        return;
    }
    if (m_contentLength >= 0 && !m_chunked && m_body.size() < m_contentLength) {
        fail(tr("The image arrived cut short (%1 of %2 bytes).").arg(m_body.size()).arg(m_contentLength));
        return;
    }
    const auto checked = m_policy.checkImage(m_body.left(m_contentLength >= 0 ? m_contentLength : m_body.size()));
    if (!checked) {
        fail(checked.message());
        return;
    }
    if (checked.value().mimeType != m_contentType) {
        fail(tr("The server calls it %1 but the bytes are %2; it is not sent.")
                 .arg(m_contentType, checked.value().mimeType));
        return;
    }
    ChatImage image{checked.value().mimeType, m_body, m_url.toString(QUrl::RemoveQuery | QUrl::RemoveUserInfo)};
    abort();
    Q_EMIT fetched(image);
}

} // namespace flashdeck::chat

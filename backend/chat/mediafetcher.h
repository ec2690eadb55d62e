#pragma once

#include "backend/chat/chatrequest.h"
#include "backend/chat/mediapolicy.h"
#include "backend/core/result.h"

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSslCertificate>
#include <QUrl>

#include <functional>

class QSslSocket;
class QTimer;

namespace flashdeck::chat {

/**
 * Fetches a remote image for the playground under MediaPolicy (issue 8, F23, F33), so a URL
 * is never handed to the GPU host: the URL is checked; the name is resolved here and every
 * address must pass (one private answer refuses the lot); the connection goes to the checked
 * address itself — no second lookup a rebinding DNS could answer differently — with TLS
 * verified against the host name; one GET, no redirects (a 3xx says where it points and
 * stops), a byte cap enforced while reading, an overall time cap, a Content-Type of
 * image/png, image/jpeg or image/webp that the bytes must confirm, and the pixel cap. The
 * result is a ChatImage to send as a data URI.
 */
class MediaFetcher final : public QObject
{
    Q_OBJECT

public:
    explicit MediaFetcher(MediaPolicy policy, QObject *parent = nullptr);
    ~MediaFetcher() override;

    void fetch(const QString &url);
    void abort();

    /** Test seams: a resolver instead of DNS, the address check, and a CA to trust besides the system's. */
    void setResolverForTesting(std::function<QList<QHostAddress>(const QString &)> resolver);
    void setAddressCheckForTesting(std::function<Status(const QHostAddress &)> check);
    void setExtraCaForTesting(const QList<QSslCertificate> &ca) { m_extraCa = ca; }
    /** The port to connect to instead of 443 (a test server cannot bind 443). */
    void setPortForTesting(quint16 port) { m_testPort = port; }

Q_SIGNALS:
    void fetched(const flashdeck::chat::ChatImage &image);
    void failed(const QString &message);

private:
    void connectTo(const QList<QHostAddress> &addresses);
    void onReadyRead();
    void fail(const QString &message);
    bool parseHead();
    bool decodeChunked();
    void finish();

    MediaPolicy m_policy;
    QUrl m_url;
    QString m_host;
    QPointer<QSslSocket> m_socket;
    QTimer *m_timer;
    QByteArray m_buffer; // raw bytes after the head
    QByteArray m_body;
    bool m_haveHead = false;
    bool m_chunked = false;
    bool m_chunkedDone = false; // the terminating zero-size chunk arrived
    qint64 m_contentLength = -1;
    QString m_contentType;
    bool m_done = false;
    int m_lookupId = -1;
    std::function<QList<QHostAddress>(const QString &)> m_resolver;
    std::function<Status(const QHostAddress &)> m_check;
    QList<QSslCertificate> m_extraCa;
    quint16 m_testPort = 0;
};

} // namespace flashdeck::chat

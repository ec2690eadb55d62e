#include "backend/ssh/peeruid.h"

#include <QCoreApplication>
#include <QList>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace flashdeck::ssh {

namespace {

// Socket states (include/net/tcp_states.h) whose entries never describe a connecting client:
// a listener, and TIME_WAIT, which the kernel always prints with uid 0 (get_timewait4_sock).
constexpr char kListen[] = "0A";
constexpr char kTimeWait[] = "06";

std::optional<PeerUid::Endpoint> endpointOf(const sockaddr_storage &storage)
{
    if (storage.ss_family == AF_INET) {
        sockaddr_in a{};
        std::memcpy(&a, &storage, sizeof a);
        return PeerUid::Endpoint{QByteArray(reinterpret_cast<const char *>(&a.sin_addr), 4), ntohs(a.sin_port)};
    }
    if (storage.ss_family == AF_INET6) {
        sockaddr_in6 a{};
        std::memcpy(&a, &storage, sizeof a);
        return PeerUid::Endpoint{QByteArray(reinterpret_cast<const char *>(&a.sin6_addr), 16), ntohs(a.sin6_port)};
    }
    return std::nullopt;
}

bool isV4Mapped(const PeerUid::Endpoint &e)
{
    static const QByteArray prefix = QByteArray(10, '\0') + QByteArray(2, '\xff');
    return e.address.size() == 16 && e.address.startsWith(prefix);
}

PeerUid::Endpoint unmapped(const PeerUid::Endpoint &e)
{
    return {e.address.right(4), e.port};
}

/** The whole file (procfs files report size 0, so read to the end). */
std::optional<QByteArray> readProcFile(const char *path)
{
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return std::nullopt;
    }
    QByteArray text;
    char chunk[16384];
    bool failed = false;
    for (;;) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n > 0) {
            text.append(chunk, n);
        } else if (n == 0) {
            break;
        } else if (errno != EINTR) {
            failed = true;
            break;
        }
    }
    if (::close(fd) != 0) {
        failed = true;
    }
    return failed ? std::nullopt : std::optional<QByteArray>(text);
}

} // namespace

QByteArray PeerUid::procText(const Endpoint &endpoint)
{
    QByteArray out;
    // Each 32-bit word as the kernel prints it: the raw word read in this machine's byte order.
    for (qsizetype i = 0; i + 4 <= endpoint.address.size(); i += 4) {
        quint32 word = 0;
        std::memcpy(&word, endpoint.address.constData() + i, 4);
        out += QByteArray::number(word, 16).rightJustified(8, '0').toUpper();
    }
    return out + ':' + QByteArray::number(endpoint.port, 16).rightJustified(4, '0').toUpper();
}

PeerUid::Endpoint PeerUid::v4Mapped(const Endpoint &v4)
{
    return {QByteArray(10, '\0') + QByteArray(2, '\xff') + v4.address, v4.port};
}

std::optional<uint> PeerUid::find(QByteArrayView table, const Endpoint &local, const Endpoint &remote)
{
    const QByteArray wantLocal = procText(local);
    const QByteArray wantRemote = procText(remote);
    for (const QByteArray &line : QByteArray::fromRawData(table.data(), table.size()).split('\n')) {
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 8 || fields.at(3) == kListen || fields.at(3) == kTimeWait) {
            continue; // the header, a listener, a closed connection's leftover
        }
        if (fields.at(1).toUpper() != wantLocal || fields.at(2).toUpper() != wantRemote) {
            continue;
        }
        bool ok = false;
        const uint uid = fields.at(7).toUInt(&ok);
        if (ok) {
            return uid;
        }
    }
    return std::nullopt;
}

Result<uint> PeerUid::ofAccepted(int fd)
{
    sockaddr_storage peerAddr{};
    sockaddr_storage ownAddr{};
    socklen_t peerLen = sizeof peerAddr;
    socklen_t ownLen = sizeof ownAddr;
    if (::getpeername(fd, reinterpret_cast<sockaddr *>(&peerAddr), &peerLen) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&ownAddr), &ownLen) != 0) {
        return Status::failure(QCoreApplication::translate("Ssh", "The connection closed before it could be checked."),
                               QString::fromLocal8Bit(std::strerror(errno)));
    }
    const std::optional<Endpoint> peer = endpointOf(peerAddr);
    const std::optional<Endpoint> own = endpointOf(ownAddr);
    if (!peer || !own) {
        return Status::failure(QCoreApplication::translate("Ssh", "The connection is not a TCP connection."));
    }
    // The client's socket is in the table of its own family: an IPv4 client of a dual-stack
    // listener is in tcp with plain addresses, an IPv6 client of 127.0.0.1 in tcp6, mapped.
    struct Where
    {
        const char *path;
        Endpoint local;
        Endpoint remote;
    };
    QList<Where> places;
    if (peer->address.size() == 4) {
        places = {{"/proc/net/tcp", *peer, *own}, {"/proc/net/tcp6", v4Mapped(*peer), v4Mapped(*own)}};
    } else {
        places = {{"/proc/net/tcp6", *peer, *own}};
        if (isV4Mapped(*peer) && isV4Mapped(*own)) {
            places.append({"/proc/net/tcp", unmapped(*peer), unmapped(*own)});
        }
    }
    bool readAny = false;
    for (const Where &w : std::as_const(places)) {
        const std::optional<QByteArray> table = readProcFile(w.path);
        if (!table) {
            continue; // no IPv6 in this kernel: tcp6 is absent
        }
        readAny = true;
        if (const std::optional<uint> uid = find(*table, w.local, w.remote)) {
            return *uid;
        }
    }
    return Status::failure(readAny ? QCoreApplication::translate("Ssh", "The kernel lists no socket for the client.")
                                   : QCoreApplication::translate("Ssh", "The kernel's socket tables cannot be read."),
                           QString::fromLatin1(procText(*peer)));
}

} // namespace flashdeck::ssh

#pragma once

#include "backend/core/result.h"

#include <QByteArray>
#include <QByteArrayView>

#include <optional>

namespace flashdeck::ssh {

/**
 * Who owns the socket at the other end of an accepted loopback TCP connection, as the kernel
 * reports it: the uid column of the client's own entry in /proc/net/tcp (or tcp6), found by its
 * four-tuple. A tunnel's listener is reachable by every local user (`ss -ltn` shows its port),
 * so TunnelServer lets through only connections whose socket belongs to its own user.
 *
 * The tables (proc(5), net/ipv4/tcp_ipv4.c get_tcp4_sock): each address is the raw
 * network-order word printed with %08X (127.0.0.1 reads 0100007F on little-endian), tcp6 four
 * such words, the port in host order %04X; the uid is the eighth column.
 */
class PeerUid final
{
public:
    /** One end of a TCP connection: 4 (IPv4) or 16 (IPv6) address bytes in network order. */
    struct Endpoint
    {
        QByteArray address;
        quint16 port = 0;
    };

    /**
     * The uid owning the connecting socket of the accepted connection `fd`; a failure when the
     * kernel lists no such socket (the client is gone, or is not on this machine's loopback) or
     * the tables cannot be read.
     */
    [[nodiscard]] static Result<uint> ofAccepted(int fd);

    /**
     * In the text of one table: the uid of the live socket whose local end is `local` and
     * whose remote end is `remote`; nullopt when there is none.
     */
    [[nodiscard]] static std::optional<uint> find(QByteArrayView table, const Endpoint &local, const Endpoint &remote);

    /** How the tables print an endpoint: "0100007F:1F90" (tcp), 32 hex digits and the port (tcp6). */
    [[nodiscard]] static QByteArray procText(const Endpoint &endpoint);

    /** ::ffff:a.b.c.d, as an IPv6 socket sees an IPv4 peer. */
    [[nodiscard]] static Endpoint v4Mapped(const Endpoint &v4);
};

} // namespace flashdeck::ssh

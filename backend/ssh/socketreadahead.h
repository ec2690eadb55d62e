#pragma once

#include <cstddef>
#include <memory>

namespace flashdeck::ssh {

/**
 * Reads one SSH session's socket in large pieces on libssh's behalf, for as long as it lives.
 *
 * libssh 0.10 reads its socket 4 KiB per call, each after a poll() (MAX_BUF_SIZE in its
 * socket.c): two system calls per 4 KiB, where OpenSSH reads up to 256 KiB at once. On a VM
 * where a system call costs a few microseconds that is most of a tunnel's time. libssh has no
 * transport hook, so socketreadahead.cpp interposes the three libc calls it makes on the socket —
 * recv(), poll() and close() — for the sockets attached here, and only for those:
 *
 * - recv() on an attached socket serves what an earlier read brought in; once a read has filled
 *   libssh's whole buffer (a stream is flowing), the next kernel read takes up to kCapacity
 *   bytes at once and libssh is handed its 4 KiB from them; a kernel read that brings no more
 *   than libssh asked for means the stream paused, and the buffer is given back;
 * - poll() reports POLLIN for an attached socket with bytes held here, without a system call
 *   unless another descriptor is asked about too; POLLOUT on that socket (which libssh asks
 *   after each of its writes) waits until the bytes held are consumed;
 * - close() of an attached socket (libssh closes it itself on an error or the server's EOF)
 *   detaches it first, so a descriptor given the same number later never sees its bytes.
 *
 * Every other descriptor passes straight to the next definition (libc's, or a sanitizer's
 * interceptor). The descriptor table is process-wide because symbol interposition is (one recv()
 * per process); the bytes belong to this object, which its session's thread owns and which only
 * that thread reads through. FLASHDECK_SSH_READAHEAD=0 in the environment turns it off.
 */
class SocketReadAhead final
{
public:
    /** Bytes read from the kernel at a time once a stream flows (OpenSSH reads up to 256 KiB). */
    static constexpr std::size_t kCapacity = 256 * 1024;
    struct State;

    /** Attaches to a connected session socket: inactive when turned off or fd is out of range. */
    explicit SocketReadAhead(int fd);
    /** Detaches; bytes still held are dropped with the session. */
    ~SocketReadAhead();
    SocketReadAhead(const SocketReadAhead &) = delete;
    SocketReadAhead &operator=(const SocketReadAhead &) = delete;

    /** Attached: its socket is open and read through this object. */
    [[nodiscard]] bool active() const;
    /** Bytes read from the kernel that libssh has not taken yet. */
    [[nodiscard]] std::size_t buffered() const;
    /** Memory held for reading ahead: kCapacity while a stream flows, none once it pauses. */
    [[nodiscard]] std::size_t reserved() const;

    /** For benchmarks and tests: whether sockets attached from now on read ahead (default: yes,
     *  unless the environment says FLASHDECK_SSH_READAHEAD=0). */
    static void setEnabled(bool enabled);
    [[nodiscard]] static bool enabled();

private:
    int m_fd;
    std::unique_ptr<State> m_state;
};

} // namespace flashdeck::ssh

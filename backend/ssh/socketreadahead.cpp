// This file defines recv(), poll() and close() themselves (see the header), so glibc's fortified
// inline wrappers of them must not be declared here: they would clash with the definitions.
#undef _FORTIFY_SOURCE

#include "backend/ssh/socketreadahead.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace flashdeck::ssh {

struct SocketReadAhead::State
{
    std::unique_ptr<char[]> data; // kCapacity bytes, allocated once a stream flows
    std::size_t begin = 0;
    std::size_t end = 0;
    bool flowing = false; // a read has filled libssh's whole buffer: read ahead from now on
};

namespace {

using State = SocketReadAhead::State;

// Descriptors above this are read directly (a session socket is one of the first few hundred).
constexpr int kMaxFd = 16384;

// Zero before any code runs (constant initialisation): an interposed call made during another
// library's start-up finds an empty table.
std::atomic<State *> g_table[kMaxFd];
std::atomic<int> g_attached{0};
std::atomic<int> g_enabled{-1}; // -1: not decided yet (the environment decides)

State *lookup(int fd)
{
    if (fd < 0 || fd >= kMaxFd || g_attached.load(std::memory_order_relaxed) == 0) {
        return nullptr;
    }
    return g_table[fd].load(std::memory_order_acquire);
}

bool holds(const State *s)
{
    return s != nullptr && s->end > s->begin;
}

// Only a pointer is cleared, never memory freed: close() may run in a child between fork() and
// exec(), where malloc's lock may be held by a thread that no longer exists.
void forget(int fd, State *expected)
{
    if (g_table[fd].compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel)) {
        g_attached.fetch_sub(1, std::memory_order_relaxed);
    }
}

// The next definitions after ours: libc's, or a sanitizer's interceptors in front of them.
// Resolved as the program starts (not on first use, which could be in a child after fork());
// a call made before that, or a failed lookup, becomes the system call itself.
struct Next
{
    ssize_t (*recv)(int, void *, std::size_t, int);
    int (*poll)(pollfd *, nfds_t, int);
    int (*close)(int);
};

template<typename Fn>
Fn resolve(const char *name)
{
    return reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, name));
}

const Next g_next{resolve<decltype(Next::recv)>("recv"), resolve<decltype(Next::poll)>("poll"),
                  resolve<decltype(Next::close)>("close")};

ssize_t nextRecv(int fd, void *buf, std::size_t len, int flags)
{
    return g_next.recv ? g_next.recv(fd, buf, len, flags)
                       : ::syscall(SYS_recvfrom, fd, buf, len, flags, nullptr, nullptr);
}

int nextPoll(pollfd *fds, nfds_t n, int timeout)
{
    if (g_next.poll) {
        return g_next.poll(fds, n, timeout);
    }
    timespec ts{timeout / 1000, (timeout % 1000) * 1000000L};
    return static_cast<int>(::syscall(SYS_ppoll, fds, n, timeout < 0 ? nullptr : &ts, nullptr, 0));
}

int nextClose(int fd)
{
    return g_next.close ? g_next.close(fd) : static_cast<int>(::syscall(SYS_close, fd));
}

std::size_t take(State &s, void *out, std::size_t len, bool peek)
{
    const std::size_t n = std::min(len, s.end - s.begin);
    std::memcpy(out, s.data.get() + s.begin, n);
    if (!peek) {
        s.begin += n;
        if (s.begin == s.end) {
            s.begin = s.end = 0;
        }
    }
    return n;
}

} // namespace

SocketReadAhead::SocketReadAhead(int fd)
    : m_fd(fd)
{
    if (!enabled() || fd < 0 || fd >= kMaxFd) {
        return;
    }
    auto state = std::make_unique<State>();
    State *none = nullptr;
    if (g_table[fd].compare_exchange_strong(none, state.get(), std::memory_order_acq_rel)) {
        g_attached.fetch_add(1, std::memory_order_relaxed);
        m_state = std::move(state);
    }
}

SocketReadAhead::~SocketReadAhead()
{
    if (m_state) {
        forget(m_fd, m_state.get());
    }
}

bool SocketReadAhead::active() const
{
    return m_state && lookup(m_fd) == m_state.get();
}

std::size_t SocketReadAhead::buffered() const
{
    return active() ? m_state->end - m_state->begin : 0;
}

std::size_t SocketReadAhead::reserved() const
{
    return active() && m_state->data ? kCapacity : 0;
}

bool SocketReadAhead::enabled()
{
    int e = g_enabled.load(std::memory_order_relaxed);
    if (e < 0) {
        const char *env = std::getenv("FLASHDECK_SSH_READAHEAD");
        e = (env != nullptr && std::strcmp(env, "0") == 0) ? 0 : 1;
        g_enabled.store(e, std::memory_order_relaxed);
    }
    return e == 1;
}

void SocketReadAhead::setEnabled(bool on)
{
    g_enabled.store(on ? 1 : 0, std::memory_order_relaxed);
}

} // namespace flashdeck::ssh

using flashdeck::ssh::SocketReadAhead;

// Exported from the executable so that libssh's (and every library's) calls bind here first.
// Flashdeck builds with default visibility; the attribute says it where it matters.
extern "C" __attribute__((visibility("default"))) ssize_t recv(int fd, void *buf, std::size_t len, int flags)
{
    using namespace flashdeck::ssh;
    State *s = lookup(fd);
    if (s == nullptr || len == 0) {
        return nextRecv(fd, buf, len, flags);
    }
    const bool peek = (flags & MSG_PEEK) != 0;
    if (holds(s)) {
        return static_cast<ssize_t>(take(*s, buf, len, peek));
    }
    if (!s->flowing || peek || len >= SocketReadAhead::kCapacity) {
        const ssize_t n = nextRecv(fd, buf, len, flags);
        // A read that fills the caller's whole buffer means more is waiting: a stream flows.
        s->flowing = s->flowing || (n > 0 && std::size_t(n) == len);
        return n;
    }
    if (!s->data) {
        s->data = std::make_unique_for_overwrite<char[]>(SocketReadAhead::kCapacity);
    }
    // libssh reads only after poll() said so, so this returns what has arrived, without waiting.
    const ssize_t n = nextRecv(fd, s->data.get(), SocketReadAhead::kCapacity, flags);
    if (n <= 0) {
        return n; // the end of the stream or an error, errno as the kernel set it
    }
    if (std::size_t(n) <= len) {
        // No more had arrived than the caller asked for: the stream has paused. Hand it over and
        // give the memory back, so that fifty mostly idle sessions (the fleet, each scraped every
        // few seconds) do not each keep a buffer they use a few milliseconds at a time.
        std::memcpy(buf, s->data.get(), std::size_t(n));
        s->data.reset();
        s->flowing = false;
        return n;
    }
    s->begin = 0;
    s->end = static_cast<std::size_t>(n);
    return static_cast<ssize_t>(take(*s, buf, len, false));
}

extern "C" __attribute__((visibility("default"))) int poll(pollfd *fds, nfds_t n, int timeout)
{
    using namespace flashdeck::ssh;
    // Polls answered from held bytes alone while POLLOUT was asked, on this thread.
    thread_local unsigned outputDeferred = 0;
    nfds_t held = 0;
    bool askKernel = false;
    bool outputAsked = false;
    for (nfds_t i = 0; i < n; ++i) {
        if ((fds[i].events & POLLIN) && holds(lookup(fds[i].fd))) {
            outputAsked = outputAsked || (fds[i].events & POLLOUT) != 0;
            // Input alone is reported, even when POLLOUT is asked too. libssh keeps POLLOUT in its
            // session socket's events for as long as a tunnel flows (socket.c: every write clears
            // write_wontblock and the next one asks POLLOUT again), so asking the kernel here put
            // a poll() system call before every 4 KiB libssh takes: 2.3 million per GiB, the
            // largest cost perf found (docs/PERFORMANCE.md). poll() may report a subset of the
            // ready events; what libssh has to write waits only until the bytes held here are
            // consumed (at most kCapacity, microseconds, with no network wait in between), when the
            // next call asks the kernel again.
            ++held;
        } else {
            askKernel = true;
        }
    }
    if (held == 0) {
        outputDeferred = 0;
        return nextPoll(fds, n, timeout);
    }
    // Bounded: every 16th such answer asks the kernel too, so what libssh has to write (a
    // channel's close, a window adjust) never waits behind a stream that keeps bytes held here (a
    // link's close once lingered 30 s under load in CI). A 16th of the poll() calls saved.
    if (outputAsked && ++outputDeferred % 16 == 0) {
        askKernel = true;
    }
    // Bytes are held here, so nothing waits: ask the kernel about the rest without blocking.
    int ready = askKernel ? nextPoll(fds, n, 0) : 0;
    if (!askKernel || ready < 0) {
        ready = 0; // (interrupted, say: the bytes held are still ready)
        for (nfds_t i = 0; i < n; ++i) {
            fds[i].revents = 0;
        }
    }
    for (nfds_t i = 0; i < n; ++i) {
        if ((fds[i].events & POLLIN) && holds(lookup(fds[i].fd))) {
            ready += fds[i].revents == 0 ? 1 : 0;
            fds[i].revents |= POLLIN;
        }
    }
    return ready;
}

extern "C" __attribute__((visibility("default"))) int close(int fd)
{
    using namespace flashdeck::ssh;
    if (State *s = lookup(fd)) {
        forget(fd, s);
    }
    return nextClose(fd);
}

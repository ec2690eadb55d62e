// flashdeck_socketprobe: what another local user gets from a listening socket. Run as that user
// (setpriv --reuid=65534 …): connects, sends an HTTP request, reads until the end, and prints one
// line: "refused <errno name>" when the connection was not made, else
// "connected bytes=N end=eof|reset|error" (N: every byte the listener sent back).
//   flashdeck_socketprobe tcp ADDRESS PORT
//   flashdeck_socketprobe unix PATH        (PATH starting with @: an abstract socket)
// No Qt: the probe runs as a user who may read nothing of the build but this file.

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

int connectTcp(const char *address, const char *port)
{
    sockaddr_storage storage{};
    socklen_t length = 0;
    const auto p = static_cast<in_port_t>(htons(static_cast<uint16_t>(std::atoi(port))));
    if (std::strchr(address, ':') != nullptr) {
        auto *a = reinterpret_cast<sockaddr_in6 *>(&storage);
        a->sin6_family = AF_INET6;
        a->sin6_port = p;
        if (::inet_pton(AF_INET6, address, &a->sin6_addr) != 1) {
            return -2;
        }
        length = sizeof *a;
    } else {
        auto *a = reinterpret_cast<sockaddr_in *>(&storage);
        a->sin_family = AF_INET;
        a->sin_port = p;
        if (::inet_pton(AF_INET, address, &a->sin_addr) != 1) {
            return -2;
        }
        length = sizeof *a;
    }
    const int fd = ::socket(storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr *>(&storage), length) != 0) {
        return -1;
    }
    return fd;
}

int connectUnix(const char *path)
{
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    const std::size_t n = std::strlen(path);
    if (n == 0 || n >= sizeof a.sun_path) {
        return -2;
    }
    std::memcpy(a.sun_path, path, n);
    socklen_t length = sizeof a;
    if (path[0] == '@') {
        a.sun_path[0] = '\0'; // abstract: the name is the bytes after the NUL, no terminator
        length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + n);
    }
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr *>(&a), length) != 0) {
        return -1;
    }
    return fd;
}

} // namespace

int main(int argc, char **argv)
{
    const bool tcp = argc == 4 && std::strcmp(argv[1], "tcp") == 0;
    const bool local = argc == 3 && std::strcmp(argv[1], "unix") == 0;
    if (!tcp && !local) {
        std::fprintf(stderr, "usage: %s tcp ADDRESS PORT | unix PATH\n", argv[0]);
        return 2;
    }
    // A safety net, never the verdict: a listener that neither answers nor closes would hang
    // the test; this line makes it fail instead.
    std::signal(SIGALRM, [](int) {
        static const char line[] = "timeout\n";
        if (::write(STDOUT_FILENO, line, sizeof line - 1) < 0) {
            _exit(3);
        }
        _exit(0);
    });
    ::alarm(60);
    const int fd = tcp ? connectTcp(argv[2], argv[3]) : connectUnix(argv[2]);
    if (fd == -2) {
        std::fprintf(stderr, "bad address\n");
        return 2;
    }
    if (fd < 0) {
        std::printf("refused %s\n", strerrorname_np(errno));
        return 0;
    }
    static const char request[] = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    // A refused connection may already be closed: a failed send is part of what is seen.
    const bool sent = ::send(fd, request, sizeof request - 1, MSG_NOSIGNAL) == ssize_t(sizeof request - 1);
    long long bytes = 0;
    std::string end = "eof";
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            bytes += n;
        } else if (n == 0) {
            break;
        } else if (errno != EINTR) {
            end = errno == ECONNRESET ? "reset" : std::string("error:") + strerrorname_np(errno);
            break;
        }
    }
    std::printf("connected bytes=%lld end=%s sent=%d\n", bytes, end.c_str(), sent ? 1 : 0);
    return 0;
}

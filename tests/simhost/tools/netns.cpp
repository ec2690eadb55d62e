// `simhost-netns`: gives a simulated host a loopback of its own, as a real GPU server has.
//
// A real host's 127.0.0.1:30000 belongs to that host alone. The simulated hosts of the tests and
// of the demo all ran on the machine's loopback, so a demo's server (or a developer's own SGLang)
// on 127.0.0.1:30000 failed every test that deploys (`preflight.port` saw "in use: 30000"). Each
// simulated host now lives in its own network namespace: its sshd, its Docker daemon and its
// containers see a private loopback; only the ports named with --forward are reachable, each from
// a free port on the machine's 127.0.0.1.
//
//   simhost-netns serve --forward PORT [--forward PORT …] [--ports-file FILE] [--die-with-parent]
//       Binds one free port on the machine's 127.0.0.1 per --forward, moves itself into a new
//       network namespace (with a user namespace when not root, which Debian allows to ordinary
//       users), brings its loopback up, prints {"pid":N,"forwards":{"PORT":OUTSIDE,…}} on one line
//       (and writes it atomically to FILE), then relays every connection to 127.0.0.1:PORT inside.
//       Runs until SIGTERM or SIGINT. As root it also reads lines "forward PORT" on stdin and
//       answers each with {"forward":PORT,"port":OUTSIDE} (tests reach a server they started on
//       a port of their choosing this way).
//   simhost-netns join PID [--die-with-parent] -- PROGRAM [ARGS…]
//       Enters the namespaces of the `serve` process PID and executes PROGRAM there.
//
// Plain POSIX, no Qt: it is part of the simulated host that the package carries for the demo.

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <string>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

volatile std::sig_atomic_t g_stop = 0;

void onSignal(int)
{
    g_stop = 1;
}

[[noreturn]] void fail(const std::string &what)
{
    std::fprintf(stderr, "simhost-netns: %s: %s\n", what.c_str(), std::strerror(errno));
    std::exit(1);
}

bool writeAll(const std::string &path, const std::string &text)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        return false;
    }
    const ssize_t n = ::write(fd, text.data(), text.size());
    const bool closed = ::close(fd) == 0;
    return n == static_cast<ssize_t>(text.size()) && closed;
}

/** Maps our own uid and gid into a new user namespace (what `unshare --map-current-user` does). */
void mapCurrentUser(uid_t uid, gid_t gid)
{
    if (!writeAll("/proc/self/setgroups", "deny") ||
        !writeAll("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n") ||
        !writeAll("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n")) {
        fail("cannot map the user into the new user namespace");
    }
}

void loopbackUp()
{
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        fail("socket");
    }
    ifreq ifr{};
    std::strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
    if (::ioctl(fd, SIOCGIFFLAGS, &ifr) != 0) {
        fail("cannot read the loopback's flags");
    }
    ifr.ifr_flags = static_cast<short>(ifr.ifr_flags | IFF_UP | IFF_RUNNING);
    if (::ioctl(fd, SIOCSIFFLAGS, &ifr) != 0) {
        fail("cannot bring the loopback up");
    }
    ::close(fd);
}

void setNonBlocking(int fd)
{
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

sockaddr_in loopback(std::uint16_t port)
{
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

/** One direction of a relayed connection: bytes read from `from`, not yet written to `to`. */
struct Pipe
{
    std::vector<char> buffer = std::vector<char>(256 * 1024);
    size_t begin = 0;
    size_t end = 0;
    bool eof = false; // `from` said it sends no more
    bool shutDown = false; // and `to` was told so
};

struct Relay
{
    int outside = -1; // accepted on the machine's loopback
    int inside = -1; // connected to 127.0.0.1:PORT in the namespace
    bool connected = false;
    Pipe in; // outside → inside
    Pipe out; // inside → outside
    bool dead = false;
};

/** Moves what it can; false when the relay is finished (both ways ended) or broken. */
bool pump(int from, int to, Pipe &p)
{
    if (!p.eof && p.end < p.buffer.size()) {
        const ssize_t n = ::read(from, p.buffer.data() + p.end, p.buffer.size() - p.end);
        if (n > 0) {
            p.end += static_cast<size_t>(n);
        } else if (n == 0) {
            p.eof = true;
        } else if (errno != EAGAIN && errno != EINTR) {
            return false;
        }
    }
    while (p.begin < p.end) {
        const ssize_t n = ::send(to, p.buffer.data() + p.begin, p.end - p.begin, MSG_NOSIGNAL);
        if (n > 0) {
            p.begin += static_cast<size_t>(n);
        } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            break;
        } else {
            return false;
        }
    }
    if (p.begin == p.end) {
        p.begin = p.end = 0;
    }
    if (p.eof && p.begin == p.end && !p.shutDown) {
        ::shutdown(to, SHUT_WR); // the half-close travels on (the docker CLI relies on it)
        p.shutDown = true;
    }
    return true;
}

/** A listening socket on a free port of 127.0.0.1 of the namespace we are in; its port. */
std::pair<int, std::uint16_t> listenAnywhere()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    const sockaddr_in any = loopback(0);
    if (fd < 0 || ::bind(fd, reinterpret_cast<const sockaddr *>(&any), sizeof any) != 0 || ::listen(fd, 256) != 0) {
        fail("cannot listen on the machine's 127.0.0.1");
    }
    sockaddr_in bound{};
    socklen_t len = sizeof bound;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&bound), &len);
    return {fd, ntohs(bound.sin_port)};
}

int serve(std::vector<std::uint16_t> ports, const std::string &portsFile)
{
    std::vector<int> listeners;
    std::string forwards;
    for (const std::uint16_t port : ports) {
        const auto [fd, outside] = listenAnywhere();
        listeners.push_back(fd);
        forwards += (forwards.empty() ? "\"" : ",\"") + std::to_string(port) + "\":" + std::to_string(outside);
    }
    // Root can step back into the machine's namespace later to add a forward (see "forward").
    const int machineNs = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    // The listeners stay in the machine's namespace: a socket belongs to the namespace it was
    // made in. Everything made from here on is inside.
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    if (uid == 0) {
        if (::unshare(CLONE_NEWNET) != 0) {
            fail("cannot create a network namespace");
        }
    } else {
        if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
            fail("cannot create a user and network namespace (is kernel.unprivileged_userns_clone 0?)");
        }
        mapCurrentUser(uid, gid);
    }
    loopbackUp();
    const int ownNs = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    bool control = uid == 0 && machineNs >= 0 && ownNs >= 0;
    std::string commands; // partial lines read from stdin

    const std::string line = "{\"pid\":" + std::to_string(::getpid()) + ",\"forwards\":{" + forwards + "}}\n";
    if (!portsFile.empty()) {
        const std::string tmp = portsFile + ".tmp";
        if (!writeAll(tmp, line) || ::rename(tmp.c_str(), portsFile.c_str()) != 0) {
            fail("cannot write " + portsFile);
        }
    }
    std::fputs(line.c_str(), stdout);
    std::fflush(stdout);

    std::vector<std::unique_ptr<Relay>> relays;
    std::vector<pollfd> fds;
    while (!g_stop) {
        fds.clear();
        for (const int l : listeners) {
            fds.push_back({l, POLLIN, 0});
        }
        const size_t fixed = listeners.size();
        for (const auto &r : relays) {
            short outsideEvents = 0;
            short insideEvents = 0;
            if (!r->connected) {
                insideEvents = POLLOUT;
            } else {
                if (!r->in.eof && r->in.end < r->in.buffer.size()) {
                    outsideEvents |= POLLIN;
                }
                if (!r->out.eof && r->out.end < r->out.buffer.size()) {
                    insideEvents |= POLLIN;
                }
                if (r->in.begin < r->in.end) {
                    insideEvents |= POLLOUT;
                }
                if (r->out.begin < r->out.end) {
                    outsideEvents |= POLLOUT;
                }
            }
            fds.push_back({r->outside, outsideEvents, 0});
            fds.push_back({r->inside, insideEvents, 0});
        }
        if (control) {
            fds.push_back({STDIN_FILENO, POLLIN, 0});
        }
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            fail("poll");
        }
        for (size_t i = 0; i < relays.size(); ++i) {
            Relay &r = *relays[i];
            const pollfd &o = fds[fixed + 2 * i];
            const pollfd &n = fds[fixed + 2 * i + 1];
            if (!r.connected) {
                if (n.revents == 0) {
                    continue;
                }
                int err = 0;
                socklen_t len = sizeof err;
                ::getsockopt(r.inside, SOL_SOCKET, SO_ERROR, &err, &len);
                r.connected = err == 0;
                r.dead = err != 0; // nothing listens inside: the client sees the connection close
                continue;
            }
            if ((o.revents | n.revents) != 0) {
                r.dead = !pump(r.outside, r.inside, r.in) || !pump(r.inside, r.outside, r.out);
            }
            // A reset, or a hang-up with nothing left to deliver: poll would report it forever.
            if (((o.revents | n.revents) & POLLERR) != 0 ||
                (((o.revents | n.revents) & POLLHUP) != 0 && r.in.begin == r.in.end && r.out.begin == r.out.end)) {
                r.dead = true;
            }
            if (r.in.shutDown && r.out.shutDown) {
                r.dead = true;
            }
        }
        for (auto it = relays.begin(); it != relays.end();) {
            if ((*it)->dead) {
                ::close((*it)->outside);
                ::close((*it)->inside);
                it = relays.erase(it);
            } else {
                ++it;
            }
        }
        for (size_t l = 0; l < fixed; ++l) {
            if ((fds[l].revents & POLLIN) == 0) {
                continue;
            }
            while (true) {
                const int client = ::accept4(listeners[l], nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
                if (client < 0) {
                    break;
                }
                auto r = std::make_unique<Relay>();
                r->outside = client;
                r->inside = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
                // A router forwards each segment as it comes; with Nagle's algorithm on, this
                // relay held a small packet until the far end's delayed ACK (40 ms a request),
                // which no network between an operator and a host would add.
                const int one = 1;
                (void)::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                (void)::setsockopt(r->inside, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                const sockaddr_in target = loopback(ports[l]);
                const int rc = ::connect(r->inside, reinterpret_cast<const sockaddr *>(&target), sizeof target);
                if (rc == 0) {
                    r->connected = true;
                } else if (errno != EINPROGRESS) {
                    ::close(client);
                    ::close(r->inside);
                    continue;
                }
                setNonBlocking(r->outside);
                relays.push_back(std::move(r));
            }
        }
        if (control && (fds.back().revents & (POLLIN | POLLHUP)) != 0) {
            char chunk[512];
            const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
            if (n <= 0) {
                control = false; // the parent closed our stdin: the forwards stay as they are
                continue;
            }
            commands.append(chunk, static_cast<size_t>(n));
            for (size_t eol; (eol = commands.find('\n')) != std::string::npos;) {
                const std::string command = commands.substr(0, eol);
                commands.erase(0, eol + 1);
                const long port = command.rfind("forward ", 0) == 0 ? std::strtol(command.c_str() + 8, nullptr, 10) : 0;
                if (port <= 0 || port > 65535 || ::setns(machineNs, CLONE_NEWNET) != 0) {
                    std::printf("{\"error\":\"cannot forward %s\"}\n", command.c_str());
                    std::fflush(stdout);
                    continue;
                }
                const auto [fd, outside] = listenAnywhere();
                if (::setns(ownNs, CLONE_NEWNET) != 0) {
                    fail("cannot return into the host's namespace");
                }
                listeners.push_back(fd);
                ports.push_back(static_cast<std::uint16_t>(port));
                std::printf("{\"forward\":%ld,\"port\":%u}\n", port, static_cast<unsigned>(outside));
                std::fflush(stdout);
            }
        }
    }
    if (!portsFile.empty()) {
        ::unlink(portsFile.c_str());
    }
    return 0;
}

bool sameNamespace(const std::string &a, const std::string &b)
{
    struct stat sa
    {
    };
    struct stat sb
    {
    };
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_ino == sb.st_ino &&
        sa.st_dev == sb.st_dev;
}

int join(const std::string &pid, bool dieWithParent, char **argv)
{
    const std::string base = "/proc/" + pid + "/ns/";
    // An ordinary user's namespace is owned by a user namespace of its own: enter that first,
    // where we hold the capability to enter the network namespace.
    if (!sameNamespace(base + "user", "/proc/self/ns/user")) {
        const int user = ::open((base + "user").c_str(), O_RDONLY | O_CLOEXEC);
        if (user < 0 || ::setns(user, CLONE_NEWUSER) != 0) {
            fail("cannot enter the user namespace of " + pid);
        }
        ::close(user);
    }
    const int net = ::open((base + "net").c_str(), O_RDONLY | O_CLOEXEC);
    if (net < 0 || ::setns(net, CLONE_NEWNET) != 0) {
        fail("cannot enter the network namespace of " + pid);
    }
    ::close(net);
    if (dieWithParent) {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM); // entering a user namespace cleared it
    }
    ::execvp(argv[0], argv);
    fail(std::string("cannot run ") + argv[0]);
}

int usage()
{
    std::fputs("usage: simhost-netns serve --forward PORT [--forward PORT …] [--ports-file FILE] "
               "[--die-with-parent]\n"
               "       simhost-netns join PID [--die-with-parent] -- PROGRAM [ARGS…]\n",
               stderr);
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        return usage();
    }
    const std::string mode = argv[1];
    bool dieWithParent = false;
    if (mode == "serve") {
        std::vector<std::uint16_t> ports;
        std::string portsFile;
        for (int i = 2; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == "--forward" && i + 1 < argc) {
                const long port = std::strtol(argv[++i], nullptr, 10);
                if (port <= 0 || port > 65535) {
                    return usage();
                }
                ports.push_back(static_cast<std::uint16_t>(port));
            } else if (arg == "--ports-file" && i + 1 < argc) {
                portsFile = argv[++i];
            } else if (arg == "--die-with-parent") {
                dieWithParent = true;
            } else {
                return usage();
            }
        }
        if (ports.empty()) {
            return usage();
        }
        if (dieWithParent) {
            ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        }
        struct sigaction sa
        {
        };
        sa.sa_handler = onSignal;
        ::sigaction(SIGTERM, &sa, nullptr);
        ::sigaction(SIGINT, &sa, nullptr);
        ::signal(SIGPIPE, SIG_IGN);
        return serve(ports, portsFile);
    }
    if (mode == "join" && argc >= 5) {
        const std::string pid = argv[2];
        int i = 3;
        if (std::string(argv[i]) == "--die-with-parent") {
            dieWithParent = true;
            ++i;
        }
        if (i + 1 >= argc || std::string(argv[i]) != "--") {
            return usage();
        }
        return join(pid, dieWithParent, argv + i + 1);
    }
    return usage();
}

// The simulated host's `docker`. `docker system dial-stdio` bridges stdin/stdout to the
// simulated daemon's Engine API (as the real CLI does for ssh:// hosts, which is what both the
// docker CLI and Flashdeck run over SSH); every other verb runs the machine's real docker CLI
// against the same daemon (DOCKER_HOST=tcp://127.0.0.1:<port>), so `docker pull/run/ps/logs/
// inspect/stop/rm/version/info` print exactly what the real client prints.

#include <arpa/inet.h>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>

namespace {

const char *const kNoDaemon =
    "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n";

/**
 * Scenario `docker.socket_denied`: the login user is not in the `docker` group, so the socket
 * (root:docker, 0660) refuses it, and the real CLI says so in these words (docker 20.10+).
 */
bool socketDenied()
{
    const char *dir = std::getenv("FLASHDECK_SIM_DIR");
    if (!dir) {
        return false;
    }
    // stdio, not istreambuf_iterator: GCC 12's -O3 sees a "potential null pointer dereference"
    // inside libstdc++'s streambuf there, which -Werror turns into a failed package build.
    std::string text;
    if (std::FILE *f = std::fopen((std::string(dir) + "/scenario.json").c_str(), "rb")) {
        char chunk[4096];
        std::size_t n = 0;
        while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) {
            text.append(chunk, n);
        }
        std::fclose(f);
    }
    // A plain search keeps this tool free of a JSON library: the key is unique to this purpose.
    const std::size_t key = text.find("\"socket_denied\"");
    const std::size_t value = key == std::string::npos ? key : text.find_first_not_of(" \t\r\n:", key + 15);
    return value != std::string::npos && text.compare(value, 4, "true") == 0;
}

const char *const kDialDenied =
    "failed to open the raw stream connection: dial unix /var/run/docker.sock: connect: permission denied\n";
const char *const kCliDenied =
    "permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "
    "\"http://%2Fvar%2Frun%2Fdocker.sock/v1.24/version\": dial unix /var/run/docker.sock: connect: permission "
    "denied\n";

int daemonPort()
{
    const char *dir = std::getenv("FLASHDECK_SIM_DIR");
    if (!dir) {
        return 0;
    }
    std::ifstream in(std::string(dir) + "/docker.port");
    int port = 0;
    in >> port;
    return port;
}

int connectDaemon(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
        if (fd >= 0) {
            ::close(fd);
        }
        return -1;
    }
    return fd;
}

bool writeAll(int fd, const char *data, ssize_t n)
{
    while (n > 0) {
        const ssize_t w = ::write(fd, data, static_cast<std::size_t>(n));
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return false;
        }
        data += w;
        n -= w;
    }
    return true;
}

// stdin → socket, socket → stdout; stdin EOF half-closes the socket, socket EOF ends.
int dialStdio(int port)
{
    const int sock = connectDaemon(port);
    if (sock < 0) {
        std::fputs(kNoDaemon, stderr);
        return 1;
    }
    pollfd fds[2] = {{0, POLLIN, 0}, {sock, POLLIN, 0}};
    char buf[65536];
    for (;;) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            return 1;
        }
        if (fds[0].fd >= 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(0, buf, sizeof buf);
            if (n <= 0) {
                ::shutdown(sock, SHUT_WR);
                fds[0].fd = -1;
            } else if (!writeAll(sock, buf, n)) {
                return 1;
            }
        }
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = ::read(sock, buf, sizeof buf);
            if (n <= 0) {
                return 0;
            }
            if (!writeAll(1, buf, n)) {
                return 1;
            }
        }
    }
}

/** The first `docker` on PATH that is not this shim. */
std::string realDocker()
{
    char self[PATH_MAX] = {};
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    const std::string me = n > 0 ? std::string(self, static_cast<std::size_t>(n)) : std::string();
    const char *pathEnv = std::getenv("PATH");
    std::string path = std::string(pathEnv ? pathEnv : "") + ":/usr/bin:/usr/local/bin";
    std::size_t begin = 0;
    while (begin < path.size()) {
        const std::size_t end = std::min(path.find(':', begin), path.size());
        const std::string candidate = path.substr(begin, end - begin) + "/docker";
        char resolved[PATH_MAX] = {};
        if (::access(candidate.c_str(), X_OK) == 0 && ::realpath(candidate.c_str(), resolved) && me != resolved) {
            return candidate;
        }
        begin = end + 1;
    }
    return {};
}

} // namespace

int main(int argc, char **argv)
{
    ::signal(SIGPIPE, SIG_IGN);
    const int port = daemonPort();
    if (socketDenied()) {
        const bool dial = argc >= 3 && std::strcmp(argv[1], "system") == 0 && std::strcmp(argv[2], "dial-stdio") == 0;
        std::fputs(dial ? kDialDenied : kCliDenied, stderr);
        return 1;
    }
    if (argc >= 3 && std::strcmp(argv[1], "system") == 0 && std::strcmp(argv[2], "dial-stdio") == 0) {
        if (port <= 0) {
            std::fputs(kNoDaemon, stderr);
            return 1;
        }
        return dialStdio(port);
    }
    const std::string docker = realDocker();
    if (docker.empty()) {
        std::fprintf(stderr,
                     "docker: the simulated host runs `docker %s` with the machine's docker CLI, and there is "
                     "none on PATH (install Debian's docker.io)\n",
                     argc > 1 ? argv[1] : "");
        return 127;
    }
    if (port <= 0) {
        std::fputs(kNoDaemon, stderr);
        return 1;
    }
    ::setenv("DOCKER_HOST", ("tcp://127.0.0.1:" + std::to_string(port)).c_str(), 1);
    ::unsetenv("DOCKER_CONTEXT");
    argv[0] = const_cast<char *>(docker.c_str());
    ::execv(docker.c_str(), argv);
    std::perror("docker");
    return 126;
}

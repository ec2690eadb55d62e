#include "tests/simhost/engine/httpserver.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cstring>
#include <ctime>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace flashdeck::sim::http {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string decode(const std::string &s, bool plusIsSpace)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else if (plusIsSpace && s[i] == '+') {
            out += ' ';
        } else {
            out += s[i];
        }
    }
    return out;
}

const char *reason(int status)
{
    switch (status) {
    case 101:
        return "UPGRADED"; // dockerd's own wording for the attach upgrade
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 204:
        return "No Content";
    case 304:
        return "Not Modified";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 409:
        return "Conflict";
    default:
        return status >= 500 ? "Internal Server Error" : "Unknown";
    }
}

bool sendAll(int fd, const char *data, std::size_t n)
{
    while (n > 0) {
        const ssize_t w = ::send(fd, data, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return false;
        }
        data += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
}

/** Buffered reads from one connection; false at EOF, error or after `idleSeconds`. */
class Reader
{
public:
    explicit Reader(int fd)
        : m_fd(fd)
    { }
    bool fill(int idleSeconds)
    {
        pollfd p{m_fd, POLLIN, 0};
        if (::poll(&p, 1, idleSeconds * 1000) <= 0) {
            return false;
        }
        char buf[16384];
        const ssize_t n = ::recv(m_fd, buf, sizeof buf, 0);
        if (n <= 0) {
            return false;
        }
        m_buf.append(buf, static_cast<std::size_t>(n));
        return true;
    }
    bool line(std::string *out)
    {
        for (;;) {
            if (const auto nl = m_buf.find("\r\n"); nl != std::string::npos) {
                *out = m_buf.substr(0, nl);
                m_buf.erase(0, nl + 2);
                return true;
            }
            if (m_buf.size() > 65536 || !fill(300)) {
                return false;
            }
        }
    }
    bool bytes(std::size_t n, std::string *out)
    {
        while (m_buf.size() < n) {
            if (!fill(300)) {
                return false;
            }
        }
        out->append(m_buf, 0, n);
        m_buf.erase(0, n);
        return true;
    }

private:
    int m_fd;
    std::string m_buf;
};

} // namespace

std::string Request::get_param_value(const char *name) const
{
    const auto it = params.find(name);
    return it == params.end() ? std::string() : it->second;
}

std::string Request::get_header_value(const char *name) const
{
    const std::string want = lower(name);
    for (const auto &[k, v] : headers) {
        if (lower(k) == want) {
            return v;
        }
    }
    return {};
}

void Response::set_content(const std::string &text, const std::string &type)
{
    body = text;
    set_header("Content-Type", type);
}

void Response::set_chunked_content_provider(const std::string &type, Provider p)
{
    set_header("Content-Type", type);
    provider = std::move(p);
    chunked = true;
}

void Response::set_content_provider(const std::string &type, Provider p)
{
    set_header("Content-Type", type);
    provider = std::move(p);
    chunked = false;
}

Server::~Server()
{
    stop();
}

void Server::add(const std::string &method, const std::string &pattern, Handler h)
{
    m_routes.push_back({method, std::regex(pattern), std::move(h)});
}

int Server::bind_to_any_port(const std::string &host, int port)
{
    m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, host.c_str(), &addr.sin_addr);
    socklen_t len = sizeof addr;
    if (m_listen < 0 || ::bind(m_listen, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
        ::listen(m_listen, 128) != 0 || ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&addr), &len) != 0) {
        return -1;
    }
    return ntohs(addr.sin_port);
}

void Server::listen_after_bind()
{
    while (!m_stopping) {
        const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) {
                continue;
            }
            break;
        }
        const std::lock_guard lock(m_mutex);
        m_connections.push_back(fd);
        std::thread([this, fd] { serve(fd); }).detach();
    }
}

std::size_t Server::connections()
{
    const std::lock_guard lock(m_mutex);
    return m_connections.size();
}

void Server::stop()
{
    if (m_stopping.exchange(true)) {
        return;
    }
    if (m_listen >= 0) {
        ::shutdown(m_listen, SHUT_RDWR);
        ::close(m_listen);
    }
    std::unique_lock lock(m_mutex);
    for (const int fd : m_connections) {
        ::shutdown(fd, SHUT_RDWR);
    }
    m_idle.wait(lock, [this] { return m_connections.empty(); });
}

void Server::serve(int fd)
{
    Reader reader(fd);
    for (;;) {
        Request req;
        std::string line;
        if (!reader.line(&line)) {
            break;
        }
        const auto sp1 = line.find(' ');
        const auto sp2 = line.rfind(' ');
        if (sp1 == std::string::npos || sp2 == sp1) {
            break;
        }
        req.method = line.substr(0, sp1);
        const std::string target = line.substr(sp1 + 1, sp2 - sp1 - 1);
        const auto q = target.find('?');
        req.path = decode(target.substr(0, q), false);
        if (q != std::string::npos) {
            std::string query = target.substr(q + 1);
            std::size_t begin = 0;
            while (begin <= query.size()) {
                const std::size_t end = std::min(query.find('&', begin), query.size());
                const std::string pair = query.substr(begin, end - begin);
                const auto eq = pair.find('=');
                if (!pair.empty()) {
                    req.params[decode(pair.substr(0, eq), true)] =
                        eq == std::string::npos ? std::string() : decode(pair.substr(eq + 1), true);
                }
                begin = end + 1;
            }
        }
        bool ok = true;
        while ((ok = reader.line(&line)) && !line.empty()) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                std::string value = line.substr(colon + 1);
                value.erase(0, value.find_first_not_of(" \t"));
                req.headers.emplace_back(line.substr(0, colon), value);
            }
        }
        if (!ok) {
            break;
        }
        if (lower(req.get_header_value("Transfer-Encoding")) == "chunked") {
            for (;;) {
                if (!reader.line(&line)) {
                    ok = false;
                    break;
                }
                const std::size_t size = std::strtoul(line.c_str(), nullptr, 16);
                std::string crlf;
                if (size == 0) {
                    reader.line(&crlf);
                    break;
                }
                if (!reader.bytes(size, &req.body) || !reader.line(&crlf)) {
                    ok = false;
                    break;
                }
            }
        } else if (const std::string length = req.get_header_value("Content-Length"); !length.empty()) {
            ok = reader.bytes(std::strtoul(length.c_str(), nullptr, 10), &req.body);
        }
        if (!ok || !handle(fd, req) || lower(req.get_header_value("Connection")) == "close") {
            break;
        }
    }
    ::close(fd);
    const std::lock_guard lock(m_mutex);
    m_connections.erase(std::remove(m_connections.begin(), m_connections.end(), fd), m_connections.end());
    m_idle.notify_all();
}

bool Server::handle(int fd, Request &req)
{
    Response res;
    const std::string method = req.method == "HEAD" ? "GET" : req.method;
    bool found = false;
    for (const auto &route : m_routes) {
        std::smatch m;
        if (route.method == method && std::regex_match(req.path, m, route.pattern)) {
            for (const auto &g : m) {
                req.matches.push_back(g.str());
            }
            route.handler(req, res);
            found = true;
            break;
        }
    }
    if (!found) {
        res.status = 404;
        res.set_content("{\"message\":\"page not found\"}\n", "application/json");
    }
    char date[64];
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&now, &tm);
    std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    std::string head = "HTTP/1.1 " + std::to_string(res.status) + " " + reason(res.status) + "\r\n";
    for (const auto &[k, v] : m_defaults) {
        head += k + ": " + v + "\r\n";
    }
    for (const auto &[k, v] : res.headers) {
        head += k + ": " + v + "\r\n";
    }
    head += std::string("Date: ") + date + "\r\n";
    const bool streamed = static_cast<bool>(res.provider);
    if (!streamed) {
        if (res.status != 204 && res.status != 304) {
            head += "Content-Length: " + std::to_string(res.body.size()) + "\r\n";
        }
    } else if (res.chunked) {
        head += "Transfer-Encoding: chunked\r\n";
    }
    head += "\r\n";
    if (!sendAll(fd, head.data(), head.size())) {
        return false;
    }
    if (req.method == "HEAD") {
        return true;
    }
    if (!streamed) {
        return sendAll(fd, res.body.data(), res.body.size());
    }
    // Streamed body: headers are already on the wire (wait, logs -f and pull rely on that).
    bool good = true;
    bool finished = false;
    const bool hijacked = !res.chunked;
    DataSink sink;
    sink.write = [&](const char *data, std::size_t n) {
        if (!good || n == 0) {
            return good;
        }
        if (res.chunked) {
            char size[32];
            std::snprintf(size, sizeof size, "%zx\r\n", n);
            good = sendAll(fd, size, std::strlen(size)) && sendAll(fd, data, n) && sendAll(fd, "\r\n", 2);
        } else {
            good = sendAll(fd, data, n);
        }
        return good;
    };
    sink.done = [&] { finished = true; };
    sink.is_writable = [&] {
        if (!good || m_stopping) {
            return false;
        }
        if (hijacked) {
            return true; // a half-closed hijacked stream is normal (the docker CLI has no stdin)
        }
        pollfd p{fd, POLLRDHUP, 0};
        return ::poll(&p, 1, 0) == 0 || !(p.revents & (POLLRDHUP | POLLHUP | POLLERR));
    };
    std::size_t offset = 0;
    while (!finished && good) {
        if (!res.provider(offset, sink)) {
            return false;
        }
        ++offset;
    }
    if (!good) {
        return false;
    }
    if (res.chunked) {
        return sendAll(fd, "0\r\n\r\n", 5);
    }
    ::shutdown(fd, SHUT_WR); // the end of a hijacked stream is the end of the connection
    return false;
}

} // namespace flashdeck::sim::http

#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace flashdeck::sim::http {

/**
 * A small HTTP/1.1 server for the simulated Docker daemon. cpp-httplib (used for the hub and
 * the SGLang simulator) cannot serve the Engine API as dockerd does: after `attach` answers
 * 101 the docker CLI half-closes its side, which httplib takes for a dead peer, and httplib
 * keeps a length-less response's connection open where dockerd closes it. This server hijacks
 * the connection for 101 answers, sends headers before a streamed body (wait, logs, pull) and
 * never compresses. Its API mirrors the part of httplib the routes use.
 */
struct Request
{
    std::string method;
    std::string path; // decoded
    std::map<std::string, std::string> params; // decoded query
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    std::vector<std::string> matches; // [0] whole path, then the route's groups

    bool has_param(const char *name) const { return params.count(name) > 0; }
    std::string get_param_value(const char *name) const;
    std::string get_header_value(const char *name) const;
};

/** Where a streamed body goes. */
class DataSink
{
public:
    std::function<bool(const char *, std::size_t)> write;
    std::function<void()> done;
    /** False once the client has gone (for hijacked streams: once a write failed). */
    std::function<bool()> is_writable;
};

using Provider = std::function<bool(std::size_t offset, DataSink &sink)>;

struct Response
{
    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    Provider provider;
    bool chunked = false; // provider with Transfer-Encoding: chunked; else raw, then close

    void set_header(const std::string &name, const std::string &value) { headers.emplace_back(name, value); }
    void set_content(const std::string &text, const std::string &type);
    void set_chunked_content_provider(const std::string &type, Provider p);
    /** A raw stream after the headers; the connection closes when it ends (101 hijack). */
    void set_content_provider(const std::string &type, Provider p);
};

using Handler = std::function<void(const Request &, Response &)>;

class Server final
{
public:
    Server() = default;
    ~Server();
    Server(const Server &) = delete;
    Server &operator=(const Server &) = delete;

    void Get(const std::string &pattern, Handler h) { add("GET", pattern, std::move(h)); }
    void Post(const std::string &pattern, Handler h) { add("POST", pattern, std::move(h)); }
    void Delete(const std::string &pattern, Handler h) { add("DELETE", pattern, std::move(h)); }
    /** Headers every answer carries (dockerd's Api-Version, Server, …). */
    void set_default_headers(std::vector<std::pair<std::string, std::string>> headers)
    {
        m_defaults = std::move(headers);
    }

    /** Binds host:port (0: any free port); returns the port, or -1. */
    int bind_to_any_port(const std::string &host, int port = 0);
    /** Accepts until stop(); one thread per connection. */
    void listen_after_bind();
    /** Stops accepting, shuts every connection down and waits for their threads. */
    void stop();
    /** Connections open now (each `docker system dial-stdio` is one; so is a test's own). */
    std::size_t connections();

private:
    struct Route
    {
        std::string method;
        std::regex pattern;
        Handler handler;
    };
    void add(const std::string &method, const std::string &pattern, Handler h);
    void serve(int fd);
    bool handle(int fd, Request &req);

    std::vector<Route> m_routes;
    std::vector<std::pair<std::string, std::string>> m_defaults;
    int m_listen = -1;
    std::atomic<bool> m_stopping{false};
    std::mutex m_mutex;
    std::condition_variable m_idle;
    std::vector<int> m_connections;
};

} // namespace flashdeck::sim::http

#pragma once

#include <cstdint>
#include <string>

namespace httplib {
class Server;
} // namespace httplib

namespace flashdeck::sim {

namespace http {
class Server;
struct Response;
} // namespace http
class Engine;

/** The API version the simulated daemon speaks (Docker Engine 27.5; clients negotiate down to it). */
inline constexpr const char *kApiVersion = "1.47";
inline constexpr const char *kEngineVersion = "27.5.1";

/** `(?:/v1.47)?` + path: every route accepts the version prefix clients put in front. */
std::string route(const std::string &path);
/** The daemon's error shape: `{"message": "…"}` with the status. */
void sendError(http::Response &res, int status, const std::string &message);
/** RFC 3339 with nanoseconds, UTC, as Go's time.RFC3339Nano prints it ("0001-01-01T00:00:00Z" for 0). */
std::string rfc3339(std::int64_t nanos);

void registerSystemRoutes(http::Server &server, Engine &engine);
void registerImageRoutes(http::Server &server, Engine &engine);
void registerContainerRoutes(http::Server &server, Engine &engine);
/** The fake Hugging Face Hub: GET /api/models/<repo>/revision/<rev>. */
void registerHubRoutes(httplib::Server &server, Engine &engine);

} // namespace flashdeck::sim

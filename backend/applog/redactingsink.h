#pragma once

#include <spdlog/sinks/base_sink.h>

#include <mutex>
#include <vector>

namespace flashdeck {

namespace security {
class Redactor;
} // namespace security

namespace applog {

/**
 * The one gate every log line passes: redacts the message, then hands it to the real sinks
 * (file, stderr, in-memory view). Nothing reaches a sink except through here.
 */
class RedactingSink final : public spdlog::sinks::base_sink<std::mutex>
{
public:
    RedactingSink(const security::Redactor &redactor, std::vector<spdlog::sink_ptr> children);

protected:
    void sink_it_(const spdlog::details::log_msg &msg) override;
    void flush_() override;
    void set_pattern_(const std::string &pattern) override;
    void set_formatter_(std::unique_ptr<spdlog::formatter> formatter) override;

private:
    const security::Redactor &m_redactor;
    std::vector<spdlog::sink_ptr> m_children;
};

} // namespace applog
} // namespace flashdeck

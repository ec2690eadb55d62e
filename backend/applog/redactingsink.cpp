#include "backend/applog/redactingsink.h"

#include "backend/security/redactor.h"

namespace flashdeck::applog {

RedactingSink::RedactingSink(const security::Redactor &redactor, std::vector<spdlog::sink_ptr> children)
    : m_redactor(redactor)
    , m_children(std::move(children))
{ }

void RedactingSink::sink_it_(const spdlog::details::log_msg &msg)
{
    const std::string clean = m_redactor.redact(std::string_view(msg.payload.data(), msg.payload.size()));
    spdlog::details::log_msg copy(msg);
    copy.payload = spdlog::string_view_t(clean.data(), clean.size());
    for (const spdlog::sink_ptr &child : m_children) {
        if (child->should_log(copy.level)) {
            child->log(copy);
        }
    }
}

void RedactingSink::flush_()
{
    for (const spdlog::sink_ptr &child : m_children) {
        child->flush();
    }
}

void RedactingSink::set_pattern_(const std::string &pattern)
{
    for (const spdlog::sink_ptr &child : m_children) {
        child->set_pattern(pattern);
    }
}

void RedactingSink::set_formatter_(std::unique_ptr<spdlog::formatter> formatter)
{
    for (const spdlog::sink_ptr &child : m_children) {
        child->set_formatter(formatter->clone());
    }
}

} // namespace flashdeck::applog

#include "backend/ssh/sshlog.h"

#include "backend/logging/logging.h"

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <spdlog/logger.h>

namespace flashdeck::ssh {

namespace {

void forward(int priority, const char *function, const char *buffer, void *)
{
    spdlog::logger &logger = log::ssh();
    const std::string_view text(buffer ? buffer : "");
    if (priority <= SSH_LOG_WARN) {
        logger.warn("libssh {}: {}", function ? function : "", text);
    } else if (priority <= SSH_LOG_INFO) {
        logger.debug("libssh {}: {}", function ? function : "", text);
    } else {
        logger.trace("libssh {}: {}", function ? function : "", text);
    }
}

} // namespace

void installLibsshLogging()
{
    const auto level = log::ssh().level();
    const int libsshLevel = level <= spdlog::level::trace   ? SSH_LOG_PROTOCOL
                            : level <= spdlog::level::debug ? SSH_LOG_INFO
                                                            : SSH_LOG_WARN;
    ssh_set_log_level(libsshLevel);
    ssh_set_log_userdata(nullptr);
    ssh_set_log_callback(&forward);
}

} // namespace flashdeck::ssh

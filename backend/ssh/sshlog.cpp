#include "backend/ssh/sshlog.h"

#include "backend/applog/logging.h"

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <spdlog/logger.h>

namespace flashdeck::ssh {

namespace {

void forward(int priority, const char *function, const char *buffer, void *)
{
    // libssh's own messages are diagnostics: the errors that matter reach the operator
    // through ssh_get_error and our mapped messages. Its "warnings" include routine events
    // (OpenSSH answering keepalive@openssh.com with a failure, "none" auth denied).
    spdlog::logger &logger = applog::ssh();
    const std::string_view text(buffer ? buffer : "");
    if (priority <= SSH_LOG_WARN) {
        logger.debug("libssh {}: {}", function ? function : "", text);
    } else {
        logger.trace("libssh {}: {}", function ? function : "", text);
    }
}

} // namespace

void installLibsshLogging()
{
    const auto level = applog::ssh().level();
    const int libsshLevel = level <= spdlog::level::trace ? SSH_LOG_PROTOCOL
        : level <= spdlog::level::debug                   ? SSH_LOG_WARN
                                                          : SSH_LOG_NOLOG;
    ssh_set_log_level(libsshLevel);
    ssh_set_log_userdata(nullptr);
    ssh_set_log_callback(&forward);
}

} // namespace flashdeck::ssh

#pragma once

#include "backend/ssh/sshtypes.h"

namespace flashdeck::cli {

/** Exit codes of every `flashdeck` command: scripts rely on them, never renumber. */
enum ExitCode : int {
    ExitOk = 0,
    ExitCheckFailed = 1,
    ExitUsage = 2,
    ExitHostKeyUnknown = 3, // unknown and not accepted
    ExitHostKeyRefused = 4, // changed, or of another type
    ExitAuthFailed = 5,
    ExitUnreachable = 6, // unreachable or timed out
};

int exitCodeFor(ssh::SshErrorCode code);

} // namespace flashdeck::cli

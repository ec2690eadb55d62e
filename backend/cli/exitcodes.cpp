#include "backend/cli/exitcodes.h"

namespace flashdeck::cli {

int exitCodeFor(ssh::SshErrorCode code)
{
    switch (code) {
    case ssh::SshErrorCode::None:
        return ExitOk;
    case ssh::SshErrorCode::HostKeyUnknown:
        return ExitHostKeyUnknown;
    case ssh::SshErrorCode::HostKeyChanged:
    case ssh::SshErrorCode::HostKeyOther:
    case ssh::SshErrorCode::HostKeyRevoked:
        return ExitHostKeyRefused;
    case ssh::SshErrorCode::AuthNoMethod:
    case ssh::SshErrorCode::AuthDenied:
    case ssh::SshErrorCode::AuthCancelled:
        return ExitAuthFailed;
    case ssh::SshErrorCode::Unreachable:
    case ssh::SshErrorCode::TimedOut:
        return ExitUnreachable;
    case ssh::SshErrorCode::HostKeyError:
    case ssh::SshErrorCode::ConnectionLost:
    case ssh::SshErrorCode::ChannelFailed:
    case ssh::SshErrorCode::Cancelled:
    case ssh::SshErrorCode::CommandTimedOut:
    case ssh::SshErrorCode::Protocol:
        return ExitCheckFailed;
    }
    return ExitCheckFailed;
}

} // namespace flashdeck::cli

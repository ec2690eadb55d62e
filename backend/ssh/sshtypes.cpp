#include "backend/ssh/sshtypes.h"

#include <QCoreApplication>

namespace flashdeck::ssh {

QString errorCodeName(SshErrorCode code)
{
    switch (code) {
    case SshErrorCode::None:
        return QStringLiteral("none");
    case SshErrorCode::Unreachable:
        return QStringLiteral("unreachable");
    case SshErrorCode::TimedOut:
        return QStringLiteral("timed-out");
    case SshErrorCode::HostKeyUnknown:
        return QStringLiteral("host-key-unknown");
    case SshErrorCode::HostKeyChanged:
        return QStringLiteral("host-key-changed");
    case SshErrorCode::HostKeyOther:
        return QStringLiteral("host-key-other-type");
    case SshErrorCode::HostKeyRevoked:
        return QStringLiteral("host-key-revoked");
    case SshErrorCode::HostKeyError:
        return QStringLiteral("host-key-error");
    case SshErrorCode::AuthNoMethod:
        return QStringLiteral("auth-no-method");
    case SshErrorCode::AuthDenied:
        return QStringLiteral("auth-denied");
    case SshErrorCode::AuthCancelled:
        return QStringLiteral("auth-cancelled");
    case SshErrorCode::ConnectionLost:
        return QStringLiteral("connection-lost");
    case SshErrorCode::ChannelFailed:
        return QStringLiteral("channel-failed");
    case SshErrorCode::Cancelled:
        return QStringLiteral("cancelled");
    case SshErrorCode::CommandTimedOut:
        return QStringLiteral("command-timed-out");
    case SshErrorCode::Protocol:
        return QStringLiteral("protocol");
    }
    return QStringLiteral("protocol");
}

QString ConnectionState::describe() const
{
    switch (phase) {
    case ConnectionPhase::Disconnected:
        return QCoreApplication::translate("Ssh", "disconnected");
    case ConnectionPhase::Connecting:
        return QCoreApplication::translate("Ssh", "connecting");
    case ConnectionPhase::Verifying:
        return QCoreApplication::translate("Ssh", "verifying host key");
    case ConnectionPhase::Authenticating:
        return QCoreApplication::translate("Ssh", "authenticating");
    case ConnectionPhase::Ready:
        return authMethod.isEmpty() ? QCoreApplication::translate("Ssh", "connected")
                                    : QCoreApplication::translate("Ssh", "connected (%1)").arg(authMethod);
    case ConnectionPhase::Reconnecting:
        return QCoreApplication::translate("Ssh", "connection lost; reconnecting in %1 s (attempt %2)")
            .arg(QString::number((retryInMs + 999) / 1000), QString::number(attempt));
    case ConnectionPhase::Failed:
        return QCoreApplication::translate("Ssh", "failed: %1").arg(error.message);
    }
    return {};
}

} // namespace flashdeck::ssh

#include "backend/ssh/transport.h"

namespace flashdeck::ssh {

CommandReply *Transport::execute(const QByteArray &commandLine, int timeoutMs, QObject *owner)
{
    RemoteCommand command;
    command.commandLine = commandLine;
    command.timeoutMs = timeoutMs;
    command.capture = true;
    return execute(command, owner);
}

} // namespace flashdeck::ssh

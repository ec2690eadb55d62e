#pragma once

namespace flashdeck {
class HostSession;
namespace ssh {
class HostConnection;
}
} // namespace flashdeck

namespace flashdeck::cli {

struct CliContext;

/**
 * Answers a host session's passphrase, password and keyboard-interactive requests at the terminal
 * (the session's prompts reach the operator: call connectWithOperator to connect).
 */
void answerAuthPromptsAtTerminal(HostSession &session, CliContext &context);
/** The same for a bare connection (`hosts check`, whose subject is the SSH login itself). */
void answerAuthPromptsAtTerminal(ssh::HostConnection &connection, CliContext &context);

} // namespace flashdeck::cli

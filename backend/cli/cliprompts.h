#pragma once

namespace flashdeck {
namespace fleet {
class HostSession;
} // namespace fleet
namespace ssh {
class HostConnection;
} // namespace ssh
} // namespace flashdeck

namespace flashdeck::cli {

struct CliContext;

/**
 * Answers a host session's passphrase, password and keyboard-interactive requests at the terminal
 * (the session's prompts reach the operator: call connectWithOperator to connect).
 */
void answerAuthPromptsAtTerminal(fleet::HostSession &session, CliContext &context);
/** The same for a bare connection (`hosts check`, whose subject is the SSH login itself). */
void answerAuthPromptsAtTerminal(ssh::HostConnection &connection, CliContext &context);

} // namespace flashdeck::cli

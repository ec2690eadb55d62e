#pragma once

namespace flashdeck::ssh {
class HostConnection;
}

namespace flashdeck::cli {

struct CliContext;

/** Answers a connection's passphrase, password and keyboard-interactive requests at the terminal. */
void answerAuthPromptsAtTerminal(ssh::HostConnection &connection, CliContext &context);

} // namespace flashdeck::cli

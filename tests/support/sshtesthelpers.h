#pragma once

#include "backend/ssh/hostconnection.h"

#include <memory>

namespace flashdeck::test {

class SshdFixture;

/**
 * Points HOME at `home` and forgets any ssh-agent, so no real ~/.ssh key, config or agent
 * of the machine running the tests can take part.
 */
void isolateSshEnvironment(const QString &home);

/** A free port on 127.0.0.1 (free when asked; tests bind it at once). */
quint16 freeLocalPort();

/** A target for the fixture: its port, the current user, our own known_hosts, no config. */
ssh::SshTarget targetFor(const SshdFixture &sshd, const QString &knownHostsFile, const QString &identity = {});

/**
 * Connects and waits for Ready or Failed, answering the host-key question with
 * `acceptHostKey` and passphrase / password / keyboard-interactive prompts with `secret`
 * (empty: decline). Returns the final state.
 */
ssh::ConnectionState connectAndWait(ssh::HostConnection &connection, bool acceptHostKey = true,
                                    const QString &secret = {}, int timeoutMs = 30000);

/** Runs a command and waits for its result. */
ssh::CommandResult runAndWait(ssh::HostConnection &connection, const ssh::RemoteCommand &command,
                              int timeoutMs = 60000);
ssh::CommandResult runAndWait(ssh::HostConnection &connection, const QByteArray &commandLine, int timeoutMs = 60000);

/**
 * Waits until the running command `id` prints a line containing `needle` (stdout or stderr);
 * false when it ends or `timeoutMs` passes first. `seen` (optional) gets what it printed. Call it
 * before returning to the event loop after run(): no line is missed.
 */
bool waitForCommandLine(ssh::HostConnection &connection, quint64 id, const QByteArray &needle, int timeoutMs,
                        QByteArray *seen = nullptr);
/** What SGLang (and the simulated server) prints once /health answers 200. */
inline constexpr char kServerReadyLine[] = "The server is fired up and ready to roll!";

} // namespace flashdeck::test

namespace flashdeck::test {
/** With FLASHDECK_LOG set (e.g. ssh=trace), logs to stderr for the rest of the test run. */
void enableTestLogging();
} // namespace flashdeck::test

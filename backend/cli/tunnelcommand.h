#pragma once

#include <QStringList>

namespace flashdeck::cli {

struct CliContext;

/**
 * `flashdeck tunnel HOST [--local-port N] [--port N] [--json]`: the host's deployed SGLang
 * server (or router) on a local 127.0.0.1 port, through the SSH connection, until Ctrl+C or
 * SIGTERM — for the operator's own curl, SDK or browser. Only the operator's user can connect
 * (any other local user's connection is closed unread, see TunnelServer). Prints
 * `Forwarding http://127.0.0.1:PORT → HOST:REMOTE (…)`, or with --json one object
 * {"url", "local_port", "remote_port"}. --local-port binds that port exactly.
 * Exit 0 when stopped; 1 when the tunnel cannot open (the local port is taken, the host refuses
 * to forward) or the connection is lost for good; 2 on usage errors; 3–6 when SSH failed.
 */
int runTunnelCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli

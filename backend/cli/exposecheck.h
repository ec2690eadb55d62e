#pragma once

#include "backend/fleet/hostentry.h"

namespace flashdeck::cli {

struct CliContext;
struct ExposeRequest;

/**
 * `expose HOST --check`: the recorded gateway checked from this machine (expose::GatewayCheck),
 * printed as steps like `deploy`'s. The API key is the deployment's (the keyring, else
 * $SGLANG_API_KEY, else read from its container over SSH: the key only, never a check). Exit 0
 * when every step passed, 1 otherwise.
 */
int runExposeCheck(const ExposeRequest &request, const fleet::HostEntry &host, CliContext &context);

} // namespace flashdeck::cli

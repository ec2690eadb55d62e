#pragma once

#include "backend/deploy/hostlock.h"

namespace flashdeck::cli {

// The host's run lock now lives with the deploy lock it is (backend/deploy/hostlock.h): the
// window's "Open to the team" panel takes the same one.
using flashdeck::deploy::claimHost;

} // namespace flashdeck::cli

// A page that reaches past the host's session to its SSH connection: check-layers.cmake refuses
// it (ui/ sees HostSession and plain types only). Never compiled.
#include "backend/fleet/hostsession.h"
#include "backend/ssh/hostconnection.h"
#include "backend/ssh/sshtypes.h"

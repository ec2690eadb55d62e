#pragma once

#include <QString>

namespace flashdeck::ssh {

/** The version of the libssh we run with (not the one we were built against). */
QString libraryVersion();

} // namespace flashdeck::ssh

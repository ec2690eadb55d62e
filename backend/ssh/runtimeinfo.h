#pragma once

#include <QString>

namespace flashdeck::ssh {

/** What this process runs with: shown by `--version` and on the Settings page. */
struct RuntimeInfo
{
    QString version;
    QString qtVersion;
    QString libsshVersion;
    QString logFile;
    QString logLevels;

    /** Versions filled in; logFile and logLevels left for the caller. */
    static RuntimeInfo current();
    /** The `--version` text: one line per component. */
    QString versionText() const;
};

} // namespace flashdeck::ssh

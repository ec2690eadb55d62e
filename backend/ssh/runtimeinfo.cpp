#include "backend/ssh/runtimeinfo.h"

#include "backend/core/buildinfo.h"
#include "backend/ssh/sshlibrary.h"

#include <QtGlobal>

namespace flashdeck::ssh {

RuntimeInfo RuntimeInfo::current()
{
    RuntimeInfo info;
    info.version = QString::fromUtf8(buildinfo::version);
    info.qtVersion = QString::fromUtf8(qVersion());
    info.libsshVersion = ssh::libraryVersion();
    return info;
}

QString RuntimeInfo::versionText() const
{
    return QStringLiteral("flashdeck %1\nQt %2\nlibssh %3\n").arg(version, qtVersion, libsshVersion);
}

} // namespace flashdeck::ssh

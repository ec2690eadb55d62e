#include "backend/expose/gatewayrecordwatch.h"

#include "backend/expose/gatewayrecord.h"
#include "backend/recipe/deployment.h"

#include <QDir>
#include <QFile>

namespace flashdeck::expose {

namespace {
/** Long enough to take a rename and its lock file as one change, short against two seconds. */
constexpr int kSettleMs = 100;
} // namespace

GatewayRecordWatch::GatewayRecordWatch(const AppPaths &paths, QObject *parent)
    : QObject(parent)
    , m_paths(paths)
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMs);
    connect(&m_settle, &QTimer::timeout, this, &GatewayRecordWatch::settle);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] { m_settle.start(); });
}

void GatewayRecordWatch::setHost(const QString &host)
{
    if (host == m_host) {
        return;
    }
    if (!m_watcher.directories().isEmpty()) {
        m_watcher.removePaths(m_watcher.directories());
    }
    m_settle.stop();
    m_host = host;
    m_seen = recordBytes();
    if (host.isEmpty()) {
        return;
    }
    // The folder is where a terminal's expose will write: it must exist to be watched.
    const QString folder = Deployment::directory(m_paths, host);
    QDir().mkpath(folder);
    m_watcher.addPath(folder);
}

void GatewayRecordWatch::settle()
{
    QByteArray now = recordBytes();
    if (now == m_seen) {
        return;
    }
    m_seen = std::move(now);
    Q_EMIT changed();
}

QByteArray GatewayRecordWatch::recordBytes() const
{
    if (m_host.isEmpty()) {
        return {};
    }
    QFile f(GatewayRecord::file(m_paths, m_host));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace flashdeck::expose

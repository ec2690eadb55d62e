#include "backend/expose/gatewayrecordwatch.h"

#include "backend/core/apppaths.h"
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
    , m_root(paths.dataDir() + QStringLiteral("/deployments"))
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMs);
    connect(&m_settle, &QTimer::timeout, this, &GatewayRecordWatch::settle);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this](const QString &folder) {
        m_changedFolders.insert(folder);
        m_settle.start();
    });
}

void GatewayRecordWatch::setHosts(const QStringList &hosts)
{
    for (auto it = m_seen.begin(); it != m_seen.end();) {
        it = hosts.contains(it.key()) ? std::next(it) : m_seen.erase(it);
    }
    for (const QString &host : hosts) {
        if (!m_seen.contains(host)) {
            m_seen.insert(host, recordBytes(host));
        }
    }
    watchFolders();
}

void GatewayRecordWatch::watchFolders()
{
    // Only folders that exist: the deployments folder says when a host's own appears (a first
    // deploy or expose from a terminal), and the next settle watches it.
    QStringList wanted;
    if (!m_seen.isEmpty() && QDir(m_root).exists()) {
        wanted.append(m_root);
    }
    for (auto it = m_seen.cbegin(); it != m_seen.cend(); ++it) {
        const QString folder = recipe::Deployment::directory(m_paths, it.key());
        if (QDir(folder).exists()) {
            wanted.append(folder);
        }
    }
    const QStringList watched = m_watcher.directories();
    for (const QString &folder : watched) {
        if (!wanted.contains(folder)) {
            m_watcher.removePath(folder);
        }
    }
    for (const QString &folder : std::as_const(wanted)) {
        if (!watched.contains(folder)) {
            m_watcher.addPath(folder);
        }
    }
}

void GatewayRecordWatch::settle()
{
    // A host's folder changed: its record may have. The deployments folder: a host's folder came
    // or went, so every host is read again (once).
    const QSet<QString> folders = std::exchange(m_changedFolders, {});
    const bool all = folders.contains(m_root);
    watchFolders();
    QStringList differ;
    for (auto it = m_seen.begin(); it != m_seen.end(); ++it) {
        if (!all && !folders.contains(recipe::Deployment::directory(m_paths, it.key()))) {
            continue;
        }
        QByteArray now = recordBytes(it.key());
        if (now != it.value()) {
            it.value() = std::move(now);
            differ.append(it.key());
        }
    }
    for (const QString &host : std::as_const(differ)) { // after the loop: a slot may change the hosts
        Q_EMIT changed(host);
    }
}

QByteArray GatewayRecordWatch::recordBytes(const QString &host) const
{
    QFile f(GatewayRecord::file(m_paths, host));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace flashdeck::expose

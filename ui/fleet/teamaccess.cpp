#include "ui/fleet/teamaccess.h"

#include "backend/core/apppaths.h"
#include "backend/recipe/deployment.h"

#include <QDir>
#include <QFile>

namespace flashdeck::ui {

namespace {
/** Long enough to take a rename and its lock file as one change, short against two seconds. */
constexpr int kSettleMs = 100;
} // namespace

TeamAccess::TeamAccess(const AppPaths &paths, QObject *parent)
    : QObject(parent)
    , m_paths(paths)
    , m_root(paths.dataDir() + QStringLiteral("/deployments"))
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMs);
    connect(&m_settle, &QTimer::timeout, this, &TeamAccess::settle);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this](const QString &folder) {
        m_changedFolders.insert(folder);
        m_settle.start();
    });
}

void TeamAccess::setHosts(const QStringList &hosts)
{
    for (auto it = m_hosts.begin(); it != m_hosts.end();) {
        it = hosts.contains(it->first) ? std::next(it) : m_hosts.erase(it);
    }
    for (const QString &host : hosts) {
        if (m_hosts.count(host) == 0) {
            m_hosts.emplace(host, Followed{recordBytes(host), expose::GatewayRecord::read(m_paths, host)});
        }
    }
    watchFolders();
}

void TeamAccess::watchFolders()
{
    // Only folders that exist (nothing is made to be watched); the deployments folder says when
    // a host's own appears, and the next settle watches it.
    QStringList wanted;
    if (QDir(m_root).exists()) {
        wanted.append(m_root);
    }
    for (const auto &[host, followed] : m_hosts) {
        const QString folder = Deployment::directory(m_paths, host);
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

void TeamAccess::settle()
{
    // A host's folder changed: its record may have; the deployments folder: a host's folder came
    // or went, so every host is read again (once).
    const QSet<QString> folders = std::exchange(m_changedFolders, {});
    const bool all = folders.contains(m_root);
    watchFolders();
    for (auto &[host, followed] : m_hosts) {
        if (!all && !folders.contains(Deployment::directory(m_paths, host))) {
            continue;
        }
        QByteArray now = recordBytes(host);
        if (now == followed.bytes) {
            continue;
        }
        followed.bytes = std::move(now);
        followed.state = expose::GatewayRecord::read(m_paths, host);
        Q_EMIT changed(host);
    }
}

const TeamAccess::State &TeamAccess::of(const QString &host) const
{
    const auto it = m_hosts.find(host);
    return it == m_hosts.end() ? m_notFollowed : it->second.state;
}

QByteArray TeamAccess::recordBytes(const QString &host) const
{
    QFile f(expose::GatewayRecord::file(m_paths, host));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace flashdeck::ui

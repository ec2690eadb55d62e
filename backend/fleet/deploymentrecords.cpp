#include "backend/fleet/deploymentrecords.h"

#include "backend/core/apppaths.h"
#include "backend/recipe/deployment.h"

#include <QDir>
#include <QFile>

namespace flashdeck::fleet {

namespace {
/** Long enough to take a rename and its lock file as one change, short against two seconds. */
constexpr int kSettleMs = 100;
} // namespace

DeploymentRecords::DeploymentRecords(const AppPaths &paths, QObject *parent)
    : QObject(parent)
    , m_paths(paths)
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMs);
    connect(&m_settle, &QTimer::timeout, this, &DeploymentRecords::settle);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &DeploymentRecords::onFolder);
}

void DeploymentRecords::setHosts(const QStringList &hosts)
{
    for (auto it = m_hostOfFolder.begin(); it != m_hostOfFolder.end();) {
        if (!hosts.contains(it.value())) {
            m_watcher.removePath(it.key());
            m_seen.remove(it.value());
            m_pending.remove(it.value());
            it = m_hostOfFolder.erase(it);
        } else {
            ++it;
        }
    }
    for (const QString &host : hosts) {
        const QString folder = recipe::Deployment::directory(m_paths, host);
        if (m_hostOfFolder.contains(folder)) {
            continue;
        }
        // The folder is where a first deploy from a terminal will write: it must exist to be watched.
        QDir().mkpath(folder);
        if (m_watcher.addPath(folder)) {
            m_hostOfFolder.insert(folder, host);
            m_seen.insert(host, manifestBytes(host));
        }
    }
}

void DeploymentRecords::onFolder(const QString &folder)
{
    const auto it = m_hostOfFolder.constFind(folder);
    if (it == m_hostOfFolder.cend()) {
        return;
    }
    m_pending.insert(it.value());
    m_settle.start();
}

void DeploymentRecords::settle()
{
    const QSet<QString> hosts = std::exchange(m_pending, {});
    for (const QString &host : hosts) {
        QByteArray now = manifestBytes(host);
        if (now == m_seen.value(host)) {
            continue; // the journal's neighbours changed, not the record
        }
        m_seen.insert(host, std::move(now));
        Q_EMIT changed(host);
    }
}

QByteArray DeploymentRecords::manifestBytes(const QString &host) const
{
    QFile f(recipe::Deployment::manifestFile(m_paths, host));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace flashdeck::fleet

#pragma once

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTimer>

namespace flashdeck {

class AppPaths;

} // namespace flashdeck

namespace flashdeck::fleet {

/**
 * Says when a host's deployment manifest was written by anyone: this window, another one, or a
 * command in a terminal (`deploy`, `upgrade`, `undeploy`), so every page follows within a moment
 * instead of showing what it read at start (issue 42).
 *
 * One watcher for the whole fleet (an inotify instance each would run out at 128 hosts): it
 * watches each host's deployments/<host>/ folder, where a manifest is replaced by a rename
 * (LockedFile), and reports a host only when its manifest's bytes differ from what it last saw,
 * so the journal's appends and the pulled-images record say nothing. Bursts settle for 100 ms.
 */
class DeploymentRecords final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DeploymentRecords)

public:
    explicit DeploymentRecords(const AppPaths &paths, QObject *parent = nullptr);

    /** The hosts to watch (the inventory's); the others are let go. */
    void setHosts(const QStringList &hosts);

Q_SIGNALS:
    /** `host`'s manifest is not what it was: written, replaced or removed. */
    void changed(const QString &host);

private:
    void onFolder(const QString &folder);
    void settle();
    QByteArray manifestBytes(const QString &host) const;

    const AppPaths &m_paths;
    QFileSystemWatcher m_watcher;
    QHash<QString, QString> m_hostOfFolder;
    QHash<QString, QByteArray> m_seen; // host → the manifest's bytes when last looked at
    QSet<QString> m_pending;
    QTimer m_settle;
};

} // namespace flashdeck::fleet

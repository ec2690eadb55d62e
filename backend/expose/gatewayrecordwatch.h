#pragma once

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTimer>

namespace flashdeck {
class AppPaths;
} // namespace flashdeck

namespace flashdeck::expose {

/**
 * Says when a host's gateway record (GatewayRecord::file) was written or removed by anyone: this
 * window, another one, or `flashdeck expose` / `unexpose` in a terminal, so the window's panel
 * and the Fleet row follow within a moment. One file watcher for every host followed (an inotify
 * instance per host would run out on a large fleet): it watches the deployments folder and each
 * host's folder in it, where the record is replaced by a rename, makes no folder to watch it, and
 * reports a host only when its record's bytes differ from what it last saw (the journal's appends
 * say nothing). Bursts settle for 100 ms, as the manifests' do.
 */
class GatewayRecordWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GatewayRecordWatch)

public:
    explicit GatewayRecordWatch(const AppPaths &paths, QObject *parent = nullptr);

    /** The hosts to follow; the others are dropped. Does not emit. */
    void setHosts(const QStringList &hosts);
    /** One host (empty: none), as the panel follows its own. */
    void setHost(const QString &host) { setHosts(host.isEmpty() ? QStringList() : QStringList{host}); }

Q_SIGNALS:
    /** The host's record is not what it was: written, replaced or removed. */
    void changed(const QString &host);

private:
    void watchFolders();
    void settle();
    QByteArray recordBytes(const QString &host) const;

    const AppPaths &m_paths;
    QString m_root; // dataDir()/deployments
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
    QHash<QString, QByteArray> m_seen; // each host's record as last read; empty: none
    QSet<QString> m_changedFolders; // since the last settle
};

} // namespace flashdeck::expose

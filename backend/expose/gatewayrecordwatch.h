#pragma once

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

namespace flashdeck {
class AppPaths;
} // namespace flashdeck

namespace flashdeck::expose {

/**
 * Says when one host's gateway record (GatewayRecord::file) was written or removed by anyone:
 * this window, another one, or `flashdeck expose` / `unexpose` in a terminal, so the window's
 * panel follows within a moment. It watches the host's deployments/<host>/ folder, where the
 * record is replaced by a rename, and reports only when the record's bytes differ from what it
 * last saw (the journal's appends say nothing). Bursts settle for 100 ms, as the manifests' do.
 */
class GatewayRecordWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GatewayRecordWatch)

public:
    explicit GatewayRecordWatch(const AppPaths &paths, QObject *parent = nullptr);

    /** The host to follow (empty: none). Does not emit. */
    void setHost(const QString &host);
    QString host() const { return m_host; }

Q_SIGNALS:
    /** The host's record is not what it was: written, replaced or removed. */
    void changed();

private:
    void settle();
    QByteArray recordBytes() const;

    const AppPaths &m_paths;
    QString m_host;
    QFileSystemWatcher m_watcher;
    QByteArray m_seen;
    QTimer m_settle;
};

} // namespace flashdeck::expose

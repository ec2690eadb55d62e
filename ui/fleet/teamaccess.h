#pragma once

#include "backend/core/result.h"
#include "backend/expose/gatewayrecord.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTimer>

#include <map>
#include <optional>

namespace flashdeck {
class AppPaths;
} // namespace flashdeck

namespace flashdeck::ui {

/**
 * Whether and how each host of the fleet is open to the team: its gateway record, read once and
 * again whenever anyone (this window, another, `flashdeck expose`/`unexpose` in a terminal)
 * replaces or removes it, so the Fleet row follows without reading a file per paint. One file
 * watcher for the whole fleet (an inotify instance per host would run out on a large one): it
 * watches the deployments folder and each host's folder in it, where records are renamed into
 * place; a burst of changes settles for 100 ms.
 */
class TeamAccess final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TeamAccess)

public:
    /** A record; none (not exposed); or why it cannot be read (then whether it is exposed is unknown). */
    using State = Result<std::optional<expose::GatewayRecord>>;

    explicit TeamAccess(const AppPaths &paths, QObject *parent = nullptr);

    /** The hosts to follow; the others are dropped. */
    void setHosts(const QStringList &hosts);
    /** The host's state as last read (not exposed for a host not followed). */
    const State &of(const QString &host) const;

Q_SIGNALS:
    void changed(const QString &host);

private:
    struct Followed
    {
        QByteArray bytes; // the record as last read; empty: none
        State state;
    };

    void watchFolders();
    void settle();
    QByteArray recordBytes(const QString &host) const;

    const AppPaths &m_paths;
    QString m_root; // dataDir()/deployments
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
    QSet<QString> m_changedFolders; // since the last settle
    std::map<QString, Followed> m_hosts;
    const State m_notFollowed{std::optional<expose::GatewayRecord>()};
};

} // namespace flashdeck::ui

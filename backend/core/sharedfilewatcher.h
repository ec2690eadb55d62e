#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

namespace flashdeck {

/**
 * Says when a file that other processes replace (hosts.json, written by `flashdeck hosts add`)
 * may have changed. Watches the file's folder as well as the file: an atomic replace renames a
 * new inode over the old one, and inotify's watch on the old inode ends with it (QFileSystemWatcher
 * then drops the path), so the folder's change is what tells of the new file, whose watch is added
 * again. Bursts (a temporary file created, renamed, the lock file touched) come out as one
 * changed(), a moment later; the reader compares what it reads with what it holds.
 */
class SharedFileWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SharedFileWatcher)

public:
    explicit SharedFileWatcher(QString path, QObject *parent = nullptr);

    const QString &path() const { return m_path; }

Q_SIGNALS:
    void changed();

private:
    void rearm();

    QString m_path;
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
};

} // namespace flashdeck

#include "backend/core/sharedfilewatcher.h"

#include <QDir>
#include <QFileInfo>

namespace flashdeck {

namespace {
/** Long enough to take a burst of events as one, short against the two seconds an operator waits. */
constexpr int kSettleMs = 100;
} // namespace

SharedFileWatcher::SharedFileWatcher(QString path, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMs);
    connect(&m_settle, &QTimer::timeout, this, &SharedFileWatcher::changed);
    const auto onEvent = [this] {
        rearm();
        m_settle.start();
    };
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, onEvent);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, onEvent);
    const QString folder = QFileInfo(m_path).absolutePath();
    QDir().mkpath(folder); // the first `hosts add` may create the file; its folder must be there to watch
    rearm();
}

void SharedFileWatcher::rearm()
{
    const QString folder = QFileInfo(m_path).absolutePath();
    if (!m_watcher.directories().contains(folder) && QFileInfo(folder).isDir()) {
        m_watcher.addPath(folder);
    }
    if (!m_watcher.files().contains(m_path) && QFileInfo::exists(m_path)) {
        m_watcher.addPath(m_path);
    }
}

} // namespace flashdeck

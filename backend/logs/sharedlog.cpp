#include "backend/logs/sharedlog.h"

#include <QTimer>

namespace flashdeck::logs {

SharedLog::SharedLog(ssh::Transport &connection, const LogRules &rules, QString hostName, qsizetype keep,
                     QObject *parent)
    : QObject(parent)
    , m_conn(connection)
    , m_rules(rules)
    , m_hostName(std::move(hostName))
    , m_keep(keep)
{ }

SharedLog::~SharedLog()
{
    for (auto it = m_readers.cbegin(); it != m_readers.cend(); ++it) {
        disconnect(it.key(), nullptr, this, nullptr);
    }
}

void SharedLog::subscribe(QObject *reader, qsizetype history, Deliver deliver)
{
    unsubscribe(reader);
    m_readers.insert(reader, deliver);
    connect(reader, &QObject::destroyed, this, [this, reader] { unsubscribe(reader); });
    if (!m_follower) {
        LogFollower::Options options;
        options.hostName = m_hostName;
        options.tail = m_keep;
        m_follower = std::make_unique<LogFollower>(m_conn, m_rules, options);
        connect(m_follower.get(), &LogFollower::recordsArrived, this, &SharedLog::onRecords);
        connect(m_follower.get(), &LogFollower::stateChanged, this, &SharedLog::stateChanged);
        connect(m_follower.get(), &LogFollower::containerReplaced, this, [this](const QString &name) {
            m_kept.clear();
            Q_EMIT restarted(name);
        });
        m_follower->start();
        Q_EMIT stateChanged();
        return;
    }
    const qsizetype n = std::min<qsizetype>(history, qsizetype(m_kept.size()));
    if (n <= 0) {
        return;
    }
    QList<LogRecord> past(m_kept.end() - n, m_kept.end());
    // Queued, as live batches arrive: the reader finishes setting up first.
    QTimer::singleShot(0, reader, [this, reader, past] {
        if (const auto it = m_readers.constFind(reader); it != m_readers.cend()) {
            (*it)(past);
        }
    });
}

void SharedLog::unsubscribe(QObject *reader)
{
    if (m_readers.remove(reader) == 0) {
        return;
    }
    disconnect(reader, &QObject::destroyed, this, nullptr);
    if (m_readers.isEmpty()) {
        m_follower.reset(); // nobody reads: no tunnel, no stream
        m_kept.clear();
        Q_EMIT stateChanged();
    }
}

QString SharedLog::stateText() const
{
    return m_follower ? m_follower->stateText() : QString();
}

int SharedLog::reconnects() const
{
    return m_follower ? m_follower->reconnects() : 0;
}

void SharedLog::onRecords(const QList<LogRecord> &records)
{
    for (const LogRecord &r : records) {
        m_kept.push_back(r);
    }
    while (qsizetype(m_kept.size()) > m_keep) {
        m_kept.pop_front();
    }
    // A reader may unsubscribe (or another subscribe) while it is handed the batch.
    const QHash<QObject *, Deliver> readers = m_readers;
    for (auto it = readers.cbegin(); it != readers.cend(); ++it) {
        if (m_readers.contains(it.key())) {
            it.value()(records);
        }
    }
}

} // namespace flashdeck::logs

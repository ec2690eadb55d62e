#pragma once

#include "backend/logs/logfollower.h"
#include "backend/logs/logrecord.h"

#include <QHash>
#include <QObject>

#include <deque>
#include <functional>
#include <memory>

namespace flashdeck::logs {

/**
 * The log of a host's deployment, followed once however many pages read it: one tunnel, one
 * stream, one reconnect (what the Deploy page and the Logs page each used to open). A reader
 * subscribes with how much history it wants, gets that from what was kept, then every new batch,
 * until it goes or unsubscribes. The stream starts with the first reader and stops after the last.
 */
class SharedLog final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SharedLog)

public:
    using Deliver = std::function<void(const QList<LogRecord> &records)>;

    /** `keep`: lines of history held for late readers (and asked of Docker at the first connection). */
    SharedLog(ssh::Transport &connection, const LogRules &rules, QString hostName, qsizetype keep = 5000,
              QObject *parent = nullptr);
    ~SharedLog() override;

    /** `reader` gets up to `history` kept lines now (queued), then each new batch; ends with it. */
    void subscribe(QObject *reader, qsizetype history, Deliver deliver);
    void unsubscribe(QObject *reader);
    int readers() const { return int(m_readers.size()); }
    /** The rules its records were classified with (a record's `rule` indexes them). */
    const LogRules &rules() const { return m_rules; }

    /** The stream's state, for a status line; empty while nobody reads. */
    QString stateText() const;
    int reconnects() const;
    const LogFollower *follower() const { return m_follower.get(); }

Q_SIGNALS:
    void stateChanged();
    /** Another container replaced the followed one: the kept lines are gone, readers start over. */
    void restarted(const QString &container);

private:
    void onRecords(const QList<LogRecord> &records);

    ssh::Transport &m_conn;
    const LogRules &m_rules;
    QString m_hostName;
    qsizetype m_keep;
    std::unique_ptr<LogFollower> m_follower;
    std::deque<LogRecord> m_kept;
    QHash<QObject *, Deliver> m_readers;
};

} // namespace flashdeck::logs

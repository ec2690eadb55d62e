#pragma once

#include "backend/logs/logrecord.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>

class QNetworkReply;
class QTimer;

namespace flashdeck {
namespace ssh {
class Transport;
class TunnelReply;
struct ConnectionState;
} // namespace ssh
namespace docker {
class DockerClient;
class LogFrameDecoder;
} // namespace docker
} // namespace flashdeck

namespace flashdeck::logs {

class LogRules;

/**
 * Follows one container's log over the host's SSH connection: Docker's
 * `GET /containers/{id}/logs?follow=1&timestamps=1` through a dial-stdio tunnel, decoded,
 * split, classified, and handed out in batches. It finds the host's Flashdeck deployment by
 * its label (or follows the container it is given). When the connection drops, or the
 * container stops and comes back, it continues from the last timestamp it delivered: no line
 * is lost and none is delivered twice (lines of the same nanosecond are counted).
 */
class LogFollower final : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        QString hostName; // the inventory name: deployments are labelled "<host>-<profile>"
        QString container; // a name or id to follow; empty: the host's Flashdeck deployment
        qint64 tail = 1000; // lines of history at the first connection; -1: all
        bool follow = true; // false: print what is there and finish
        int batchMs = 50; // how long lines gather before a batch is handed out
    };
    enum class State { Idle, Connecting, Following, Waiting, Finished, Failed };

    LogFollower(ssh::Transport &connection, const LogRules &rules, Options options, QObject *parent = nullptr);
    ~LogFollower() override;

    void start();
    void stop();

    State state() const { return m_state; }
    /** What is happening, for a status line: "Following flashdeck-b300-balanced-0", … */
    QString stateText() const { return m_stateText; }
    QString containerName() const { return m_containerName; }
    /** How many times the stream was opened again after the first. */
    int reconnects() const { return m_reconnects; }
    qint64 delivered() const { return m_seq; }
    /** Lines that came again after a reconnect and were dropped as already delivered. */
    qint64 duplicatesSkipped() const { return m_duplicates; }

Q_SIGNALS:
    void recordsArrived(const QList<flashdeck::logs::LogRecord> &records);
    void stateChanged();
    /** Not following: the whole log was delivered (or it failed: see stateText()). */
    void finished();
    /**
     * Another container took the followed one's place (a redeploy, an upgrade, an undeploy then a
     * deploy): its log starts over from its own first line, and what came before was another
     * server's. Emitted before the new container's first line. `name` is empty when the followed
     * deployment's container is gone and none has taken its place (an undeploy).
     */
    void containerReplaced(const QString &name);

private:
    void onConnection(const ssh::ConnectionState &state);
    void openTunnel();
    void dropTunnel();
    void findContainer();
    void openStream();
    /** The followed container was replaced (`name`) or is gone (empty): the next log starts over. */
    void startOver(const QString &name);
    /** Opens the stream, unless a follow already showed this container's log and it is stopped. */
    void openStreamIfRunning(bool running);
    /** Not following: say why and finish. Following: say why and try again in `retryMs`. */
    void failOrRetry(const QString &message, int retryMs);
    void onReadyRead();
    void onStreamFinished();
    void accept(int stream, QByteArray line, bool cut);
    void flush();
    void setState(State state, const QString &text);
    void retryLater(int ms);

    // Guarded: a follower may be the connection's child, deleted after the connection's own
    // destructor ran (QPointer is cleared before children are deleted).
    bool connectionReady() const;

    QPointer<ssh::Transport> m_conn;
    const LogRules &m_rules;
    Options m_options;
    State m_state = State::Idle;
    QString m_stateText;
    bool m_running = false;

    // The host's one Docker endpoint is asked to open (or is open) for this follower; an
    // attempt's answer is heard only while it is the latest.
    bool m_linkAsked = false;
    quint64 m_attempt = 0;
    std::unique_ptr<docker::DockerClient> m_docker;
    std::unique_ptr<docker::LogFrameDecoder> m_decoder;
    QNetworkReply *m_reply = nullptr;
    QString m_containerId;
    QString m_containerName;
    bool m_opened = false; // a stream was opened once: later ones continue with since=
    QString m_openedId; // the container whose stream was opened: another id starts over
    bool m_announceNext = false; // the followed one went away: the next one to open is named

    qint64 m_seq = 0;
    qint64 m_lastTimeNs = 0; // the newest timestamp delivered…
    qint64 m_countAtLast = 0; // …and how many lines carried it
    bool m_catchingUp = false; // after a reconnect, until the first line past the resume point
    qint64 m_resumeFromNs = 0;
    qint64 m_skipAtLast = 0; // lines of m_resumeFromNs still to skip
    qint64 m_duplicates = 0;
    int m_reconnects = 0;
    QList<LogRecord> m_pending;
    QTimer *m_batch;
    QTimer *m_retry;
};

} // namespace flashdeck::logs

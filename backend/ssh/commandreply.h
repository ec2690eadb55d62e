#pragma once

#include "backend/ssh/sshtypes.h"

#include <QObject>

#include <functional>

namespace flashdeck::ssh {

/**
 * One command started on a host: reports its own output and end, and nobody else's (as a
 * QNetworkReply does for one request). Made by a Transport, parented to the caller's object:
 * destroying a reply that has not finished cancels its command, so a caller that goes away
 * leaves nothing running on the host.
 */
class CommandReply final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommandReply)

public:
    /** `cancel` asks the transport to stop the command; it then reports finished (Cancelled). */
    CommandReply(std::function<void()> cancel, QObject *parent);
    ~CommandReply() override;

    bool isFinished() const { return m_finished; }
    /** Valid once finished. */
    const CommandResult &result() const { return m_result; }
    void cancel();
    /**
     * The caller is done with it: no more signals to anyone, the command cancelled if it still
     * runs, the reply deleted later. Safe inside one of its own signals.
     */
    void abandon();

    /** For transports: a batch of streamed lines (RemoteCommand::capture off), then the end. */
    void deliverOutput(const QList<QByteArray> &stdoutLines, const QList<QByteArray> &stderrLines);
    void deliverFinished(const CommandResult &result);

Q_SIGNALS:
    void output(const QList<QByteArray> &stdoutLines, const QList<QByteArray> &stderrLines);
    void finished(const flashdeck::ssh::CommandResult &result);

private:
    std::function<void()> m_cancel;
    CommandResult m_result;
    bool m_finished = false;
    bool m_cancelAsked = false;
};

} // namespace flashdeck::ssh

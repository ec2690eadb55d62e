#include "backend/ssh/commandreply.h"

namespace flashdeck::ssh {

CommandReply::CommandReply(std::function<void()> cancel, QObject *parent)
    : QObject(parent)
    , m_cancel(std::move(cancel))
{ }

CommandReply::~CommandReply()
{
    cancel();
}

void CommandReply::cancel()
{
    if (m_finished || m_cancelAsked || !m_cancel) {
        return;
    }
    m_cancelAsked = true;
    m_cancel();
}

void CommandReply::abandon()
{
    disconnect();
    cancel();
    deleteLater();
}

void CommandReply::deliverOutput(const QList<QByteArray> &stdoutLines, const QList<QByteArray> &stderrLines)
{
    if (!m_finished) {
        Q_EMIT output(stdoutLines, stderrLines);
    }
}

void CommandReply::deliverFinished(const CommandResult &result)
{
    if (m_finished) {
        return;
    }
    m_finished = true;
    m_result = result;
    Q_EMIT finished(m_result);
}

} // namespace flashdeck::ssh

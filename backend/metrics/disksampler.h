#pragma once

#include <QObject>
#include <QString>

class QTimer;

namespace flashdeck::ssh {
class Transport;
struct CommandResult;
} // namespace flashdeck::ssh

namespace flashdeck::metrics {

/** Free disk where the weights go (~/.cache/huggingface, else home) on one host, every `periodMs`. */
class DiskSampler final : public QObject
{
    Q_OBJECT

public:
    DiskSampler(ssh::Transport &connection, int periodMs, QObject *parent = nullptr);

    void start();
    void stop();

Q_SIGNALS:
    void measured(qint64 freeBytes);
    /** df did not answer in a form we read; the message quotes what it printed. */
    void failed(const QString &message);

private:
    void poll();

    ssh::Transport &m_conn;
    QTimer *m_timer;
};

} // namespace flashdeck::metrics

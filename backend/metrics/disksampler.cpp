#include "backend/metrics/disksampler.h"

#include "backend/core/hosttext.h"
#include "backend/probe/hostfacts.h"
#include "backend/ssh/commandreply.h"
#include "backend/ssh/transport.h"

#include <QTimer>

namespace flashdeck::metrics {

DiskSampler::DiskSampler(ssh::Transport &connection, int periodMs, QObject *parent)
    : QObject(parent)
    , m_conn(connection)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(periodMs);
    connect(m_timer, &QTimer::timeout, this, &DiskSampler::poll);
}

void DiskSampler::start()
{
    poll();
    m_timer->start();
}

void DiskSampler::stop()
{
    m_timer->stop();
}

void DiskSampler::poll()
{
    ssh::CommandReply *df = m_conn.execute("df -B1 --output=avail,target ~/.cache/huggingface 2>/dev/null || df -B1 "
                                           "--output=avail,target ~",
                                           30000, this);
    connect(df, &ssh::CommandReply::finished, this, [this, df](const ssh::CommandResult &r) {
        df->deleteLater();
        if (const auto free = probe::parseDf(r.stdoutData)) {
            Q_EMIT measured(free.value().availBytes);
        } else {
            Q_EMIT failed(r.error.isError() ? r.error.message : free.message());
        }
    });
}

} // namespace flashdeck::metrics

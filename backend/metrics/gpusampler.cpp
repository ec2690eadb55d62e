#include "backend/metrics/gpusampler.h"

#include "backend/core/hosttext.h"
#include "backend/probe/amdsmi.h"
#include "backend/ssh/commandreply.h"
#include "backend/ssh/transport.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTimer>

#include <utility>

namespace flashdeck::metrics {

namespace {

QByteArray nvidiaCommand(int periodMs)
{
    // TZ=UTC: nvidia-smi prints its timestamp in the host's zone, without naming it.
    return QByteArray("env TZ=UTC nvidia-smi --query-gpu=") + probe::kGpuStreamFields +
        " --format=csv,noheader,nounits -lms " + QByteArray::number(periodMs);
}

const QByteArray kAmdSmi = "amd-smi metric --json";
const QByteArray kRocmSmi = "rocm-smi --showuse --showmeminfo vram --showtemp --showpower --showproductname --json";
// Where the names are (asic.market_name): metric and rocm-smi's readings have none.
const QByteArray kAmdSmiNames = "amd-smi static --asic --json";

} // namespace

GpuSampler::GpuSampler(ssh::Transport &connection, Vendor vendor, int periodMs, QObject *parent)
    : QObject(parent)
    , m_conn(connection)
    , m_vendor(vendor)
    , m_periodMs(periodMs)
    , m_sweepTimer(new QTimer(this))
    , m_retryTimer(new QTimer(this))
    , m_pollTimer(new QTimer(this))
{
    // nvidia-smi writes a sweep's lines together; a quarter period of silence ends it.
    m_sweepTimer->setSingleShot(true);
    m_sweepTimer->setInterval(std::max(50, periodMs / 4));
    connect(m_sweepTimer, &QTimer::timeout, this, &GpuSampler::flushSweep);
    m_retryTimer->setSingleShot(true);
    connect(m_retryTimer, &QTimer::timeout, this, &GpuSampler::startStream);
    m_pollTimer->setInterval(periodMs);
    connect(m_pollTimer, &QTimer::timeout, this, &GpuSampler::pollAmd);
}

QString GpuSampler::tool() const
{
    // Not the command's first word: the stream runs under `env TZ=UTC`.
    return m_vendor == Vendor::Nvidia ? QStringLiteral("nvidia-smi")
        : m_rocmFallback              ? QStringLiteral("rocm-smi")
                                      : QStringLiteral("amd-smi");
}

GpuSampler::~GpuSampler()
{
    stop();
}

QString GpuSampler::command() const
{
    return QString::fromUtf8(m_vendor == Vendor::Nvidia ? nvidiaCommand(m_periodMs)
                                                        : (m_rocmFallback ? kRocmSmi : kAmdSmi));
}

void GpuSampler::start()
{
    if (m_running) {
        return;
    }
    m_running = true;
    if (m_vendor == Vendor::Nvidia) {
        startStream();
    } else {
        pollAmd();
        m_pollTimer->start();
    }
}

void GpuSampler::stop()
{
    m_running = false;
    m_pollTimer->stop();
    m_retryTimer->stop();
    m_sweepTimer->stop();
    // Closes the channel: nvidia-smi gets SIGPIPE on its next line.
    for (QPointer<ssh::CommandReply> *reply : {&m_stream, &m_poll}) {
        if (*reply) {
            (*reply)->abandon();
            *reply = nullptr;
        }
    }
}

void GpuSampler::startStream()
{
    if (!m_running) {
        return;
    }
    ssh::RemoteCommand cmd;
    cmd.commandLine = nvidiaCommand(m_periodMs);
    cmd.streamLines = true;
    cmd.capture = true; // a failing start explains itself on stderr
    cmd.captureLimit = 64 * 1024;
    m_sweep.clear();
    m_badLines = 0;
    m_stream = m_conn.execute(cmd, this);
    connect(m_stream, &ssh::CommandReply::output, this,
            [this](const QList<QByteArray> &out, const QList<QByteArray> &) { onLines(out); });
    connect(m_stream, &ssh::CommandReply::finished, this, &GpuSampler::onStreamEnd);
}

void GpuSampler::onLines(const QList<QByteArray> &lines)
{
    for (const QByteArray &line : lines) {
        if (line.trimmed().isEmpty()) {
            continue;
        }
        const Result<probe::GpuSample> s = probe::parseGpuSample(line);
        if (!s) {
            // One bad line loses that GPU's reading, not the sweep, and is said once; a run of
            // them is not nvidia-smi's CSV at all (a hostile or broken tool printing without
            // end): stop it and retry with backoff rather than parse garbage forever (issue 9).
            if (++m_badLines == 1) {
                Q_EMIT failed(s.message());
            } else if (m_badLines >= kMaxBadLines) {
                m_gaveUp = QStringLiteral("nvidia-smi printed %1 lines in a row that are not GPU readings (%2); it "
                                          "was stopped and will be retried")
                               .arg(m_badLines)
                               .arg(s.message());
                m_stream->cancel();
                return;
            }
            continue;
        }
        m_badLines = 0;
        if (!m_sweep.isEmpty() && s.value().index <= m_sweep.last().index) {
            flushSweep(); // the indexes started again: a new sweep
        }
        if (m_sweep.isEmpty()) {
            m_sweepArrivedMs = QDateTime::currentMSecsSinceEpoch();
        }
        m_sweep.append(s.value());
        m_restarts = 0; // it works: the next failure starts the backoff afresh
    }
    m_sweepTimer->start();
}

void GpuSampler::flushSweep()
{
    m_sweepTimer->stop();
    if (m_sweep.isEmpty()) {
        return;
    }
    const QList<probe::GpuSample> sweep = std::exchange(m_sweep, {});
    const std::optional<qint64> read = sweep.first().hostTimeMs;
    Q_EMIT sampled(sweep, read ? m_clock.toLocal(*read, m_sweepArrivedMs) : m_sweepArrivedMs);
}

void GpuSampler::onPolled(const ssh::CommandResult &result)
{
    m_poll->abandon();
    m_poll = nullptr;
    {
        const bool missing = result.exitCode == 127 || result.stderrData.contains("not found");
        if (!m_rocmFallback && missing) {
            m_rocmFallback = true; // no amd-smi on this host: rocm-smi (deprecated, still common)
            pollAmd();
            return;
        }
        const Result<QList<probe::GpuSample>> gpus =
            m_rocmFallback ? probe::parseRocmSmi(result.stdoutData) : probe::parseAmdSmiMetric(result.stdoutData);
        if (gpus && result.succeeded() && !gpus.value().isEmpty()) {
            QList<probe::GpuSample> named = gpus.value();
            for (probe::GpuSample &g : named) {
                if (g.name.isEmpty()) { // rocm-smi names its cards itself ("Card Series")
                    g.name = m_names.value(g.index);
                }
            }
            Q_EMIT sampled(named, QDateTime::currentMSecsSinceEpoch());
        } else if (gpus && result.succeeded()) {
            // Not "no GPUs, all fine": a host whose tool lists none has nothing we can show.
            Q_EMIT failed(QCoreApplication::translate("Metrics", "%1 listed no GPU")
                              .arg(m_rocmFallback ? QStringLiteral("rocm-smi") : QStringLiteral("amd-smi")));
        } else {
            Q_EMIT failed(gpus ? (result.error.isError() ? result.error.message
                                      : !hostText(result.stderrData).isEmpty()
                                      ? hostText(result.stderrData)
                                      : QStringLiteral("amd-smi exited with %1").arg(result.exitCode.value_or(-1)))
                               : gpus.message());
        }
    }
}

void GpuSampler::onStreamEnd(const ssh::CommandResult &result)
{
    flushSweep();
    m_stream->abandon();
    m_stream = nullptr;
    if (!m_running) {
        return;
    }
    const QString err = hostText(result.stderrData, 300);
    const QString why = !m_gaveUp.isEmpty() ? std::exchange(m_gaveUp, {})
        : !result.error.message.isEmpty()   ? result.error.message
        : err.isEmpty()
        ? QStringLiteral("nvidia-smi stopped (exit %1) and printed no reading").arg(result.exitCode.value_or(-1))
        : QStringLiteral("nvidia-smi stopped (exit %1): %2").arg(result.exitCode.value_or(-1)).arg(err);
    Q_EMIT failed(why);
    // 1, 2, 4 … 30 s: a host that lost its driver is not hammered, a blip recovers fast.
    const int delay = std::min(30000, 1000 << std::min(m_restarts, 5));
    ++m_restarts;
    m_retryTimer->start(delay);
}

void GpuSampler::onNames(const ssh::CommandResult &result)
{
    m_poll->abandon();
    m_poll = nullptr;
    // Without names (an amd-smi too old for static, or none at all) the readings still count.
    const Result<QHash<int, QString>> names = probe::parseAmdSmiStatic(result.stdoutData);
    if (result.succeeded() && names) {
        m_names = names.value();
    }
    pollAmd();
}

void GpuSampler::pollAmd()
{
    if (!m_running || m_poll) {
        return; // the previous poll has not answered: do not pile them up
    }
    if (!m_namesAsked) {
        m_namesAsked = true;
        ssh::RemoteCommand names;
        names.commandLine = kAmdSmiNames;
        names.streamLines = false;
        names.capture = true;
        names.timeoutMs = 10000;
        m_poll = m_conn.execute(names, this);
        connect(m_poll, &ssh::CommandReply::finished, this, &GpuSampler::onNames);
        return;
    }
    ssh::RemoteCommand cmd;
    cmd.commandLine = m_rocmFallback ? kRocmSmi : kAmdSmi;
    cmd.streamLines = false;
    cmd.capture = true;
    cmd.timeoutMs = 10000;
    m_poll = m_conn.execute(cmd, this);
    connect(m_poll, &ssh::CommandReply::finished, this, &GpuSampler::onPolled);
}

} // namespace flashdeck::metrics

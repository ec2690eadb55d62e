#pragma once

#include "backend/metrics/hostclock.h"
#include "backend/probe/gpuvendor.h"
#include "backend/probe/nvidiasmi.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

class QTimer;

namespace flashdeck::ssh {
class CommandReply;
class Transport;
struct CommandResult;
} // namespace flashdeck::ssh

namespace flashdeck::metrics {

/**
 * The GPUs of one host, once a second, over its SSH connection (issue 7). NVIDIA: one
 * long-lived `nvidia-smi --query-gpu=… --format=csv,noheader,nounits -lms 1000` whose lines
 * are grouped into sweeps, restarted with backoff when it ends; a sweep is stamped with the time
 * nvidia-smi read its first GPU, placed on this machine's clock (HostClock). AMD: `amd-smi metric --json`
 * each second, falling back to `rocm-smi … --json` where amd-smi is missing; neither names the
 * GPUs, so `amd-smi static --asic --json` is read once, first, for their names.
 */
class GpuSampler final : public QObject
{
    Q_OBJECT

public:
    using Vendor = probe::GpuVendor;
    GpuSampler(ssh::Transport &connection, Vendor vendor, int periodMs = 1000, QObject *parent = nullptr);
    ~GpuSampler() override;

    void start();
    void stop();
    /** The command being used (for the status and logs). */
    QString command() const;
    /** The tool it reads, as the operator knows it: "nvidia-smi", "amd-smi" or "rocm-smi". */
    QString tool() const;

Q_SIGNALS:
    /**
     * One reading of every GPU the host reported, at `atMs` (ms since the epoch, this machine's
     * clock): when the host read them where the tool says (nvidia-smi), else when they arrived.
     */
    void sampled(const QList<flashdeck::probe::GpuSample> &gpus, qint64 atMs);
    /** The sampler cannot read the GPUs now (the message says why); it keeps trying. */
    void failed(const QString &message);

private:
    void startStream();
    void onLines(const QList<QByteArray> &lines);
    void onStreamEnd(const ssh::CommandResult &result);
    void onPolled(const ssh::CommandResult &result);
    void flushSweep();
    void pollAmd();
    void onNames(const ssh::CommandResult &result);

    ssh::Transport &m_conn;
    Vendor m_vendor;
    int m_periodMs;
    bool m_running = false;
    bool m_rocmFallback = false;
    bool m_namesAsked = false; // amd-smi static: once per sampler, i.e. per connection
    QHash<int, QString> m_names; // AMD GPU index → "AMD Instinct MI355X"
    QPointer<ssh::CommandReply> m_stream;
    QPointer<ssh::CommandReply> m_poll;
    int m_restarts = 0;
    int m_badLines = 0; // in a row
    QString m_gaveUp; // why the stream was stopped, for its end
    static constexpr int kMaxBadLines = 64;
    QList<probe::GpuSample> m_sweep;
    qint64 m_sweepArrivedMs = 0; // when its first line came
    HostClock m_clock;
    QTimer *m_sweepTimer = nullptr; // the end of a sweep: no line for a moment
    QTimer *m_retryTimer = nullptr;
    QTimer *m_pollTimer = nullptr;
};

} // namespace flashdeck::metrics

#include "backend/deploy/readyprogress.h"

#include "backend/core/format.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace flashdeck::deploy {

namespace { } // namespace

ReadyProgress::ReadyProgress(qint64 totalBytes, qint64 nowMs)
    : m_total(totalBytes)
    , m_startMs(nowMs)
    , m_lastProgressMs(nowMs)
{ }

QString ReadyProgress::duration(qint64 ms)
{
    const qint64 s = std::max<qint64>(0, ms / 1000);
    if (s < 90) {
        return QStringLiteral("%1 s").arg(s);
    }
    if (s < 90 * 60) {
        return QStringLiteral("%1 min").arg((s + 30) / 60);
    }
    return QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
}

bool ReadyProgress::sample(qint64 weightsBytes, qint64 kernelCacheBytes, qint64 nowMs)
{
    const bool weightsGrew = m_weights >= 0 && weightsBytes > m_weights;
    const bool kernelsGrew = m_kernels >= 0 && kernelCacheBytes > m_kernels;
    if (m_weights < 0 || (weightsGrew && m_firstWeights < 0)) {
        // The base of the rate: the first measurement (bytes already there do not count).
        m_firstWeights = m_weights < 0 ? weightsBytes : m_weights;
        m_firstWeightsMs = m_weights < 0 ? nowMs : m_lastWeightsMs;
    }
    if (weightsGrew) {
        m_lastWeightsMs = nowMs;
        if (m_phase == Phase::Starting) {
            m_phase = Phase::Downloading;
        }
    } else if (m_weights < 0) {
        m_lastWeightsMs = nowMs;
    }
    m_weights = std::max(m_weights, weightsBytes);
    m_kernels = std::max(m_kernels, kernelCacheBytes);
    if (m_total > 0 && m_weights >= m_total && m_downloadedMs < 0 && weightsGrew) {
        m_downloadedMs = nowMs;
    }
    if (weightsGrew || kernelsGrew) {
        m_lastProgressMs = nowMs;
    }
    return weightsGrew || kernelsGrew;
}

bool ReadyProgress::logLine(const QString &line, qint64 nowMs)
{
    m_lastProgressMs = nowMs;
    const Phase before = m_phase;
    const int percentBefore = m_loadPercent;
    const QString listeningBefore = m_listening;
    // tqdm's bar for the checkpoint's shards (sglang-facts §3).
    static const QRegularExpression loading(QStringLiteral(R"(Loading safetensors checkpoint shards:\s+(\d+)%)"));
    static const QRegularExpression uvicorn(QStringLiteral(R"(Uvicorn running on (\S+))"));
    if (const auto m = loading.match(line); m.hasMatch() && m_phase < Phase::WarmingUp) {
        m_phase = Phase::Loading;
        m_loadPercent = m.captured(1).toInt();
    } else if (line.contains(QLatin1String("Fetching ")) && line.contains(QLatin1String(" files")) &&
               m_phase < Phase::Downloading) {
        m_phase = Phase::Downloading;
    } else if (const auto u = uvicorn.match(line); u.hasMatch()) {
        // The HTTP server is up and warming up: /health answers 503 until it is ready.
        m_listening = u.captured(1);
        m_httpUpMs = m_httpUpMs < 0 ? nowMs : m_httpUpMs;
        m_phase = std::max(m_phase, Phase::WarmingUp);
    } else if (line.contains(QLatin1String("Application startup complete."))) {
        m_httpUpMs = m_httpUpMs < 0 ? nowMs : m_httpUpMs;
        m_phase = std::max(m_phase, Phase::WarmingUp);
    } else if (line.contains(QLatin1String("The server is fired up and ready to roll!"))) {
        m_readyMs = nowMs;
        m_phase = Phase::Ready;
    }
    return m_phase != before || m_loadPercent != percentBefore || m_listening != listeningBefore;
}

double ReadyProgress::rate() const
{
    const qint64 ms = m_lastWeightsMs - m_firstWeightsMs;
    return ms > 0 && m_weights > m_firstWeights ? double(m_weights - m_firstWeights) * 1000.0 / double(ms) : 0;
}

QString ReadyProgress::text(qint64 nowMs) const
{
    switch (m_phase) {
    case Phase::Starting:
        return m_total > 0 && m_weights > 0
            ? QCoreApplication::translate("Deploy", "Starting the server; the weights cache holds %1 of %2 GB")
                  .arg(fmt::gbNumber(m_weights), fmt::gbNumber(m_total))
            : QCoreApplication::translate("Deploy", "Starting the server (%1 so far)").arg(duration(nowMs - m_startMs));
    case Phase::Downloading: {
        if (m_total <= 0 || m_weights < 0) {
            return QCoreApplication::translate("Deploy", "Downloading the weights (%1 so far)")
                .arg(duration(nowMs - m_startMs));
        }
        if (m_weights >= m_total) {
            return QCoreApplication::translate("Deploy", "Weights in the cache (%1 GB); compiling kernels and loading")
                .arg(fmt::gbNumber(m_weights));
        }
        QString t = QCoreApplication::translate("Deploy", "Downloading the weights: %1 of %2 GB")
                        .arg(fmt::gbNumber(m_weights), fmt::gbNumber(m_total));
        if (const double r = rate(); r > 0) {
            t += QCoreApplication::translate("Deploy", " · %1 MB/s · about %2 left")
                     .arg(QString::number(r / 1e6, 'f', r < 1e7 ? 1 : 0),
                          duration(qint64(double(m_total - m_weights) / r * 1000.0)));
        }
        return t;
    }
    case Phase::Loading:
        return QCoreApplication::translate("Deploy", "Loading the weights into the GPUs: %1 %").arg(m_loadPercent);
    case Phase::WarmingUp:
        return m_listening.isEmpty()
            ? QCoreApplication::translate("Deploy", "HTTP server up; warming up (/health answers 503 until ready)")
            : QCoreApplication::translate("Deploy",
                                          "HTTP server up on %1; warming up (/health answers 503 until ready)")
                  .arg(m_listening);
    case Phase::Ready:
        return QCoreApplication::translate("Deploy", "Ready");
    }
    return {};
}

QString ReadyProgress::summary(qint64 nowMs) const
{
    QStringList parts;
    if (m_firstWeights >= 0 && m_weights > m_firstWeights) {
        parts << QCoreApplication::translate("Deploy", "%1 GB of weights downloaded in %2")
                     .arg(fmt::gbNumber(m_weights - m_firstWeights),
                          duration((m_downloadedMs >= 0 ? m_downloadedMs : m_lastWeightsMs) - m_firstWeightsMs));
    }
    if (m_httpUpMs >= 0) {
        parts << QCoreApplication::translate("Deploy", "HTTP server up after %1").arg(duration(m_httpUpMs - m_startMs));
    }
    parts << QCoreApplication::translate("Deploy", "ready after %1")
                 .arg(duration((m_readyMs >= 0 ? m_readyMs : nowMs) - m_startMs));
    return parts.join(QStringLiteral("; "));
}

QString ReadyProgress::lastSeen(qint64 nowMs) const
{
    QString s = text(nowMs);
    if (m_total > 0 && m_weights >= 0 && m_phase != Phase::Downloading) {
        s += QCoreApplication::translate("Deploy", "; weights cache %1 of %2 GB")
                 .arg(fmt::gbNumber(m_weights), fmt::gbNumber(m_total));
    }
    return s;
}

} // namespace flashdeck::deploy

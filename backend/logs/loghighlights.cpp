#include "backend/logs/loghighlights.h"

#include "backend/recipe/deployment.h"

#include <QCoreApplication>

namespace flashdeck::logs {

void LogHighlights::note(const QString &ruleId)
{
    m_anyRule = m_anyRule || !ruleId.isEmpty();
    if (ruleId == QLatin1String("qmul4-ok")) {
        m_qmul4Ok = true;
    } else if (ruleId == QLatin1String("qmul4-fallback")) {
        m_qmul4Fallback = true;
    } else if (ruleId == QLatin1String("dspark-ok")) {
        m_draftLoaded = true;
    } else if (ruleId == QLatin1String("ready")) {
        m_ready = true;
    }
}

void LogHighlights::noteKvPool(QByteArrayView line)
{
    // "KV Cache is allocated. #tokens: 10400000, …" and "max_total_num_tokens=10400000, …"
    // (sglang-facts §3): the first number after either marker.
    for (const QByteArrayView marker : {QByteArrayView("#tokens: "), QByteArrayView("max_total_num_tokens=")}) {
        const qsizetype at = line.indexOf(marker);
        if (at < 0) {
            continue;
        }
        qint64 v = 0;
        qsizetype i = at + marker.size();
        const qsizetype start = i;
        while (i < line.size() && line[i] >= '0' && line[i] <= '9' && i - start < 15) {
            v = v * 10 + (line[i] - '0');
            ++i;
        }
        if (i > start) {
            m_kvTokens = v;
            return;
        }
    }
}

LogHighlights::Qmul4 LogHighlights::recorded(const AppPaths &paths, const QString &host)
{
    const Result<recipe::Deployment> d = recipe::Deployment::read(paths, host);
    if (!d) {
        return Qmul4::Unknown;
    }
    switch (d.value().stepStatus(QStringLiteral("check.qmul4"))) {
    case recipe::StepStatus::Pass:
        return Qmul4::FastPath;
    case recipe::StepStatus::Warn:
        return Qmul4::Fallback;
    default:
        break;
    }
    // The last start printed no line: what an earlier start of the same pins printed, if one did.
    if (const auto v = d.value().qmul4VerdictOf(d.value().imageDigest, d.value().modelSha)) {
        return v->fastPath() ? Qmul4::FastPath : Qmul4::Fallback;
    }
    // Skipped with no verdict of these pins: a kernel of Blackwell's, not run on ROCm or Hopper.
    if (d.value().stepStatus(QStringLiteral("check.qmul4")) == recipe::StepStatus::Skipped) {
        return Qmul4::NotApplicable;
    }
    return Qmul4::Unknown;
}

LogHighlights::Qmul4 LogHighlights::qmul4() const
{
    // A fallback line anywhere wins: any backend but qmul4 means the slow path (F20).
    if (m_qmul4Fallback) {
        return Qmul4::Fallback;
    }
    if (m_qmul4Ok) {
        return Qmul4::FastPath;
    }
    if (m_recorded == Qmul4::FastPath || m_recorded == Qmul4::Fallback) {
        return m_recorded; // the start-up is not in what is shown; the deployment checked it
    }
    if (m_recorded == Qmul4::NotApplicable) {
        return m_recorded;
    }
    // Ready without either line: why is not known (issue 41: no guess about caches).
    if (m_ready) {
        return Qmul4::NotSeen;
    }
    if (m_ended) {
        return m_anyRule ? Qmul4::NotInLog : Qmul4::NotSglang;
    }
    return Qmul4::Unknown;
}

QString LogHighlights::qmul4Text() const
{
    const bool fromRecord = !m_qmul4Ok && !m_qmul4Fallback;
    switch (qmul4()) {
    case Qmul4::FastPath:
        return fromRecord ? QCoreApplication::translate("Logs", "qmul4: fast path (checked at deploy)")
                          : QCoreApplication::translate("Logs", "qmul4: fast path");
    case Qmul4::Fallback:
        return fromRecord
            ? QCoreApplication::translate("Logs", "qmul4: SLOW fallback — CUDA Toolkit < 13.4 (checked at deploy)")
            : QCoreApplication::translate("Logs", "qmul4: SLOW fallback — CUDA Toolkit < 13.4");
    case Qmul4::NotSeen:
        return QCoreApplication::translate("Logs", "qmul4: not printed by this start");
    case Qmul4::NotApplicable:
        return QCoreApplication::translate("Logs", "qmul4: does not apply to these GPUs");
    case Qmul4::NotInLog:
        return QCoreApplication::translate("Logs", "qmul4: the server's start-up is not in this log");
    case Qmul4::NotSglang:
        return QCoreApplication::translate("Logs", "qmul4: not an SGLang server log");
    case Qmul4::Unknown:
        break;
    }
    return QCoreApplication::translate("Logs", "qmul4: waiting for the start-up check");
}

LogHighlights::Tone LogHighlights::qmul4Tone() const
{
    switch (qmul4()) {
    case Qmul4::FastPath:
        return Tone::Good;
    case Qmul4::Fallback:
    case Qmul4::NotSeen:
        return Tone::Warning;
    case Qmul4::NotInLog:
    case Qmul4::NotSglang:
    case Qmul4::NotApplicable:
    case Qmul4::Unknown:
        break;
    }
    return Tone::Neutral;
}

QString LogHighlights::dsparkText() const
{
    return m_draftLoaded ? QCoreApplication::translate("Logs", "DSpark: draft loaded") : QString();
}

} // namespace flashdeck::logs

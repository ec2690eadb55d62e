#pragma once

#include <QByteArrayView>
#include <QString>

namespace flashdeck {
class AppPaths;
}

namespace flashdeck::logs {

/**
 * The pinned badges above a log: what the qmul4 and DSpark start-up checks said (F20, F18,
 * host contract §6). Fed the rule id of every classified line, in order.
 */
class LogHighlights final
{
public:
    /**
     * Unknown: a live log before its start-up check ("waiting"). NotInLog: the log is whole and
     * holds SGLang lines but not the start-up (it began later). NotSglang: the log is whole and
     * no line of it is one Flashdeck knows.
     */
    enum class Qmul4 { Unknown, FastPath, Fallback, NotSeen, NotInLog, NotSglang, NotApplicable };
    enum class Tone { Neutral, Good, Warning, Bad };

    void note(const QString &ruleId);
    /** A kv-pool line's text: its token count becomes the KV badge ("#tokens: 10400000"). */
    void noteKvPool(QByteArrayView line);
    void reset() { *this = LogHighlights(); }
    /**
     * What the deployment recorded when it checked (FastPath or Fallback): said when the log
     * shown no longer holds the start-up (a ring, a tail, a long-running server).
     */
    void setRecorded(Qmul4 verdict) { m_recorded = verdict; }
    /** The verdict the deployment on `host` recorded (check.qmul4), or Unknown. */
    static Qmul4 recorded(const AppPaths &paths, const QString &host);
    /** The log is whole (a file, a finished read): no start-up line now means none will come. */
    void setEnded(bool ended) { m_ended = ended; }

    Qmul4 qmul4() const;
    bool draftLoaded() const { return m_draftLoaded; }
    bool ready() const { return m_ready; }

    /** "qmul4: fast path", "qmul4: SLOW fallback — CUDA Toolkit < 13.4", "qmul4: not printed by this start", "qmul4:
     * does not apply to these GPUs". */
    QString qmul4Text() const;
    Tone qmul4Tone() const;
    /** "DSpark: draft loaded", or empty while no DSpark line was seen. */
    QString dsparkText() const;
    /** The KV pool's size in tokens as the server allocated it; 0 until a kv-pool line. */
    qint64 kvTokens() const { return m_kvTokens; }

private:
    bool m_qmul4Ok = false;
    bool m_qmul4Fallback = false;
    bool m_draftLoaded = false;
    bool m_ready = false;
    bool m_anyRule = false;
    bool m_ended = false;
    Qmul4 m_recorded = Qmul4::Unknown;
    qint64 m_kvTokens = 0;
};

} // namespace flashdeck::logs

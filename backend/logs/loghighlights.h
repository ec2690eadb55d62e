#pragma once

#include <QByteArrayView>
#include <QString>

namespace flashdeck::logs {

/**
 * The pinned badges above a log: what the qmul4 and DSpark start-up checks said (F20, F18,
 * host contract §6). Fed the rule id of every classified line, in order.
 */
class LogHighlights final
{
public:
    enum class Qmul4 { Unknown, FastPath, Fallback, NotSeen };
    enum class Tone { Neutral, Good, Warning, Bad };

    void note(const QString &ruleId);
    /** A kv-pool line's text: its token count becomes the KV badge ("#tokens: 10400000"). */
    void noteKvPool(QByteArrayView line);
    void reset() { *this = LogHighlights(); }

    Qmul4 qmul4() const;
    bool draftLoaded() const { return m_draftLoaded; }
    bool ready() const { return m_ready; }

    /** "qmul4: fast path", "qmul4: SLOW fallback — CUDA Toolkit < 13.4", "qmul4: not seen (cached kernel?)". */
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
    qint64 m_kvTokens = 0;
};

} // namespace flashdeck::logs

#pragma once

#include <QString>

namespace flashdeck::chat {

/**
 * Splits reasoning from the answer when a server sends both in `content` (no
 * `--reasoning-parser`, or the `minimax-append-think` one): `<think>…</think>` and MiniMax-M3's
 * `<mm:think>…</mm:think>` (sglang-facts §4.1), fed delta by delta. A tag may be cut anywhere
 * by the stream, so text that could still be the start of a tag is held back until the next
 * delta (or finish()). A closing tag with no opening one (templates that open the block
 * themselves) means everything before it was reasoning: `earlierContentWasReasoning` says so
 * once, and the caller moves what it showed as answer.
 */
class ThinkSplitter final
{
public:
    struct Output
    {
        QString reasoning;
        QString content;
        bool earlierContentWasReasoning = false;
    };

    Output feed(const QString &delta);
    /** The end of the stream: whatever was held back, as what it was. */
    Output finish();

    /** True while inside a think block (an answer cut here ended in its reasoning). */
    bool inReasoning() const { return m_inThink; }
    /** Whether any tag was seen: the reply carried inline reasoning. */
    bool sawTags() const { return m_sawTag; }

private:
    void emitText(const QString &text, Output &out);

    QString m_held;
    bool m_inThink = false;
    bool m_sawTag = false;
    bool m_sawOpen = false; // or a bare close: the block's start is settled either way
    bool m_emittedContent = false;
};

} // namespace flashdeck::chat

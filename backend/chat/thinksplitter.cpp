#include "backend/chat/thinksplitter.h"

#include <array>

namespace flashdeck::chat {

namespace {

struct Tag
{
    QLatin1String text;
    bool open;
};

constexpr std::array<Tag, 4> kTags{{{QLatin1String("<think>"), true},
                                    {QLatin1String("</think>"), false},
                                    {QLatin1String("<mm:think>"), true},
                                    {QLatin1String("</mm:think>"), false}}};

/** Length of the longest suffix of `s` that is a proper prefix of some tag (to hold back). */
qsizetype partialTagSuffix(const QString &s)
{
    const qsizetype lt = s.lastIndexOf(QLatin1Char('<'));
    if (lt < 0 || s.size() - lt >= 11) { // 11: the longest tag, "</mm:think>"
        return 0;
    }
    const QStringView tail = QStringView(s).mid(lt);
    for (const Tag &t : kTags) {
        if (tail.size() < t.text.size() && QLatin1String(t.text).startsWith(tail)) {
            return tail.size();
        }
    }
    return 0;
}

} // namespace

void ThinkSplitter::emitText(const QString &text, Output &out)
{
    if (text.isEmpty()) {
        return;
    }
    if (m_inThink) {
        out.reasoning += text;
    } else {
        out.content += text;
        m_emittedContent = true;
    }
}

ThinkSplitter::Output ThinkSplitter::feed(const QString &delta)
{
    Output out;
    const bool shownBefore = m_emittedContent; // answer text already handed out by earlier calls
    QString text = m_held + delta;
    m_held.clear();
    for (;;) {
        // The first tag in the text, whichever it is.
        qsizetype at = -1;
        const Tag *found = nullptr;
        for (const Tag &t : kTags) {
            const qsizetype i = text.indexOf(t.text);
            if (i >= 0 && (at < 0 || i < at)) {
                at = i;
                found = &t;
            }
        }
        if (!found) {
            break;
        }
        emitText(text.left(at), out);
        m_sawTag = true;
        if (found->open) {
            m_sawOpen = true;
            m_inThink = true;
        } else {
            if (!m_inThink && !m_sawOpen) {
                // Reasoning that opened without a tag: what was shown as answer was reasoning.
                out.reasoning = out.content + out.reasoning;
                out.content.clear();
                out.earlierContentWasReasoning = shownBefore;
                m_emittedContent = false;
                m_sawOpen = true; // only the first bare close means that
            }
            m_inThink = false;
        }
        text = text.mid(at + found->text.size());
    }
    const qsizetype hold = partialTagSuffix(text);
    m_held = text.right(hold);
    emitText(text.left(text.size() - hold), out);
    return out;
}

ThinkSplitter::Output ThinkSplitter::finish()
{
    Output out;
    emitText(m_held, out);
    m_held.clear();
    return out;
}

} // namespace flashdeck::chat

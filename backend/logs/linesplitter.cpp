#include "backend/logs/linesplitter.h"

namespace flashdeck::logs {

QList<SplitLine> LineSplitter::feed(const QByteArray &chunk)
{
    QList<SplitLine> out;
    out.reserve(chunk.size() / 96 + 1); // SGLang's lines run 60–200 bytes: rarely a regrowth
    // One allocation of the exact size per line (appending to a growing buffer costs more).
    feedEach(chunk, [&out](QByteArrayView text, bool progress, bool cut) {
        out.append({text.toByteArray(), progress, cut});
    });
    return out;
}

QList<SplitLine> LineSplitter::finish()
{
    QList<SplitLine> out;
    finishEach([&out](QByteArrayView text, bool progress, bool cut) {
        out.append({text.toByteArray(), progress, cut});
    });
    return out;
}

} // namespace flashdeck::logs

#include "backend/logs/linesplitter.h"

#include "backend/core/sharedbytes.h"

namespace flashdeck::logs {

QList<SplitLine> LineSplitter::feed(const QByteArray &chunk)
{
    QList<SplitLine> out;
    out.reserve(chunk.size() / 96 + 1); // SGLang's lines run 60–200 bytes: rarely a regrowth
    // A line wholly inside the chunk shares the chunk's memory (no allocation, no copy: that
    // was most of the pipeline's cost, bench_logs); one assembled across chunks is copied out of
    // the splitter's buffer, which the next line reuses.
    const char *const begin = chunk.constData();
    const char *const end = begin + chunk.size();
    bytes::BlockSlicer slicer(chunk);
    feedEach(chunk, [&](QByteArrayView text, bool progress, bool cut) {
        if (text.data() >= begin && text.data() < end) {
            out.append({slicer.slice(text.data() - begin, text.size()), progress, cut});
        } else {
            out.append({text.toByteArray(), progress, cut});
        }
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

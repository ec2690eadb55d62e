// The think-tag splitter: reasoning and answer from one `content` stream, tags cut anywhere.
// Properties: the split does not depend on where the deltas were cut, and nothing is invented
// (reasoning + answer is never longer than what came).

#include "backend/chat/thinksplitter.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

struct Split
{
    QString reasoning;
    QString content;
};

Split run(const QList<QString> &deltas)
{
    flashdeck::chat::ThinkSplitter splitter;
    Split s;
    auto take = [&s](const flashdeck::chat::ThinkSplitter::Output &o) {
        if (o.earlierContentWasReasoning) {
            s.reasoning += s.content;
            s.content.clear();
        }
        s.reasoning += o.reasoning;
        s.content += o.content;
    };
    for (const QString &d : deltas) {
        take(splitter.feed(d));
    }
    take(splitter.finish());
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = flashdeck::fuzz::bytes(data, size);
    QList<QString> deltas;
    for (const QByteArray &piece : flashdeck::fuzz::chunks(input)) {
        deltas.append(QString::fromUtf8(piece));
    }
    const Split cut = run(deltas);
    QString all;
    for (const QString &d : deltas) {
        all += d;
    }
    const Split whole = run({all});
    FUZZ_CHECK(cut.reasoning == whole.reasoning && cut.content == whole.content);
    FUZZ_CHECK(cut.reasoning.size() + cut.content.size() <= all.size());
    return 0;
}

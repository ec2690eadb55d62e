// The chat stream: SSE framing (WHATWG event-stream), then SGLang's chat-completion chunks.
// Property: the events do not depend on where the network cut the bytes.

#include "backend/chat/chatstream.h"
#include "backend/chat/sseparser.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

bool sameEvents(const QList<flashdeck::chat::SseEvent> &a, const QList<flashdeck::chat::SseEvent> &b)
{
    if (a.size() != b.size()) {
        return false;
    }
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].event != b[i].event || a[i].data != b[i].data || a[i].id != b[i].id) {
            return false;
        }
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace flashdeck::chat;
    const QByteArray input = flashdeck::fuzz::bytes(data, size);
    const QList<QByteArray> pieces = flashdeck::fuzz::chunks(input);
    const QByteArray body = pieces.isEmpty() ? QByteArray() : input.sliced(1);

    SseParser whole(4096);
    const QList<SseEvent> once = whole.feed(body);
    SseParser cut(4096);
    QList<SseEvent> inPieces;
    for (const QByteArray &piece : pieces) {
        inPieces += cut.feed(piece);
    }
    if (!whole.overflowed() && !cut.overflowed()) {
        FUZZ_CHECK(sameEvents(once, inPieces));
    }
    FUZZ_CHECK(cut.pendingBytes() <= 2 * 4096 + 2); // the line cap bounds what is held

    ChatStreamDecoder decoder;
    QString reasoning;
    QString content;
    for (const QByteArray &piece : pieces) {
        const ChatUpdate u = decoder.feed(piece);
        reasoning += u.reasoning;
        content += u.content;
    }
    const ChatUpdate last = decoder.finish();
    FUZZ_CHECK(last.textChunks >= 0 && decoder.malformedChunks() >= 0);
    return 0;
}

// The Docker Engine API's two streams: `POST /images/create` JSON progress lines and the
// multiplexed frames of `GET /containers/{id}/logs`. Property: the lines decoded do not depend
// on where the bytes were cut, and no line exceeds the cap.

#include "backend/docker/logframes.h"
#include "backend/docker/pullprogress.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

QList<flashdeck::docker::LogLine> decode(bool multiplexed, const QList<QByteArray> &pieces)
{
    flashdeck::docker::LogFrameDecoder decoder(multiplexed);
    QList<flashdeck::docker::LogLine> lines;
    for (const QByteArray &piece : pieces) {
        lines += decoder.feed(piece);
    }
    lines += decoder.finish();
    return lines;
}

bool same(const QList<flashdeck::docker::LogLine> &a, const QList<flashdeck::docker::LogLine> &b)
{
    if (a.size() != b.size()) {
        return false;
    }
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].stream != b[i].stream || a[i].text != b[i].text || a[i].cut != b[i].cut) {
            return false;
        }
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace flashdeck::docker;
    const QByteArray input = flashdeck::fuzz::bytes(data, size);
    const QList<QByteArray> pieces = flashdeck::fuzz::chunks(input);
    const QByteArray body = pieces.isEmpty() ? QByteArray() : input.sliced(1);

    PullProgress progress;
    for (const QByteArray &piece : pieces) {
        (void)progress.feed(piece);
    }
    FUZZ_CHECK(progress.layersDone() <= progress.layers());
    FUZZ_CHECK(progress.downloadedBytes() >= 0 && progress.totalBytes() >= 0);

    for (const bool multiplexed : {true, false}) {
        const QList<LogLine> cut = decode(multiplexed, pieces);
        const QList<LogLine> whole = decode(multiplexed, {body});
        FUZZ_CHECK(same(cut, whole));
        for (const LogLine &line : cut) {
            FUZZ_CHECK(line.text.size() <= LogFrameDecoder::kMaxLine);
            FUZZ_CHECK(line.stream >= 0 && line.stream <= 2);
        }
    }
    return 0;
}

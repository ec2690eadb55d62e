// The log line classifier (host contract §6) behind the highlighted qmul4 and DSpark checks,
// fed through the line splitter. Properties: the skipping matcher gives the same rule as the
// plain definition ("the first rule one of whose substrings occurs"), and the lines do not
// depend on where the stream was cut.

#include "backend/logs/linesplitter.h"
#include "backend/logs/logrules.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

int reference(const flashdeck::logs::LogRules &rules, QByteArrayView line)
{
    for (qsizetype i = 0; i < rules.rules().size(); ++i) {
        for (const QByteArray &needle : rules.rules()[i].match) {
            if (line.contains(needle)) {
                return int(i);
            }
        }
    }
    return -1;
}

QList<flashdeck::logs::SplitLine> split(const QList<QByteArray> &pieces)
{
    flashdeck::logs::LineSplitter splitter(4096);
    QList<flashdeck::logs::SplitLine> lines;
    for (const QByteArray &piece : pieces) {
        lines += splitter.feed(piece);
    }
    return lines + splitter.finish();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace flashdeck::logs;
    static const LogRules builtIn = LogRules::builtIn().value();
    const QByteArray input = flashdeck::fuzz::bytes(data, size);
    const QList<QByteArray> pieces = flashdeck::fuzz::chunks(input);

    const QList<SplitLine> lines = split(pieces);
    const QList<SplitLine> whole = split({pieces.isEmpty() ? QByteArray() : input.sliced(1)});
    FUZZ_CHECK(lines.size() == whole.size());
    for (qsizetype i = 0; i < lines.size(); ++i) {
        FUZZ_CHECK(lines[i].text == whole[i].text && lines[i].progress == whole[i].progress &&
                   lines[i].cut == whole[i].cut);
        FUZZ_CHECK(lines[i].text.size() <= 4096);
        FUZZ_CHECK(builtIn.classify(lines[i].text) == reference(builtIn, lines[i].text));
    }
    FUZZ_CHECK(builtIn.classify(input) == reference(builtIn, input));

    // The rules file itself is data an operator may edit: any bytes get a verdict, not a crash.
    const auto custom = LogRules::fromJson(input, QStringLiteral("fuzz.json"));
    if (custom) {
        for (const SplitLine &line : lines) {
            FUZZ_CHECK(custom.value().classify(line.text) == reference(custom.value(), line.text));
        }
    } else {
        FUZZ_CHECK(!custom.message().isEmpty());
    }
    return 0;
}

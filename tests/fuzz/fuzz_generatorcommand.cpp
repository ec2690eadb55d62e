// SGLang's configuration generator's command, pasted by the operator (deploy --launch-command):
// split as a POSIX shell splits it, never run. Properties: every refusal has a message; the words
// quoted again read back the same; the server arguments written out again parse to the same.

#include "backend/core/shellquote.h"
#include "backend/recipe/generatorcommand.h"
#include "backend/recipe/shellwords.h"
#include "tests/fuzz/fuzzinput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace flashdeck;
    const QString text = QString::fromUtf8(fuzz::bytes(data, size));
    const Result<QStringList> words = recipe::ShellWords::split(text);
    if (!words) {
        FUZZ_CHECK(!words.message().isEmpty());
    } else {
        const Result<QStringList> again = recipe::ShellWords::split(QString::fromUtf8(shellJoin(words.value())));
        FUZZ_CHECK(again && again.value() == words.value());
    }
    const Result<recipe::GeneratorCommand> cmd = recipe::GeneratorCommand::parse(text);
    if (!cmd) {
        FUZZ_CHECK(!cmd.message().isEmpty());
        return 0;
    }
    FUZZ_CHECK(words.isOk());
    const QStringList server = cmd.value().serverWords();
    const Result<recipe::GeneratorCommand> rewritten =
        recipe::GeneratorCommand::parse(QStringLiteral("sglang serve ") + QString::fromUtf8(shellJoin(server)));
    FUZZ_CHECK(rewritten && rewritten.value().serverWords() == server);
    for (const recipe::IgnoredDockerOption &o : cmd.value().ignoredDockerOptions()) {
        FUZZ_CHECK(!o.why.isEmpty());
    }
    return 0;
}

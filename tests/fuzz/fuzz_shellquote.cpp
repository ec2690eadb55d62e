// Shell quoting: every argument Flashdeck puts into a remote command line passes through it
// (host contract §1). Property: a POSIX shell reads back exactly the bytes that were quoted,
// as one word — checked here against a reference reader of sh's quoting rules, and against a
// real `sh` over SSH by tst_shellquoteproperty.

#include "backend/core/shellquote.h"
#include "tests/fuzz/fuzzinput.h"

#include <optional>

namespace {

// Bytes sh, bash, dash and zsh read literally when unquoted ('=' not first: zsh's =cmd).
bool literal(char c, bool first)
{
    if (c == '=') {
        return !first;
    }
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        QByteArrayView("-_./:,+@%").contains(c);
}

/** Reads shell words: bare safe bytes, '…' quotes and \x escapes; nothing is expanded. */
std::optional<QList<QByteArray>> readWords(const QByteArray &line)
{
    QList<QByteArray> words;
    QByteArray word;
    bool inWord = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == ' ') {
            if (inWord) {
                words.append(word);
                word.clear();
                inWord = false;
            }
            continue;
        }
        inWord = true;
        if (c == '\'') {
            const qsizetype end = line.indexOf('\'', i + 1);
            if (end < 0) {
                return std::nullopt; // unterminated
            }
            word += line.sliced(i + 1, end - i - 1);
            i = end;
        } else if (c == '\\') {
            if (i + 1 >= line.size()) {
                return std::nullopt;
            }
            word += line[++i];
        } else if (!literal(c, word.isEmpty())) {
            return std::nullopt; // an unquoted special byte: the shell would not read it literally
        } else {
            word += c;
        }
    }
    if (inWord) {
        words.append(word);
    }
    return words;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace flashdeck;
    const QByteArray input = flashdeck::fuzz::bytes(data, size);
    if (!isQuotable(input)) {
        FUZZ_CHECK(input.contains('\0'));
        return 0;
    }
    const QByteArray quoted = shellQuote(input);
    const auto one = readWords(quoted);
    FUZZ_CHECK(one.has_value());
    FUZZ_CHECK(one->size() == 1 && one->front() == input);

    // Several arguments joined into one command line come back as the same list.
    const QList<QByteArray> args = input.split('\x01');
    const auto many = readWords(shellJoin(args));
    FUZZ_CHECK(many.has_value() && *many == args);
    return 0;
}

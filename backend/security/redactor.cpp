#include "backend/security/redactor.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>

namespace flashdeck::security {

namespace {

constexpr bool isAlnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

constexpr bool isIdentChar(char c)
{
    return isAlnum(c) || c == '_' || c == '-';
}

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool startsWithNoCase(std::string_view text, std::size_t at, std::string_view word)
{
    if (text.size() - at < word.size()) {
        return false;
    }
    for (std::size_t k = 0; k < word.size(); ++k) {
        if (lower(text[at + k]) != word[k]) {
            return false;
        }
    }
    return true;
}

// RFC 6750 §2.1 b64token characters.
bool isTokenChar(char c)
{
    return isAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=';
}

// Base64 and base64url, plus the backslash of JSON's "\/" escape.
bool isBase64Char(char c)
{
    return isAlnum(c) || c == '+' || c == '/' || c == '=' || c == '-' || c == '_' || c == '\\';
}

// Includes the backslash of JSON's "image\/png" escape.
bool isMediaTypeChar(char c)
{
    return isAlnum(c) || c == '.' || c == '+' || c == '-' || c == '/' || c == ';' || c == '=' || c == '_' || c == '\\';
}

std::size_t skipSpaces(std::string_view text, std::size_t i)
{
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) {
        ++i;
    }
    return i;
}

// Names whose value is a secret when written as --name VALUE, name=VALUE or "name": "VALUE".
constexpr std::array kSecretNames{
    std::string_view("api-key"),       std::string_view("api_key"),  std::string_view("apikey"),
    std::string_view("access_token"),  std::string_view("hf_token"), std::string_view("password"),
    std::string_view("passphrase"),    std::string_view("token"),    std::string_view("secret"),
    std::string_view("client_secret"),
};

constexpr std::uint8_t kNever = 0;
constexpr std::uint8_t kAnywhere = 1;
constexpr std::uint8_t kAtWordStart = 2;

constexpr std::array<std::uint8_t, 256> kStartTable = [] {
    std::array<std::uint8_t, 256> t{};
    t.fill(kNever);
    for (const char c : std::string_view("-\"dD")) {
        t[static_cast<unsigned char>(c)] = kAnywhere;
    }
    for (const char c : std::string_view("abchpstABCHPST")) {
        t[static_cast<unsigned char>(c)] = kAtWordStart;
    }
    return t;
}();

constexpr std::array<bool, 256> kIdentTable = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 256; ++c) {
        t[std::size_t(c)] = isIdentChar(static_cast<char>(c));
    }
    return t;
}();

constexpr std::array<bool, 256> kHintTable = [] {
    std::array<bool, 256> t{};
    for (const char c : std::string_view("=\"_;-:rR")) {
        t[static_cast<unsigned char>(c)] = true;
    }
    return t;
}();

bool endsWithNoCase(std::string_view text, std::size_t end, std::string_view word)
{
    return end >= word.size() && startsWithNoCase(text, end - word.size(), word);
}

/**
 * False when no pattern rule can match anywhere in `text`, from bytes every rule needs: a named
 * value needs '=', '"' or "--"; a data URI ';'; a Hugging Face token '_'; "Bearer" its own
 * letters; "Authorization" a ':' after it. One pass of one table lookup a byte: most log lines
 * (SGLang's decode and prefill batches) have none, and skip the scanner.
 */
bool mayNeedPatterns(std::string_view text)
{
    const char *const data = text.data();
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (!kHintTable[static_cast<unsigned char>(data[i])]) {
            continue;
        }
        switch (data[i]) {
        case '-':
            if (i + 1 < n && data[i + 1] == '-') {
                return true;
            }
            break;
        case 'r':
        case 'R':
            if (endsWithNoCase(text, i + 1, "bearer")) {
                return true;
            }
            break;
        case ':': {
            std::size_t j = i;
            while (j > 0 && (data[j - 1] == ' ' || data[j - 1] == '\t')) {
                --j;
            }
            if (j > 0 && data[j - 1] == '"') {
                --j;
            }
            if (endsWithNoCase(text, j, "authorization")) {
                return true;
            }
            break;
        }
        default: // '=', '"', '_', ';'
            return true;
        }
    }
    return false;
}

class Scanner
{
public:
    /** Appends `text`, redacted, to `out`. */
    Scanner(std::string_view text, std::string &out)
        : m_text(text)
        , m_out(out)
    {
        m_out.reserve(m_out.size() + text.size());
    }

    void run()
    {
        // Most bytes can start no rule: copy them in runs, and try the rules only where one
        // could begin (flashdeck logs redacts every line it prints; trying all five rules at
        // every byte cost more than classifying the line).
        const char *const data = m_text.data();
        const std::size_t n = m_text.size();
        std::size_t copied = 0;
        while (m_i < n) {
            if (!mayStartAt(data, m_i)) {
                ++m_i;
                continue;
            }
            const std::size_t before = m_i;
            m_out.append(m_text.substr(copied, before - copied));
            if (tryRulesStartingHere()) {
                copied = m_i;
                continue;
            }
            copied = before;
            ++m_i;
        }
        m_out.append(m_text.substr(copied));
    }

private:
    /** The rules that can begin with this byte, in the order they always had. */
    bool tryRulesStartingHere()
    {
        switch (lower(m_text[m_i])) {
        case 'b':
            return tryBearer();
        case 'a':
            return tryAuthorization() || tryNamedValue();
        case 'd':
            return tryDataUri();
        case 'h':
            return tryHuggingFaceToken() || tryNamedValue();
        default: // '-', '"', and the first letters of the secret names
            return tryNamedValue();
        }
    }

    /**
     * Whether a rule could match at `i`: "data:" anywhere; "--name" and "\"name\"" anywhere;
     * every other rule at a word's start, with its first letter (bearer, authorization, hf_, and
     * the secret names: api…, access_token, password, passphrase, token, secret, client_secret).
     * Two table lookups a byte (a branch per letter cost more than the rest of the scan).
     */
    bool mayStartAt(const char *data, std::size_t i) const
    {
        const std::uint8_t k = kStartTable[static_cast<unsigned char>(data[i])];
        if (k == kNever || (k == kAtWordStart && i > 0 && kIdentTable[static_cast<unsigned char>(data[i - 1])])) {
            return false;
        }
        // The second byte too: most word starts ("batch", "cuda", "throughput") end here.
        const char second = i + 1 < m_text.size() ? lower(data[i + 1]) : '\0';
        switch (lower(data[i])) {
        case 'a':
            return second == 'u' || second == 'p' || second == 'c'; // authorization, api…, access_token
        case 'b':
        case 's':
            return second == 'e'; // bearer, secret
        case 'c':
            return second == 'l'; // client_secret
        case 'd':
        case 'p':
            return second == 'a'; // data:, password, passphrase
        case 'h':
            return second == 'f'; // hf_, hf_token
        case 't':
            return second == 'o'; // token
        case '-':
            return second == '-'; // --name
        default: // '"': "name"
            return true;
        }
    }

    bool atWordStart() const { return m_i == 0 || !isIdentChar(m_text[m_i - 1]); }

    // "Bearer <token>" anywhere (headers, curl commands, error messages).
    bool tryBearer()
    {
        if (!atWordStart() || !startsWithNoCase(m_text, m_i, "bearer")) {
            return false;
        }
        std::size_t j = m_i + 6;
        const std::size_t valueStart = skipSpaces(m_text, j);
        if (valueStart == j) {
            return false;
        }
        std::size_t end = valueStart;
        while (end < m_text.size() && isTokenChar(m_text[end])) {
            ++end;
        }
        if (end == valueStart) {
            return false; // already "Bearer [REDACTED]"
        }
        m_out.append(m_text.substr(m_i, valueStart - m_i));
        m_out.append(Redactor::marker);
        m_i = end;
        return true;
    }

    // "Authorization: Basic dXNlcjpwYXNz" and other schemes: everything up to the line's end.
    bool tryAuthorization()
    {
        if (!atWordStart() || !startsWithNoCase(m_text, m_i, "authorization")) {
            return false;
        }
        std::size_t j = m_i + 13;
        if (j < m_text.size() && m_text[j] == '"') {
            ++j; // "Authorization": "…" in JSON
        }
        j = skipSpaces(m_text, j);
        if (j >= m_text.size() || m_text[j] != ':') {
            return false;
        }
        j = skipSpaces(m_text, j + 1);
        if (startsWithNoCase(m_text, j, "bearer")) {
            return false; // the Bearer rule keeps the scheme visible
        }
        const bool quoted = j < m_text.size() && m_text[j] == '"';
        std::size_t end = quoted ? j + 1 : j;
        while (end < m_text.size() && m_text[end] != '\n' && m_text[end] != '\r' && !(quoted && m_text[end] == '"')) {
            ++end;
        }
        if (end == (quoted ? j + 1 : j)) {
            return false;
        }
        m_out.append(m_text.substr(m_i, (quoted ? j + 1 : j) - m_i));
        m_out.append(Redactor::marker);
        m_i = end;
        return true;
    }

    // "data:image/png;base64,iVBOR…": keep the media type, drop the payload, say how big it was.
    bool tryDataUri()
    {
        if (!startsWithNoCase(m_text, m_i, "data:")) {
            return false;
        }
        std::size_t j = m_i + 5;
        while (j < m_text.size() && j - m_i < 256 && isMediaTypeChar(m_text[j])) {
            ++j;
        }
        if (j >= m_text.size() || m_text[j] != ',') {
            return false;
        }
        const std::string_view header = m_text.substr(m_i, j - m_i);
        if (header.size() < 12 || !startsWithNoCase(header, header.size() - 7, ";base64")) {
            return false;
        }
        std::size_t end = j + 1;
        while (end < m_text.size() && isBase64Char(m_text[end])) {
            ++end;
        }
        m_out.append(m_text.substr(m_i, j + 1 - m_i));
        m_out.append("[REDACTED ");
        m_out.append(std::to_string(end - j - 1));
        m_out.append(" base64 chars]");
        m_i = end;
        return true;
    }

    // Hugging Face user access tokens: "hf_" and 34 letters or digits.
    bool tryHuggingFaceToken()
    {
        if (!atWordStart() || !startsWithNoCase(m_text, m_i, "hf_")) {
            return false;
        }
        std::size_t end = m_i + 3;
        while (end < m_text.size() && isAlnum(m_text[end])) {
            ++end;
        }
        if (end - m_i - 3 < 30) {
            return false;
        }
        m_out.append("hf_");
        m_out.append(Redactor::marker);
        m_i = end;
        return true;
    }

    // --api-key VALUE, --api-key=VALUE, api_key=VALUE, "api_key": "VALUE".
    bool tryNamedValue()
    {
        const bool dashed = startsWithNoCase(m_text, m_i, "--");
        std::size_t nameStart = dashed ? m_i + 2 : m_i;
        const bool quotedName = !dashed && m_text[m_i] == '"';
        if (quotedName) {
            ++nameStart;
        }
        if (!dashed && !quotedName && !atWordStart()) {
            return false;
        }
        const char first = nameStart < m_text.size() ? lower(m_text[nameStart]) : '\0';
        for (const std::string_view name : kSecretNames) {
            if (name.front() != first || !startsWithNoCase(m_text, nameStart, name)) {
                continue;
            }
            std::size_t j = nameStart + name.size();
            if (j < m_text.size() && isIdentChar(m_text[j])) {
                continue; // "tokens", "password_file": a longer name
            }
            if (quotedName) {
                if (j >= m_text.size() || m_text[j] != '"') {
                    continue;
                }
                ++j;
            }
            std::size_t sep = skipSpaces(m_text, j);
            if (sep < m_text.size() && (m_text[sep] == '=' || (quotedName && m_text[sep] == ':'))) {
                sep = skipSpaces(m_text, sep + 1);
            } else if (dashed && sep > j) {
                // "--api-key VALUE": separated by spaces only.
            } else {
                continue;
            }
            return redactValueAt(sep);
        }
        return false;
    }

    bool redactValueAt(std::size_t start)
    {
        if (start >= m_text.size()) {
            return false;
        }
        char quote = 0;
        std::size_t valueStart = start;
        if (m_text[start] == '"' || m_text[start] == '\'') {
            quote = m_text[start];
            ++valueStart;
        }
        std::size_t end = valueStart;
        while (end < m_text.size()) {
            const char c = m_text[end];
            if (quote ? c == quote
                      : (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '&' || c == '"' ||
                         c == '\'' || c == '}' || c == ')')) {
                break;
            }
            if (quote && c == '\\' && end + 1 < m_text.size()) {
                ++end; // escaped character inside a JSON string
            }
            ++end;
        }
        if (end == valueStart || m_text.substr(valueStart, end - valueStart) == Redactor::marker) {
            return false;
        }
        m_out.append(m_text.substr(m_i, valueStart - m_i));
        m_out.append(Redactor::marker);
        m_i = end;
        return true;
    }

    std::string_view m_text;
    std::string &m_out;
    std::size_t m_i = 0;
};

} // namespace

bool Redactor::addSecret(const QString &secret)
{
    const QByteArray utf8 = secret.toUtf8();
    if (static_cast<std::size_t>(utf8.size()) < minimumSecretLength) {
        return false;
    }
    std::unique_lock lock(m_mutex);
    std::string s(utf8.constData(), static_cast<std::size_t>(utf8.size()));
    if (std::find(m_secrets.begin(), m_secrets.end(), s) == m_secrets.end()) {
        m_secrets.push_back(std::move(s));
        std::stable_sort(m_secrets.begin(), m_secrets.end(),
                         [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
    }
    m_secretCount.store(m_secrets.size(), std::memory_order_release);
    return true;
}

void Redactor::removeSecret(const QString &secret)
{
    const QByteArray utf8 = secret.toUtf8();
    std::unique_lock lock(m_mutex);
    std::erase(m_secrets, std::string(utf8.constData(), static_cast<std::size_t>(utf8.size())));
    m_secretCount.store(m_secrets.size(), std::memory_order_release);
}

void Redactor::clearSecrets()
{
    std::unique_lock lock(m_mutex);
    m_secrets.clear();
    m_secretCount.store(0, std::memory_order_release);
}

std::size_t Redactor::secretCount() const
{
    std::shared_lock lock(m_mutex);
    return m_secrets.size();
}

std::string Redactor::redactPatterns(std::string_view text)
{
    std::string out;
    Scanner(text, out).run();
    return out;
}

std::string Redactor::redact(std::string_view text) const
{
    std::string out;
    redactInto(text, out);
    return out;
}

void Redactor::redactInto(std::string_view text, std::string &out) const
{
    std::string replaced;
    if (m_secretCount.load(std::memory_order_acquire) != 0) { // no lock per line when none is known
        std::shared_lock lock(m_mutex);
        for (const std::string &secret : m_secrets) {
            if (replaced.empty() && text.find(secret) == std::string_view::npos) {
                continue; // the common case: no copy of a text without secrets
            }
            if (replaced.empty()) {
                replaced.assign(text);
            }
            std::size_t pos = 0;
            while ((pos = replaced.find(secret, pos)) != std::string::npos) {
                replaced.replace(pos, secret.size(), marker);
                pos += marker.size();
            }
        }
    }
    const std::string_view scanned = replaced.empty() ? text : std::string_view(replaced);
    if (!mayNeedPatterns(scanned)) {
        out.append(scanned);
        return;
    }
    Scanner(scanned, out).run();
}

QString Redactor::redact(const QString &text) const
{
    const QByteArray utf8 = text.toUtf8();
    const std::string out = redact(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
    return QString::fromUtf8(out.data(), static_cast<qsizetype>(out.size()));
}

} // namespace flashdeck::security

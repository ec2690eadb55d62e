#pragma once

#include <QString>

#include <atomic>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace flashdeck::security {

/**
 * Removes secrets from text before it reaches a log sink, a journal or an export.
 *
 * Two kinds of things are removed:
 *  - registered secrets (API keys, passwords, passphrases the process learnt at run time),
 *    matched exactly wherever they occur;
 *  - things that look secret whatever their value: `Bearer …` tokens, `Authorization:` header
 *    values, `data:…;base64,…` payloads (images pasted into the playground), Hugging Face
 *    tokens (`hf_…`), and the values of `--api-key`, `api_key=`, `"password": "…"` and friends.
 *
 * Thread-safe: every log sink on every thread shares one Redactor. Scanning is a single pass
 * without regular expressions, so a multi-megabyte base64 image costs one linear scan and
 * cannot overflow a backtracking regex engine's stack.
 */
class Redactor final
{
public:
    static constexpr std::string_view marker = "[REDACTED]";
    /** Secrets shorter than this are not registered: they would blank out ordinary words. */
    static constexpr std::size_t minimumSecretLength = 4;

    Redactor() = default;
    Redactor(const Redactor &) = delete;
    Redactor &operator=(const Redactor &) = delete;

    /** Returns false when the secret is too short to be matched safely. */
    bool addSecret(const QString &secret);
    void removeSecret(const QString &secret);
    void clearSecrets();
    std::size_t secretCount() const;

    std::string redact(std::string_view text) const;
    QString redact(const QString &text) const;
    /** Appends `text`, redacted, to `out` (no allocation when `out` has room). */
    void redactInto(std::string_view text, std::string &out) const;

    /** Only the pattern rules, with no registered secrets (used by tools and tests). */
    static std::string redactPatterns(std::string_view text);

private:
    mutable std::shared_mutex m_mutex;
    std::vector<std::string> m_secrets; // longest first, so a secret containing another wins
    std::atomic<std::size_t> m_secretCount{0}; // m_secrets.size(), read without the lock
};

} // namespace flashdeck::security

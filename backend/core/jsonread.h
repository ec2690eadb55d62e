#pragma once

#include <QtGlobal>

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>
#include <string>

// Reading JSON that a host, a daemon or a server sent: a missing field, a field of the wrong
// type or a number out of range gives "nothing", never an exception (nlohmann's value() throws
// on a type mismatch) and never undefined behaviour (a double out of an int's range cast to
// int is UB). Found by the fuzz targets of tests/fuzz; include only in .cpp files.

namespace flashdeck::jsonread {

/** Deeper than any real answer of a host tool, the Engine API, the Hub or SGLang. */
constexpr int kMaxDepth = 128;

/**
 * nlohmann::json::parse without exceptions, for bytes from a host or a server: input nested
 * deeper than kMaxDepth is refused before parsing (a "discarded" value, as for invalid JSON).
 * nlohmann parses nesting without recursion, but builds a container per level: 3 MB of '['
 * from a hostile amd-smi took 250 MB (issue 9, tst_hostilehost).
 */
inline nlohmann::json parse(const char *begin, const char *end)
{
    int depth = 0;
    bool inString = false;
    for (const char *p = begin; p < end; ++p) {
        const char c = *p;
        if (inString) {
            if (c == '\\') {
                ++p;
            } else if (c == '"') {
                inString = false;
            }
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxDepth) {
                return nlohmann::json(nlohmann::json::value_t::discarded);
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return nlohmann::json::parse(begin, end, nullptr, false);
}

/** `j[key]` when `j` is an object holding a string there, else empty. */
inline std::string string(const nlohmann::json &j, const char *key)
{
    if (!j.is_object()) {
        return {};
    }
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/** `j[key]` when it is a finite number. */
inline std::optional<double> number(const nlohmann::json &j, const char *key)
{
    if (!j.is_object()) {
        return std::nullopt;
    }
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) {
        return std::nullopt;
    }
    const double v = it->get<double>();
    return std::isfinite(v) ? std::optional(v) : std::nullopt;
}

/** `v` as an integer when it is finite and within [lo, hi]; the fraction is dropped. */
inline std::optional<qint64> inRange(std::optional<double> v, qint64 lo, qint64 hi)
{
    if (!v || !std::isfinite(*v) || *v < double(lo) || *v > double(hi)) {
        return std::nullopt;
    }
    return static_cast<qint64>(*v);
}

/** `j[key]` as an integer within [lo, hi]. */
inline std::optional<qint64> integer(const nlohmann::json &j, const char *key, qint64 lo, qint64 hi)
{
    return inRange(number(j, key), lo, hi);
}

} // namespace flashdeck::jsonread

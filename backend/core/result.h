#pragma once

#include <QString>

#include <optional>
#include <utility>

namespace flashdeck {

/**
 * The outcome of a backend operation that can fail (KIO's Q_REQUIRED_RESULT Result).
 *
 * `message` is written for the operator: what happened and what to do. `detail` is for the
 * log (library error text, codes) and never shown alone.
 */
class [[nodiscard]] Status
{
public:
    Status() = default;
    static Status ok() { return {}; }
    static Status failure(QString message, QString detail = {})
    {
        Status s;
        s.m_ok = false;
        s.m_message = std::move(message);
        s.m_detail = std::move(detail);
        return s;
    }

    bool isOk() const { return m_ok; }
    explicit operator bool() const { return m_ok; }
    const QString &message() const { return m_message; }
    const QString &detail() const { return m_detail; }

private:
    bool m_ok = true;
    QString m_message;
    QString m_detail;
};

/** A value or a failure Status. */
template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) // NOLINT(google-explicit-constructor): implicit on purpose, like std::expected
        : m_value(std::move(value))
    { }
    Result(Status failure) // NOLINT(google-explicit-constructor)
        : m_status(std::move(failure))
    {
        Q_ASSERT(!m_status.isOk());
    }

    bool isOk() const { return m_value.has_value(); }
    explicit operator bool() const { return isOk(); }
    const T &value() const & { return *m_value; }
    T &value() & { return *m_value; }
    T &&value() && { return std::move(*m_value); }
    const Status &status() const { return m_status; }
    const QString &message() const { return m_status.message(); }

private:
    std::optional<T> m_value;
    Status m_status;
};

} // namespace flashdeck

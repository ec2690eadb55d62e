#pragma once

#include "backend/core/result.h"
#include "backend/recipe/step.h"

#include <QList>
#include <QString>

namespace flashdeck {

namespace security {
class Redactor;
} // namespace security

} // namespace flashdeck

namespace flashdeck::deploy {

/**
 * `deployments/<host>/journal.jsonl`: every step transition, one JSON object per line,
 * appended with a single write and fsync'd, so a crash loses at most the line being written
 * and never corrupts earlier ones. Reading skips a torn last line (and says so).
 */
class Journal final
{
public:
    Journal(QString path, const security::Redactor &redactor);

    /** `record` with every text field through the redactor (what the journal writes). */
    recipe::StepRecord redacted(const recipe::StepRecord &record) const;
    /** Appends `record` (redacted); fails with a message naming the file (full disk, rights). */
    [[nodiscard]] Status append(const recipe::StepRecord &record);
    /** Every record so far; `warning` gets a note when a torn last line was skipped. */
    [[nodiscard]] Result<QList<recipe::StepRecord>> read(QString *warning = nullptr) const;
    /** The latest status of each step, in first-seen order. */
    [[nodiscard]] Result<QList<recipe::StepRecord>> latest() const;
    const QString &path() const { return m_path; }

private:
    QString m_path;
    const security::Redactor &m_redactor;
};

} // namespace flashdeck::deploy

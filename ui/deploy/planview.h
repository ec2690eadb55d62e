#pragma once

#include "backend/recipe/step.h"

#include <QHash>
#include <QTreeWidget>

namespace flashdeck::ui {

/**
 * The plan's steps, grouped Pre-flight / Licence / Pin / Pull / Launch / Verify, each with its
 * status icon and title (and a percentage while it measures progress), each group with the
 * worst of its steps. Holds the last record of every step; the Deploy page feeds it.
 */
class PlanView final : public QTreeWidget
{
    Q_OBJECT

public:
    explicit PlanView(QWidget *parent = nullptr);

    /** Every step pending, as before a run. */
    void resetPlan();
    /**
     * The plan so far stays on top, folded under `title` as it ended (a failed upgrade, read-only),
     * and a new plan starts below it (the rollback): both, in the order they ran.
     */
    void keepAsEarlier(const QString &title);
    /**
     * A step's new record. While a run goes on (`followRun`), the selection follows the running or
     * failed step unless the operator picked a failed one to read. False for a step this build
     * does not know (the journal of a newer Flashdeck).
     */
    bool apply(const recipe::StepRecord &record, bool followRun);
    /** The step's title with how far it got ("Pull the pinned image — 42 %"). */
    void showPercent(const QString &step, int percent);

    recipe::StepRecord record(const QString &step) const { return m_records.value(step); }
    recipe::StepStatus status(const QString &step) const { return m_records.value(step).status; }
    const QHash<QString, recipe::StepRecord> &records() const { return m_records; }
    /** The selected step's id; empty for a group or nothing. */
    QString currentStep() const;
    void select(const QString &step);
    /** Every step of the plan ended well (passed, warned or skipped): nothing is left to resume. */
    bool allDone() const;
    bool anyRun() const;

private:
    void addPlan();

    QHash<QString, QTreeWidgetItem *> m_items;
    QHash<QString, recipe::StepRecord> m_records;
};

} // namespace flashdeck::ui

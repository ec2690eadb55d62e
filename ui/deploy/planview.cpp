#include "ui/deploy/planview.h"

#include "backend/deploy/deployplan.h"

#include <QIcon>

#include <algorithm>

namespace flashdeck::ui {

namespace {

constexpr int kStepRole = Qt::UserRole + 1;

/** The one title of a step (translated when shown); the record's own for an id not known here. */
QString titleOf(const StepRecord &r)
{
    return DeployPlan::title(r.step, r.title.isEmpty() ? r.step : r.title);
}

QIcon statusIcon(StepStatus s)
{
    return QIcon(QStringLiteral(":/icons/status-%1.svg").arg(stepStatusName(s)));
}

/** A group's status: the worst of its steps, running first. */
StepStatus groupStatus(const QList<StepStatus> &steps)
{
    auto has = [&steps](StepStatus s) { return steps.contains(s); };
    if (has(StepStatus::Running)) {
        return StepStatus::Running;
    }
    if (has(StepStatus::Fail)) {
        return StepStatus::Fail;
    }
    if (has(StepStatus::Pending)) {
        return steps.count(StepStatus::Pending) == steps.size() ? StepStatus::Pending : StepStatus::Running;
    }
    if (has(StepStatus::Unknown)) {
        return StepStatus::Unknown;
    }
    if (has(StepStatus::Warn)) {
        return StepStatus::Warn;
    }
    return steps.count(StepStatus::Skipped) == steps.size() ? StepStatus::Skipped : StepStatus::Pass;
}

} // namespace

PlanView::PlanView(QWidget *parent)
    : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("deploySteps"));
    setAccessibleName(tr("Deployment steps"));
    setHeaderHidden(true);
    setRootIsDecorated(true);
    setUniformRowHeights(true);
}

void PlanView::resetPlan()
{
    clear();
    addPlan();
}

void PlanView::keepAsEarlier(const QString &title)
{
    QList<QTreeWidgetItem *> ran;
    while (topLevelItemCount() > 0) {
        ran.append(takeTopLevelItem(0));
    }
    auto *earlier = new QTreeWidgetItem(this, {title});
    earlier->setData(0, kStepRole, QString());
    QList<StepStatus> statuses;
    for (QTreeWidgetItem *group : ran) {
        earlier->addChild(group);
        QList<StepStatus> mine;
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem *step = group->child(i);
            const StepRecord r = m_records.value(step->data(0, kStepRole).toString());
            mine.append(r.status);
            // Read-only now: the id belongs to the new plan; what it saw stays on hover.
            step->setData(0, kStepRole, QString());
            step->setToolTip(0, r.seen.isEmpty() ? r.step : r.seen);
        }
        group->setExpanded(groupStatus(mine) != StepStatus::Pass); // where it failed, open
        statuses += mine;
    }
    earlier->setIcon(0, statusIcon(groupStatus(statuses)));
    earlier->setExpanded(true);
    addPlan();
}

void PlanView::addPlan()
{
    m_items.clear();
    m_records.clear();
    QHash<QString, QTreeWidgetItem *> groups;
    for (const PlanStep &step : DeployPlan::steps()) {
        const QString id = step.stepId();
        const QString group = step.groupText();
        QTreeWidgetItem *g = groups.value(group);
        if (!g) {
            g = new QTreeWidgetItem(this, {group});
            g->setData(0, kStepRole, QString());
            g->setExpanded(true);
            QFont f = g->font(0);
            f.setBold(true);
            g->setFont(0, f);
            groups.insert(group, g);
        }
        StepRecord r;
        r.step = id;
        r.title = step.titleText();
        auto *item = new QTreeWidgetItem(g, {titleOf(r)});
        item->setData(0, kStepRole, id);
        item->setToolTip(0, id);
        m_items.insert(id, item);
        m_records.insert(id, r);
        item->setIcon(0, statusIcon(StepStatus::Pending));
    }
    for (QTreeWidgetItem *g : groups) {
        g->setIcon(0, statusIcon(StepStatus::Pending));
    }
}

bool PlanView::apply(const StepRecord &r, bool followRun)
{
    QTreeWidgetItem *item = m_items.value(r.step);
    if (!item) {
        return false;
    }
    m_records.insert(r.step, r);
    item->setIcon(0, statusIcon(r.status));
    item->setText(0, titleOf(r));
    QTreeWidgetItem *group = item->parent();
    QList<StepStatus> statuses;
    for (int i = 0; i < group->childCount(); ++i) {
        statuses.append(m_records.value(group->child(i)->data(0, kStepRole).toString()).status);
    }
    group->setIcon(0, statusIcon(groupStatus(statuses)));
    // The selection follows the run, unless the operator picked another step to read.
    const QString current = currentStep();
    const bool following = current.isEmpty() || m_records.value(current).status != StepStatus::Fail;
    if (followRun && following && (r.status == StepStatus::Running || r.status == StepStatus::Fail)) {
        setCurrentItem(item);
    }
    return true;
}

void PlanView::showPercent(const QString &step, int percent)
{
    if (QTreeWidgetItem *item = m_items.value(step)) {
        item->setText(0, QStringLiteral("%1 — %2 %").arg(titleOf(m_records.value(step))).arg(percent));
    }
}

QString PlanView::currentStep() const
{
    const QTreeWidgetItem *item = currentItem();
    return item ? item->data(0, kStepRole).toString() : QString();
}

void PlanView::select(const QString &step)
{
    if (QTreeWidgetItem *item = m_items.value(step)) {
        setCurrentItem(item);
    }
}

bool PlanView::anyRun() const
{
    return std::any_of(m_records.cbegin(), m_records.cend(),
                       [](const StepRecord &r) { return r.status != StepStatus::Pending; });
}

bool PlanView::allDone() const
{
    return !m_records.isEmpty() && std::all_of(m_records.cbegin(), m_records.cend(), [](const StepRecord &r) {
        return r.status == StepStatus::Pass || r.status == StepStatus::Warn || r.status == StepStatus::Skipped;
    });
}

} // namespace flashdeck::ui

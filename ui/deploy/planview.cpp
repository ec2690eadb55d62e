#include "ui/deploy/planview.h"

#include "backend/deploy/deployplan.h"

#include <QIcon>

#include <algorithm>

namespace flashdeck::ui {

namespace {

constexpr int kStepRole = Qt::UserRole + 1;

/** The one title of a step (translated when shown); the record's own for an id not known here. */
QString titleOf(const recipe::StepRecord &r)
{
    return deploy::DeployPlan::title(r.step, r.title.isEmpty() ? r.step : r.title);
}

QIcon statusIcon(recipe::StepStatus s)
{
    return QIcon(QStringLiteral(":/icons/status-%1.svg").arg(recipe::stepStatusName(s)));
}

/** A group's status: the worst of its steps, running first. */
recipe::StepStatus groupStatus(const QList<recipe::StepStatus> &steps)
{
    auto has = [&steps](recipe::StepStatus s) { return steps.contains(s); };
    if (has(recipe::StepStatus::Running)) {
        return recipe::StepStatus::Running;
    }
    if (has(recipe::StepStatus::Fail)) {
        return recipe::StepStatus::Fail;
    }
    if (has(recipe::StepStatus::Pending)) {
        return steps.count(recipe::StepStatus::Pending) == steps.size() ? recipe::StepStatus::Pending
                                                                        : recipe::StepStatus::Running;
    }
    if (has(recipe::StepStatus::Unknown)) {
        return recipe::StepStatus::Unknown;
    }
    if (has(recipe::StepStatus::Warn)) {
        return recipe::StepStatus::Warn;
    }
    return steps.count(recipe::StepStatus::Skipped) == steps.size() ? recipe::StepStatus::Skipped
                                                                    : recipe::StepStatus::Pass;
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
    QList<recipe::StepStatus> statuses;
    for (QTreeWidgetItem *group : ran) {
        earlier->addChild(group);
        QList<recipe::StepStatus> mine;
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem *step = group->child(i);
            const recipe::StepRecord r = m_records.value(step->data(0, kStepRole).toString());
            mine.append(r.status);
            // Read-only now: the id belongs to the new plan; what it saw stays on hover.
            step->setData(0, kStepRole, QString());
            step->setToolTip(0, r.seen.isEmpty() ? r.step : r.seen);
        }
        group->setExpanded(groupStatus(mine) != recipe::StepStatus::Pass); // where it failed, open
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
    for (const deploy::PlanStep &step : deploy::DeployPlan::steps()) {
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
        recipe::StepRecord r;
        r.step = id;
        r.title = step.titleText();
        auto *item = new QTreeWidgetItem(g, {titleOf(r)});
        item->setData(0, kStepRole, id);
        item->setToolTip(0, id);
        m_items.insert(id, item);
        m_records.insert(id, r);
        item->setIcon(0, statusIcon(recipe::StepStatus::Pending));
    }
    for (QTreeWidgetItem *g : groups) {
        g->setIcon(0, statusIcon(recipe::StepStatus::Pending));
    }
}

bool PlanView::apply(const recipe::StepRecord &r, bool followRun)
{
    QTreeWidgetItem *item = m_items.value(r.step);
    if (!item) {
        return false;
    }
    m_records.insert(r.step, r);
    item->setIcon(0, statusIcon(r.status));
    item->setText(0, titleOf(r));
    QTreeWidgetItem *group = item->parent();
    QList<recipe::StepStatus> statuses;
    for (int i = 0; i < group->childCount(); ++i) {
        statuses.append(m_records.value(group->child(i)->data(0, kStepRole).toString()).status);
    }
    group->setIcon(0, statusIcon(groupStatus(statuses)));
    // The selection follows the run, unless the operator picked another step to read.
    const QString current = currentStep();
    const bool following = current.isEmpty() || m_records.value(current).status != recipe::StepStatus::Fail;
    if (followRun && following && (r.status == recipe::StepStatus::Running || r.status == recipe::StepStatus::Fail)) {
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
                       [](const recipe::StepRecord &r) { return r.status != recipe::StepStatus::Pending; });
}

bool PlanView::allDone() const
{
    return !m_records.isEmpty() && std::all_of(m_records.cbegin(), m_records.cend(), [](const recipe::StepRecord &r) {
        return r.status == recipe::StepStatus::Pass || r.status == recipe::StepStatus::Warn ||
            r.status == recipe::StepStatus::Skipped;
    });
}

} // namespace flashdeck::ui

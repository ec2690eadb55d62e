#include "ui/deploy/planview.h"

#include "backend/deploy/deployrunner.h"

#include <QIcon>

#include <algorithm>

namespace flashdeck::ui {

namespace {

constexpr int kStepRole = Qt::UserRole + 1;

/** The plan's groups (issue 6) and the titles shown before a step has run. */
QString groupOf(const QString &step)
{
    if (step.startsWith(QLatin1String("preflight."))) {
        return QObject::tr("Pre-flight");
    }
    if (step == QLatin1String("license")) {
        return QObject::tr("Licence");
    }
    if (step.startsWith(QLatin1String("pin."))) {
        //: The deployment phase that fixes the image digest and model revision (固定), not a UI pin.
        return QObject::tr("Pin");
    }
    if (step == QLatin1String("pull")) {
        //: The deployment phase that downloads the image (docker pull).
        return QObject::tr("Pull");
    }
    if (step == QLatin1String("verify.gpus") || step == QLatin1String("launch") || step == QLatin1String("ready")) {
        //: The deployment phase that starts the SGLang server.
        return QObject::tr("Launch");
    }
    //: The deployment phase that sends test requests to the running server.
    return QObject::tr("Verify");
}

QString defaultTitle(const QString &step)
{
    // Not static: built in the language spoken when asked (a table kept from the first call
    // would keep that call's language).
    const QHash<QString, QString> titles{
        {QStringLiteral("preflight.ssh"), QObject::tr("SSH connection")},
        {QStringLiteral("preflight.gpus"), QObject::tr("GPUs")},
        {QStringLiteral("preflight.driver"), QObject::tr("Driver supports the CUDA 13.4 runtime")},
        {QStringLiteral("preflight.docker"), QObject::tr("Docker Engine and GPU runtime")},
        {QStringLiteral("preflight.gpumemory"), QObject::tr("GPU memory free for the server")},
        {QStringLiteral("preflight.disk"), QObject::tr("Free disk for weights and image")},
        {QStringLiteral("preflight.port"), QObject::tr("Server port free")},
        {QStringLiteral("preflight.memory"), QObject::tr("Host memory")},
        {QStringLiteral("preflight.weights"), QObject::tr("Model folder (offline weights)")},
        {QStringLiteral("license"), QObject::tr("Licence acknowledged")},
        {QStringLiteral("pin.image"), QObject::tr("Pin the image to its digest")},
        {QStringLiteral("pin.model"), QObject::tr("Pin the model revision")},
        {QStringLiteral("pull"), QObject::tr("Pull the pinned image")},
        {QStringLiteral("verify.gpus"), QObject::tr("GPUs visible inside a container")},
        {QStringLiteral("launch"), QObject::tr("Start SGLang")},
        {QStringLiteral("ready"), QObject::tr("Ready: weights loaded, health OK")},
        {QStringLiteral("check.qmul4"), QObject::tr("qmul4 fast path")},
        {QStringLiteral("check.dspark"), QObject::tr("DSpark draft loaded")},
        {QStringLiteral("check.kvpool"), QObject::tr("KV pool size")},
        {QStringLiteral("verify.text"), QObject::tr("Text generation")},
        {QStringLiteral("verify.thinking"), QObject::tr("Thinking off")},
        {QStringLiteral("verify.image"), QObject::tr("Image input")},
    };
    return titles.value(step, step);
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
    m_items.clear();
    m_records.clear();
    QHash<QString, QTreeWidgetItem *> groups;
    for (const QString &id : DeployRunner::stepIds()) {
        const QString group = groupOf(id);
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
        auto *item = new QTreeWidgetItem(g, {defaultTitle(id)});
        item->setData(0, kStepRole, id);
        item->setToolTip(0, id);
        m_items.insert(id, item);
        StepRecord r;
        r.step = id;
        r.title = defaultTitle(id);
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
    item->setText(0, r.title.isEmpty() ? defaultTitle(r.step) : r.title);
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
        item->setText(0, QStringLiteral("%1 — %2 %").arg(m_records.value(step).title).arg(percent));
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

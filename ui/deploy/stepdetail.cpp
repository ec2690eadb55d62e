#include "ui/deploy/stepdetail.h"

#include "backend/core/format.h"
#include "backend/deploy/deployplan.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace flashdeck::ui {

namespace {

QLabel *wrapped(QWidget *parent, const QString &name)
{
    auto *l = new QLabel(parent);
    l->setObjectName(name);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    // A word-wrapped label is still as wide as its longest word: a launch line's
    // "--query-gpu=index,name,…" or a digest would widen the window past the screen (1366 →
    // 1420 → 2378 px seen). Its width is what the pane gives it; what does not fit is in the
    // tooltip and behind Copy.
    l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    l->setMinimumWidth(120);
    return l;
}

QString statusWords(recipe::StepStatus s)
{
    switch (s) {
    case recipe::StepStatus::Pending:
        return QObject::tr("Not run yet");
    case recipe::StepStatus::Running:
        return QObject::tr("Running…");
    case recipe::StepStatus::Pass:
        return QObject::tr("✓ Passed");
    case recipe::StepStatus::Warn:
        return QObject::tr("⚠ Passed with a warning");
    case recipe::StepStatus::Fail:
        return QObject::tr("✗ Failed");
    case recipe::StepStatus::Skipped:
        return QObject::tr("Skipped");
    case recipe::StepStatus::Unknown:
        return QObject::tr("Could not tell");
    }
    return {};
}

} // namespace

StepDetail::StepDetail(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_status(new QLabel(this))
    , m_why(wrapped(this, QStringLiteral("stepWhy")))
    , m_command(wrapped(this, QStringLiteral("stepCommand")))
    , m_copy(new QPushButton(tr("Copy"), this))
    , m_bar(new QProgressBar(this))
    , m_progress(new QLabel(this))
    , m_layersToggle(new QPushButton(this))
    , m_layers(new QLabel(this))
    , m_expected(wrapped(this, QStringLiteral("stepExpected")))
    , m_seen(wrapped(this, QStringLiteral("stepSeen")))
    , m_fix(wrapped(this, QStringLiteral("stepFix")))
{
    setObjectName(QStringLiteral("stepDetail"));
    setAutoFillBackground(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 10, 12, 10);
    QFont f = m_title->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    m_title->setFont(f);
    m_title->setObjectName(QStringLiteral("stepTitle"));
    m_status->setObjectName(QStringLiteral("stepStatus"));
    auto *head = new QHBoxLayout;
    head->addWidget(m_title, 1);
    head->addWidget(m_status);
    layout->addLayout(head);

    auto *form = new QFormLayout;
    m_form = form;
    form->setLabelAlignment(Qt::AlignLeft | Qt::AlignTop);
    form->addRow(tr("Why:"), m_why);
    auto *commandRow = new QHBoxLayout;
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_copy->setObjectName(QStringLiteral("copyCommand"));
    m_copy->setToolTip(tr("Copy the command (secrets are already redacted)"));
    commandRow->addWidget(m_command, 1);
    commandRow->addWidget(m_copy, 0, Qt::AlignTop);
    form->addRow(tr("Runs:"), commandRow);
    auto *progressBox = new QVBoxLayout;
    m_bar->setObjectName(QStringLiteral("stepProgressBar"));
    m_bar->setTextVisible(true);
    m_progress->setObjectName(QStringLiteral("stepProgress"));
    m_progress->setWordWrap(true); // a download's line (bytes, rate, time left) must not widen the window
    progressBox->addWidget(m_bar);
    progressBox->addWidget(m_progress);
    m_layersToggle->setObjectName(QStringLiteral("layersToggle"));
    m_layersToggle->setFlat(true);
    m_layersToggle->setCheckable(true);
    m_layersToggle->setStyleSheet(QStringLiteral("text-align: left"));
    m_layers->setObjectName(QStringLiteral("layers"));
    m_layers->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_layers->setTextInteractionFlags(Qt::TextSelectableByMouse);
    progressBox->addWidget(m_layersToggle, 0, Qt::AlignLeft);
    progressBox->addWidget(m_layers);
    connect(m_layersToggle, &QPushButton::toggled, this, [this](bool open) {
        m_layers->setVisible(open);
        m_layersToggle->setText(m_layersToggle->text().replace(0, 1, open ? QStringLiteral("▾") : QStringLiteral("▸")));
    });
    form->addRow(QString(), progressBox);
    form->addRow(tr("Expected:"), m_expected);
    form->addRow(tr("Seen:"), m_seen);
    form->addRow(tr("What to do:"), m_fix);
    layout->addLayout(form);
    layout->addStretch(1);
    connect(m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_record.command); });
    clearProgress();
    show(recipe::StepRecord());
}

void StepDetail::show(const recipe::StepRecord &r)
{
    const bool sameStep = r.step == m_record.step;
    m_record = r;
    const QString title = deploy::DeployPlan::title(r.step, r.title); // translated when shown
    m_title->setText(title.isEmpty() ? tr("Select a step") : title);
    m_status->setText(r.step.isEmpty() ? QString() : statusWords(r.status));
    m_why->setText(r.why.isEmpty() ? fmt::unknown() : r.why);
    m_command->setText(!r.command.isEmpty()   ? r.command
                           : r.step.isEmpty() ? QString()
                                              : tr("(no command: checked from what earlier steps saw)"));
    m_copy->setEnabled(!r.command.isEmpty());
    m_expected->setText(r.expected.isEmpty() ? fmt::unknown() : r.expected);
    m_seen->setText(r.seen.isEmpty() ? (r.status == recipe::StepStatus::Running ? tr("(in progress)") : fmt::unknown())
                                     : r.seen);
    m_fix->setText(r.fix);
    m_form->setRowVisible(m_fix, !r.fix.isEmpty());
    for (QLabel *l : {m_why, m_command, m_expected, m_seen, m_fix}) {
        l->setToolTip(l->text()); // whole, when a word is longer than the pane is wide
    }
    // A failed step turns the pane red; a warning amber. Tints over the palette's own base,
    // so it reads in light and dark themes.
    QPalette pal = QApplication::palette();
    if (r.status == recipe::StepStatus::Fail || r.status == recipe::StepStatus::Warn) {
        const QColor tint = r.status == recipe::StepStatus::Fail ? QColor(0xd7, 0x30, 0x27) : QColor(0xe6, 0x9f, 0x00);
        const QColor base = pal.color(QPalette::Window);
        pal.setColor(QPalette::Window,
                     QColor((base.red() * 5 + tint.red()) / 6, (base.green() * 5 + tint.green()) / 6,
                            (base.blue() * 5 + tint.blue()) / 6));
    }
    setPalette(pal);
    if (!sameStep || r.status != recipe::StepStatus::Running) {
        clearProgress();
    }
}

void StepDetail::setProgress(const recipe::StepProgress &p, double ratePerSecond, bool inBytes)
{
    const qint64 done = p.done;
    const qint64 total = p.total;
    m_bar->setVisible(true);
    m_progress->setVisible(true);
    if (total > 0 && p.percent >= 0) {
        // The step's percent, which never goes back even while the total is an estimate (per-mille
        // range, as before: tests and themes read the bar's value on that scale).
        m_bar->setRange(0, 1000);
        m_bar->setValue(p.percent * 10);
        const QString of = p.totalKnown ? QString() : tr("about ");
        m_bar->setFormat(inBytes ? QStringLiteral("%1 / %2%3").arg(fmt::bytes(done), of, fmt::bytes(total))
                                 : QStringLiteral("%1 / %2%3").arg(done).arg(of).arg(total));
    } else {
        m_bar->setRange(0, 0); // busy
    }
    QStringList parts;
    if (ratePerSecond > 0 && inBytes) {
        parts << tr("%1/s").arg(fmt::bytes(qint64(ratePerSecond)));
        if (total > done) {
            // With sizes still unknown, the estimate counts them at the mean size: "about".
            const double seconds = double(total - done) / ratePerSecond;
            const QString left = fmt::duration(seconds);
            parts << (seconds < 1        ? tr("under a second left") // never "0 s left"
                          : p.totalKnown ? tr("%1 left").arg(left)
                                         : tr("about %1 left").arg(left));
        }
    }
    if (!p.text.isEmpty()) {
        parts << p.text;
    }
    m_progress->setText(parts.join(QStringLiteral(" · ")));
}

void StepDetail::clearProgress()
{
    m_bar->setVisible(false);
    m_progress->setVisible(false);
    m_progress->clear();
    m_layersToggle->setVisible(false);
    m_layers->setVisible(false);
}

void StepDetail::setLayers(const QStringList &layers)
{
    m_layersToggle->setVisible(!layers.isEmpty());
    m_layersToggle->setText(tr("%1 layers (%2)")
                                .arg(m_layersToggle->isChecked() ? QStringLiteral("▾") : QStringLiteral("▸"))
                                .arg(layers.size()));
    m_layers->setText(layers.join(QLatin1Char('\n')));
    m_layers->setVisible(m_layersToggle->isChecked() && !layers.isEmpty());
}

} // namespace flashdeck::ui

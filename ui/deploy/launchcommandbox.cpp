#include "ui/deploy/launchcommandbox.h"

#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QStyleOptionGroupBox>
#include <QStylePainter>
#include <QVBoxLayout>

namespace flashdeck::ui {

LaunchCommandBox::LaunchCommandBox(QWidget *parent)
    : QGroupBox(tr("Use the configuration generator's command"), parent)
    , m_edit(new QPlainTextEdit(this))
    , m_preview(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("launchCommandBox"));
    setCheckable(true);
    setChecked(false);
    // Never taller than what it shows: switched off it is one line, not an empty frame the
    // page's spare height went to.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_edit->setObjectName(QStringLiteral("launchCommand"));
    m_edit->setFont(fixed);
    m_edit->setTabChangesFocus(true); // Tab leaves the box, as in every other field of the page
    m_edit->setPlaceholderText(tr("Paste what SGLang's configuration generator printed: python3 -m "
                                  "sglang.launch_server …, sglang serve … or docker run … IMAGE …"));
    m_edit->setAccessibleName(tr("The configuration generator's command"));
    const int line = m_edit->fontMetrics().lineSpacing();
    m_edit->setFixedHeight(line * 4 + 12);
    m_preview->setObjectName(QStringLiteral("launchCommandPreview"));
    m_preview->setReadOnly(true);
    m_preview->setTabChangesFocus(true);
    m_preview->setFont(fixed);
    m_preview->setAccessibleName(tr("What will run"));
    // Bounded: at 1366 × 768 the plan's steps keep their room; the rest scrolls.
    m_preview->setFixedHeight(line * 6 + 12);
    layout->addWidget(m_edit);
    layout->addWidget(m_preview);
    m_edit->setVisible(false);
    m_preview->setVisible(false);
    showFrame(false);
    connect(this, &QGroupBox::toggled, this, [this](bool on) {
        m_edit->setVisible(on);
        showFrame(on || m_required);
        check();
    });
    // The operator's own switch only: the page switching it (another profile) is no edit.
    connect(this, &QGroupBox::clicked, this, &LaunchCommandBox::edited);
    connect(m_edit, &QPlainTextEdit::textChanged, this, [this] {
        check();
        Q_EMIT edited();
    });
}

void LaunchCommandBox::setContext(const recipe::Recipe &recipe, const recipe::RecipeProfile &listed,
                                  const QString &gpus, quint16 port)
{
    m_recipe = recipe;
    m_listed = listed;
    m_gpus = gpus;
    m_port = port;
    check();
}

void LaunchCommandBox::setRequired(bool required)
{
    m_required = required;
    setCheckable(!required); // needed: nothing to switch off
    if (!required) {
        setChecked(!m_edit->toPlainText().trimmed().isEmpty());
    }
    m_edit->setVisible(required || isChecked());
    showFrame(required || isChecked());
    check();
}

void LaunchCommandBox::showFrame(bool shown)
{
    // Switched off: the checkbox alone. Fusion draws a group box's frame even when it is flat
    // (an empty grey bar under the checkbox, seen at 1366 × 768): paintEvent leaves it out, and
    // its room goes too.
    setFlat(!shown);
    QWidget::layout()->setContentsMargins(shown ? QMargins(8, 4, 8, 4) : QMargins());
    setMaximumHeight(shown ? QWIDGETSIZE_MAX : sizeHint().height());
}

void LaunchCommandBox::paintEvent(QPaintEvent *event)
{
    if (!isFlat()) {
        QGroupBox::paintEvent(event);
        return;
    }
    QStylePainter painter(this);
    QStyleOptionGroupBox option;
    initStyleOption(&option);
    option.subControls &= ~QStyle::SC_GroupBoxFrame;
    painter.drawComplexControl(QStyle::CC_GroupBox, option);
}

QString LaunchCommandBox::text() const
{
    return m_required || isChecked() ? m_edit->toPlainText() : QString();
}

void LaunchCommandBox::setText(const QString &text)
{
    if (!m_required) {
        setChecked(true);
    }
    m_edit->setPlainText(text);
}

QString LaunchCommandBox::advice(const QString &hardware)
{
    return tr("%1 has no verified command on the deployment page: for GB-series, B200, H200 or AMD GPUs, paste the "
              "command SGLang's configuration generator printed into “Use the configuration generator's command”. "
              "Flashdeck keeps its flags and sets the model, its pinned revision, the port and the key; the B300 "
              "flags are never used here.")
        .arg(hardware);
}

void LaunchCommandBox::check()
{
    m_launch.reset();
    m_layout.reset();
    m_problem.clear();
    const QString command = text();
    if (!m_recipe || !m_listed || command.trimmed().isEmpty()) {
        m_preview->setPlainText(m_required ? advice(m_listed ? m_listed->title : QString()) : QString());
        m_preview->setStyleSheet(QString());
        showPreview();
        Q_EMIT changed();
        return;
    }
    // The window deploys from the Hub at the recipe's revision; the pin step fixes its commit.
    const auto made = recipe::ImportedLaunch::forProfile(*m_recipe, *m_listed, command, m_gpus, m_port,
                                                         m_recipe->modelRevision, false);
    if (!made) {
        m_problem = made.message();
        m_preview->setPlainText(m_problem);
        m_preview->setStyleSheet(QStringLiteral("color: palette(text); background-color: rgba(215,48,39,0.12);"));
    } else {
        m_launch = made.value().first;
        m_layout = made.value().second;
        m_preview->setPlainText(m_launch->preview().join(QLatin1Char('\n')));
        m_preview->setStyleSheet(QString());
    }
    showPreview();
    Q_EMIT changed();
}

void LaunchCommandBox::showPreview()
{
    // An empty preview is six lines of nothing: at 1366 × 768 the plan's steps need them.
    m_preview->setVisible((m_required || isChecked()) && !m_preview->toPlainText().isEmpty());
}

} // namespace flashdeck::ui

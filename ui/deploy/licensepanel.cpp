#include "ui/deploy/licensepanel.h"

#include "backend/deploy/acknowledgements.h"
#include "backend/recipe/licenseterms.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QEvent>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace flashdeck::ui {

LicensePanel::LicensePanel(const recipe::LicenseTerms &terms, deploy::Acknowledgements &store, QWidget *parent)
    : QWidget(parent)
    , m_terms(terms)
    , m_store(store)
    , m_uses(new QButtonGroup(this))
    , m_button(new QPushButton(tr("Acknowledge"), this))
    , m_state(new QLabel(this))
{
    setObjectName(QStringLiteral("licensePanel"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *content = new QWidget(scroll);
    auto *layout = new QVBoxLayout(content);
    layout->setSpacing(8);

    addSummary(content, layout);
    addChoices(content, layout);
    layout->addStretch(1);
    scroll->setWidget(content);
    outer->addWidget(scroll, 1);
    m_scroll = scroll;
    addFooter(outer);
    setChoiceTabOrder();

    connect(m_uses, &QButtonGroup::idClicked, this, &LicensePanel::updateState);
    connect(m_button, &QPushButton::clicked, this, [this] { (void)acknowledge(); });
    updateState();
}

void LicensePanel::addSummary(QWidget *content, QVBoxLayout *layout)
{
    auto *title = new QLabel(tr("%1 — before the weights are pinned and pulled").arg(m_terms.name()), content);
    QFont f = title->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    title->setFont(f);
    title->setWordWrap(true);
    layout->addWidget(title);
    for (const QString &paragraph : m_terms.summary()) {
        auto *p = new QLabel(paragraph, content);
        p->setWordWrap(true);
        p->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(p);
    }
    auto *link = new QLabel(
        tr("<a href=\"%1\">Read the full licence on the model card</a>").arg(m_terms.fullTextUrl().toHtmlEscaped()),
        content);
    link->setObjectName(QStringLiteral("licenseLink"));
    link->setOpenExternalLinks(true);
    link->setTextInteractionFlags(Qt::TextBrowserInteraction);
    layout->addWidget(link);
}

void LicensePanel::addChoices(QWidget *content, QVBoxLayout *layout)
{
    layout->addSpacing(6);
    auto *useTitle = new QLabel(tr("<b>How will this deployment be used?</b>"), content);
    layout->addWidget(useTitle);
    int id = 0;
    for (const recipe::LicenseTerms::Use &u : m_terms.uses()) {
        auto *radio = new QRadioButton(content);
        radio->setObjectName(QStringLiteral("use_") + u.id);
        radio->setProperty("useId", u.id);
        m_uses->addButton(radio, id++);
        addWithLabel(content, layout, radio, u.label);
    }
    layout->addSpacing(6);
    for (const QString &c : m_terms.confirmations()) {
        auto *box = new QCheckBox(content);
        box->setObjectName(QStringLiteral("confirm%1").arg(m_confirmations.size()));
        m_confirmations.append(box);
        addWithLabel(content, layout, box, c);
        connect(box, &QCheckBox::toggled, this, &LicensePanel::updateState);
    }
}

// A radio button or a check box does not wrap its text: each has a wrapping label beside it
// (a click on it clicks the button), so the summary fits the pane at any width.
void LicensePanel::addWithLabel(QWidget *content, QVBoxLayout *layout, QAbstractButton *button, const QString &text)
{
    auto *row = new QHBoxLayout;
    auto *label = new QLabel(text, content);
    label->setWordWrap(true);
    label->setProperty("clicks", QVariant::fromValue(static_cast<QObject *>(button)));
    label->installEventFilter(this);
    button->setAccessibleName(text);
    row->addWidget(button, 0, Qt::AlignTop);
    row->addWidget(label, 1);
    layout->addLayout(row);
}

void LicensePanel::addFooter(QVBoxLayout *outer)
{
    // Acknowledge and what it recorded stay below the text, outside its scroll: at 1366 × 768 the
    // summary is taller than its pane and the button was below the fold (a dialog's buttons never
    // scroll away either).
    auto *row = new QHBoxLayout;
    row->setContentsMargins(9, 4, 9, 4);
    m_button->setObjectName(QStringLiteral("acknowledgeLicense"));
    row->addWidget(m_button, 0, Qt::AlignTop);
    m_state->setObjectName(QStringLiteral("licenseState"));
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(m_state, 1);
    outer->addLayout(row);
}

void LicensePanel::setChoiceTabOrder()
{
    // Tab goes as the panel reads: the use, each confirmation, then Acknowledge. The button is
    // made first (a member), so without this it came 23 Tabs later, after the host bar.
    QList<QWidget *> order;
    for (QAbstractButton *b : m_uses->buttons()) {
        order.append(b);
    }
    for (QCheckBox *box : std::as_const(m_confirmations)) {
        order.append(box);
    }
    order.append(m_button);
    for (qsizetype i = 0; i + 1 < order.size(); ++i) {
        setTabOrder(order.at(i), order.at(i + 1));
    }
}

void LicensePanel::setHost(const QString &host)
{
    m_host = host;
    m_use.clear();
    m_record.clear();
    m_state->clear();
    const auto found = m_store.find(host, m_terms);
    if (!found) {
        m_state->setText(found.message());
    } else if (const auto &ack = found.value()) {
        showRecord(*ack);
        for (QAbstractButton *b : m_uses->buttons()) {
            b->setChecked(b->property("useId").toString() == ack->use);
        }
        for (QCheckBox *c : m_confirmations) {
            c->setChecked(true);
        }
    } else {
        // Nothing is ticked for a host (or a summary) not acknowledged yet: the acknowledgement is
        // the operator's act, never carried over from the host shown before.
        m_uses->setExclusive(false);
        for (QAbstractButton *b : m_uses->buttons()) {
            b->setChecked(false);
        }
        m_uses->setExclusive(true);
        for (QCheckBox *c : m_confirmations) {
            c->setChecked(false);
        }
        m_state->setText(host.isEmpty() ? QString()
                                        : tr("Not yet acknowledged for %1 (or the summary changed since): the plan "
                                             "stops before Pin until it is.")
                                              .arg(host));
    }
    updateState();
}

void LicensePanel::choose(const QString &useId)
{
    for (QAbstractButton *b : m_uses->buttons()) {
        if (b->property("useId").toString() == useId) {
            b->setChecked(true);
        }
    }
    updateState();
}

void LicensePanel::confirmAll(bool on)
{
    for (QCheckBox *c : m_confirmations) {
        c->setChecked(on);
    }
}

void LicensePanel::updateState()
{
    bool confirmed = true;
    for (QCheckBox *c : m_confirmations) {
        confirmed = confirmed && c->isChecked();
    }
    m_button->setEnabled(!m_host.isEmpty() && m_uses->checkedButton() && confirmed);
    m_button->setToolTip(m_button->isEnabled() ? QString()
                                               : tr("Pick the kind of use and tick both confirmations first."));
}

bool LicensePanel::acknowledge()
{
    if (!m_button->isEnabled()) {
        return false;
    }
    const QString use = m_uses->checkedButton()->property("useId").toString();
    const deploy::Acknowledgement ack = deploy::Acknowledgements::make(m_host, m_terms, use, QStringLiteral("gui"));
    if (const Status s = m_store.record(ack); !s) {
        m_state->setText(s.message());
        return false;
    }
    showRecord(ack);
    Q_EMIT acknowledged(use);
    return true;
}

void LicensePanel::showRecord(const deploy::Acknowledgement &ack)
{
    m_use = ack.use;
    m_record = tr("%1 at %2, summary sha256 %3").arg(ack.user, ack.at, ack.summarySha256);
    const recipe::LicenseTerms::Use *u = m_terms.use(ack.use);
    // Each language named in its own words; records from before languages were recorded say so.
    const QString shownIn = ack.language == QLatin1String("zh_CN") ? QStringLiteral("简体中文")
        : ack.language == QLatin1String("en")                      ? QStringLiteral("English")
                                                                   : tr("language not recorded");
    m_state->setText(tr("✓ Acknowledged for %1 by %2 at %3 (%4).\nText shown: %6, sha256 %5")
                         .arg(u ? u->label : ack.use, ack.user, ack.at, ack.via, ack.summarySha256, shownIn));
}

bool LicensePanel::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::MouseButtonRelease) {
        if (auto *button = qobject_cast<QAbstractButton *>(watched->property("clicks").value<QObject *>());
            button && button->isEnabled()) {
            button->click();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void LicensePanel::focusChoice()
{
    QAbstractButton *first = m_uses->checkedButton();
    if (!first && !m_uses->buttons().isEmpty()) {
        first = m_uses->buttons().constFirst();
    }
    if (first) {
        first->setFocus(Qt::TabFocusReason);
        m_scroll->ensureWidgetVisible(first);
    }
}

} // namespace flashdeck::ui

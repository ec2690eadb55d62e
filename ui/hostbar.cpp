#include "ui/hostbar.h"

#include "backend/fleet/hostentry.h"
#include "backend/ssh/sshtypes.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace flashdeck::ui {

// The texts keep MainWindow's translation context: they were the window's, and are translated as such.

HostBar::HostBar(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 8, 12, 8);

    auto *label = new QLabel(QCoreApplication::translate("MainWindow", "Host:"), this);
    m_selector = new QComboBox(this);
    m_selector->setObjectName(QStringLiteral("hostSelector"));
    m_selector->setMinimumWidth(260);
    m_selector->setPlaceholderText(QCoreApplication::translate("MainWindow", "No hosts yet"));
    m_selector->setEnabled(false);
    label->setBuddy(m_selector);

    m_state = new QLabel(QCoreApplication::translate("MainWindow", "Add a host to start"), this);
    m_state->setObjectName(QStringLiteral("hostState"));
    // A long error ("failed: …") never widens the window: the bar gives what room it has, the
    // tooltip and the status bar the whole text.
    m_state->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_state->setEnabled(false);

    m_connect = new QToolButton(this);
    m_connect->setObjectName(QStringLiteral("connectButton"));
    m_connect->setText(QCoreApplication::translate("MainWindow", "Connect"));
    m_connect->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_connect->setEnabled(false);
    connect(m_connect, &QToolButton::clicked, this, &HostBar::connectRequested);

    auto *addButton = new QToolButton(this);
    addButton->setObjectName(QStringLiteral("addHostButton"));
    addButton->setText(QCoreApplication::translate("MainWindow", "Add host…"));
    addButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    connect(addButton, &QToolButton::clicked, this, &HostBar::addHostRequested);

    auto *settingsButton = new QToolButton(this);
    settingsButton->setIcon(QIcon(QStringLiteral(":/icons/settings.svg")));
    settingsButton->setToolTip(QCoreApplication::translate("MainWindow", "Settings (Ctrl+6)"));
    settingsButton->setObjectName(QStringLiteral("settingsButton"));
    settingsButton->setAccessibleName(QCoreApplication::translate("MainWindow", "Settings"));
    settingsButton->setAutoRaise(true);
    connect(settingsButton, &QToolButton::clicked, this, &HostBar::settingsRequested);
    // Connect needs a host to connect to.
    connect(m_selector, &QComboBox::currentIndexChanged, this,
            [this] { m_connect->setEnabled(m_selector->currentIndex() >= 0); });

    layout->addWidget(label);
    layout->addWidget(m_selector);
    layout->addWidget(m_connect);
    layout->addWidget(m_state, 1);
    layout->addWidget(addButton);
    layout->addWidget(settingsButton);
}

void HostBar::setHosts(const QList<fleet::HostEntry> &hosts, const QString &select)
{
    m_selector->clear();
    for (const fleet::HostEntry &h : hosts) {
        QString label = h.name + QStringLiteral("  ·  ") + h.sshSpec();
        if (h.simulated) {
            label += QCoreApplication::translate("MainWindow", "  [SIMULATED]");
        }
        m_selector->addItem(label, h.name);
    }
    m_selector->setEnabled(m_selector->count() > 0);
    const int index = m_selector->findData(select);
    m_selector->setCurrentIndex(index >= 0 ? index : (m_selector->count() > 0 ? 0 : -1));
    m_connect->setEnabled(m_selector->currentIndex() >= 0);
}

void HostBar::showNoConnection()
{
    m_state->setText(m_selector->count() == 0 ? QCoreApplication::translate("MainWindow", "Add a host to start")
                                              : QCoreApplication::translate("MainWindow", "not connected"));
    m_state->setPalette(m_selector->palette());
    m_state->setToolTip(QString());
    m_connect->setText(QCoreApplication::translate("MainWindow", "Connect"));
}

void HostBar::showState(const ssh::ConnectionState &state)
{
    m_state->setEnabled(true);
    const QString mark = state.phase == ssh::ConnectionPhase::Ready ? QStringLiteral("● ")
        : state.phase == ssh::ConnectionPhase::Failed               ? QStringLiteral("✕ ")
                                                                    : QStringLiteral("◌ ");
    m_state->setText(mark + state.describe().section(QLatin1Char('\n'), 0, 0));
    // Colour backs up the mark and the words (screens.md: never colour alone).
    QPalette pal = m_selector->palette();
    if (state.phase == ssh::ConnectionPhase::Ready) {
        pal.setColor(QPalette::WindowText, QColor(0x1a, 0x7f, 0x37));
    } else if (state.phase == ssh::ConnectionPhase::Failed) {
        pal.setColor(QPalette::WindowText, QColor(0xc0, 0x1c, 0x28));
    }
    m_state->setPalette(pal);
    m_state->setToolTip(state.error.message.isEmpty() ? state.describe() : state.error.message);
    // A connection that is up stays up (the pages run on it): nothing to do again.
    m_connect->setText(state.phase == ssh::ConnectionPhase::Ready
                           ? QCoreApplication::translate("MainWindow", "Connected")
                           : QCoreApplication::translate("MainWindow", "Connect"));
}

} // namespace flashdeck::ui

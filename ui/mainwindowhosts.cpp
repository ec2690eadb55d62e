// MainWindow's hosts: the inventory it shows in the host bar, the host chosen there and the
// state of that host's one connection. The rest of the window is in mainwindow.cpp.
#include "backend/applog/logging.h"
#include "backend/core/sharedfilewatcher.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostsession.h"
#include "backend/fleet/inventory.h"
#include "backend/ssh/sshtypes.h"
#include "ui/connectioncontroller.h"
#include "ui/dialogs/addhostdialog.h"
#include "ui/hostbar.h"
#include "ui/mainwindow.h"

#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>

#include <spdlog/logger.h>

namespace flashdeck::ui {

void MainWindow::watchInventory()
{
    // Hosts added or removed elsewhere (`flashdeck hosts add`, a second window's demo) show here
    // within a moment; this window's own changes read back the same list and change nothing.
    auto *watch = new SharedFileWatcher(m_inventory.path(), this);
    connect(watch, &SharedFileWatcher::changed, this, [this] {
        const Result<bool> reloaded = m_inventory.reload();
        if (!reloaded) {
            // Being edited by hand, say: the hosts shown stay until it parses again.
            applog::ui().warn("{}", reloaded.message().toStdString());
            statusBar()->showMessage(reloaded.message(), 15000);
            return;
        }
        if (reloaded.value()) {
            inventoryChanged();
        }
    });
}

void MainWindow::inventoryChanged()
{
    reloadHosts(m_hostSelector->currentData().toString());
    updateStatus();
}

void MainWindow::reloadHosts(const QString &select)
{
    m_fleet->setHosts(m_inventory.hosts());
    const QString before = m_hostSelector->currentData().toString();
    QSignalBlocker blocker(m_hostSelector);
    m_hostBar->setHosts(m_inventory.hosts(), select);
    showSelectedHostState();
    blocker.unblock();
    // The host chosen here (at start: the last one, else the first) reaches every page, as a
    // choice in the bar does; "No host chosen" with a host in the bar was wrong.
    if (m_hostSelector->currentData().toString() != before) {
        Q_EMIT m_hostSelector->currentIndexChanged(m_hostSelector->currentIndex());
    }
}

void MainWindow::addHost(const QString &known)
{
    QStringList names;
    for (const fleet::HostEntry &h : m_inventory.hosts()) {
        names.append(h.name);
    }
    auto *dialog = new AddHostDialog(names, m_sshConfigPath, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!known.isEmpty()) {
        dialog->prefill(known, known); // Prometheus names hosts by their address, mostly
    }
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const fleet::HostEntry host = dialog->host();
        // Added to the file as it is now: hosts added elsewhere meanwhile (the command line) stay,
        // and show here with it. The list this window held was written whole before (issue 40).
        if (const Result<QList<fleet::HostEntry>> added = m_inventory.add(host); !added) {
            inventoryChanged(); // what the file holds now, the host that took the name too
            QMessageBox::warning(this, tr("Could not add the host"), added.message());
            return;
        }
        reloadHosts(host.name);
        updateStatus();
        statusBar()->showMessage(tr("Added %1. Connect to check its host key.").arg(host.name), 8000);
    });
    dialog->open();
}

void MainWindow::connectSelectedHost()
{
    // The host's own session, the one every page uses: there is no second connection for the bar.
    if (fleet::HostSession *session = m_fleet->session(m_hostSelector->currentData().toString())) {
        applog::ui().info("the operator asked to connect {}", session->entry().name.toStdString());
        m_controller->connectTo(*session);
    }
}

void MainWindow::showSelectedHostState()
{
    const QString name = m_hostSelector->currentData().toString();
    fleet::HostSession *session = m_fleet->session(name);
    QObject::disconnect(m_stateWatch);
    if (!session) {
        m_hostBar->showNoConnection();
        return;
    }
    // The bar shows the host's one connection, the one every page uses, whether or not the
    // operator pressed Connect (the fleet connects every host in the background).
    m_stateWatch = connect(session, &fleet::HostSession::stateChanged, m_hostBar, &HostBar::showState);
    m_hostBar->showState(session->state());
}

void MainWindow::onConnectionState(const QString &hostName, const ssh::ConnectionState &state)
{
    if (hostName != m_hostSelector->currentData().toString()) {
        return; // another host the operator connected earlier: its own state shows when chosen
    }
    m_hostBar->showState(state);
    m_statusText->setText(QStringLiteral("%1: %2").arg(hostName, state.describe().section(QLatin1Char('\n'), 0, 0)));
    if (state.phase == ssh::ConnectionPhase::Failed && state.error.isError()) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot connect to %1").arg(hostName),
                                    state.error.message.section(QLatin1Char('\n'), 0, 0), QMessageBox::Ok, this);
        box->setDetailedText(state.error.message);
        box->setObjectName(QStringLiteral("connectionError"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
}

void MainWindow::updateStatus()
{
    const qsizetype n = m_inventory.hosts().size();
    m_statusText->setText(n == 0 ? tr("No hosts in the inventory. Add one with \"Add host…\".")
                                 : tr("%n host(s) in the inventory", nullptr, int(n)));
}

} // namespace flashdeck::ui

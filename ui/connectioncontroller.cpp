#include "ui/connectioncontroller.h"

#include "backend/ssh/hostconnection.h"
#include "ui/dialogs/credentialsdialog.h"
#include "ui/dialogs/hostkeydialog.h"

#include <QWidget>

namespace flashdeck::ui {

ConnectionController::ConnectionController(QWidget *dialogParent)
    : QObject(dialogParent)
    , m_dialogParent(dialogParent)
{ }

ConnectionController::~ConnectionController() = default;

void ConnectionController::retireConnection()
{
    if (!m_connection) {
        return;
    }
    // Destroying a connection waits for its thread, which may sit in a blocking connect for
    // up to the connect timeout. Retire it instead: ask it to stop and delete it once it
    // says it has, so the window never freezes.
    ssh::HostConnection *old = m_connection.release();
    old->disconnect(this);
    old->setParent(this); // still cleaned up if the window closes first
    connect(old, &ssh::HostConnection::stateChanged, old, [old](const ssh::ConnectionState &s) {
        if (s.phase == ssh::ConnectionPhase::Disconnected || s.phase == ssh::ConnectionPhase::Failed) {
            old->deleteLater();
        }
    });
    old->disconnectFromHost();
}

void ConnectionController::connectTo(const HostEntry &host)
{
    retireConnection();
    m_host = host;
    m_connection = std::make_unique<ssh::HostConnection>(host.toTarget());
    ssh::HostConnection *c = m_connection.get();
    connect(c, &ssh::HostConnection::stateChanged, this,
            [this](const ssh::ConnectionState &s) { Q_EMIT stateChanged(m_host.name, s); });
    connect(c, &ssh::HostConnection::hostKeyNeedsDecision, this, &ConnectionController::askHostKey);
    connect(c, &ssh::HostConnection::passphraseNeeded, this, &ConnectionController::askPassphrase);
    connect(c, &ssh::HostConnection::passwordNeeded, this, &ConnectionController::askPassword);
    connect(c, &ssh::HostConnection::keyboardInteractiveNeeded, this, &ConnectionController::askKeyboardInteractive);
    c->connectToHost();
}

void ConnectionController::disconnectFromHost()
{
    if (m_connection) {
        m_connection->disconnectFromHost();
    }
}

void ConnectionController::askHostKey(const ssh::HostKeyInfo &info)
{
    auto *dialog = new HostKeyDialog(m_host.name, info, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<ssh::HostConnection> target = m_connection.get();
    connect(dialog, &QDialog::finished, this, [target](int result) {
        if (target) {
            target->answerHostKey(result == QDialog::Accepted);
        }
    });
    dialog->open();
}

void ConnectionController::askPassphrase(const ssh::PassphraseRequest &request)
{
    auto *dialog = new CredentialsDialog(tr("Key passphrase"),
                                         tr("The key %1 is protected by a passphrase.").arg(request.identityFile),
                                         request.previousError, {{tr("Passphrase:"), false}}, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<ssh::HostConnection> target = m_connection.get();
    connect(dialog, &QDialog::finished, this, [dialog, target](int result) {
        if (!target) {
            return;
        }
        target->answerPassphrase(result == QDialog::Accepted ? std::optional<QString>(dialog->takeAnswers().value(0))
                                                             : std::nullopt);
    });
    dialog->open();
}

void ConnectionController::askPassword(const ssh::PasswordRequest &request)
{
    auto *dialog = new CredentialsDialog(tr("Password"), tr("Password for %1@%2.").arg(request.user, request.host),
                                         request.previousError, {{tr("Password:"), false}}, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<ssh::HostConnection> target = m_connection.get();
    connect(dialog, &QDialog::finished, this, [dialog, target](int result) {
        if (!target) {
            return;
        }
        target->answerPassword(result == QDialog::Accepted ? std::optional<QString>(dialog->takeAnswers().value(0))
                                                           : std::nullopt);
    });
    dialog->open();
}

void ConnectionController::askKeyboardInteractive(const ssh::KbdIntChallenge &challenge)
{
    QList<CredentialsDialog::Prompt> prompts;
    for (const ssh::KbdIntPrompt &p : challenge.prompts) {
        prompts.append({p.text, p.echo});
    }
    QString message = challenge.name;
    if (!challenge.instruction.isEmpty()) {
        message += (message.isEmpty() ? QString() : QStringLiteral("\n")) + challenge.instruction;
    }
    auto *dialog = new CredentialsDialog(tr("Sign in to %1").arg(m_host.name), message, {}, prompts, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<ssh::HostConnection> target = m_connection.get();
    connect(dialog, &QDialog::finished, this, [dialog, target](int result) {
        if (!target) {
            return;
        }
        target->answerKeyboardInteractive(
            result == QDialog::Accepted ? std::optional<QStringList>(dialog->takeAnswers()) : std::nullopt);
    });
    dialog->open();
}

} // namespace flashdeck::ui

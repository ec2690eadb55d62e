#include "ui/connectioncontroller.h"

#include "backend/fleet/hostsession.h"
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

void ConnectionController::connectTo(HostSession &session)
{
    attach(session.entry().name, &session.connection());
    session.connectWithOperator();
    // Say where it stands now (a session that is up stays up, and reports nothing new).
    Q_EMIT stateChanged(session.entry().name, session.connection().state());
}

void ConnectionController::attach(const QString &hostName, ssh::HostConnection *c)
{
    if (m_attached.contains(c)) {
        return;
    }
    m_attached.insert(c);
    connect(c, &QObject::destroyed, this, [this, c] { m_attached.remove(c); });
    connect(c, &ssh::HostConnection::stateChanged, this,
            [this, hostName](const ssh::ConnectionState &s) { Q_EMIT stateChanged(hostName, s); });
    connect(c, &ssh::HostConnection::hostKeyNeedsDecision, this,
            [this, hostName, c](const ssh::HostKeyInfo &info) { askHostKey(hostName, c, info); });
    connect(c, &ssh::HostConnection::passphraseNeeded, this,
            [this, hostName, c](const ssh::PassphraseRequest &r) { askPassphrase(hostName, c, r); });
    connect(c, &ssh::HostConnection::passwordNeeded, this,
            [this, c](const ssh::PasswordRequest &r) { askPassword(c, r); });
    connect(c, &ssh::HostConnection::keyboardInteractiveNeeded, this,
            [this, hostName, c](const ssh::KbdIntChallenge &r) { askKeyboardInteractive(hostName, c, r); });
}

void ConnectionController::askHostKey(const QString &hostName, ssh::HostConnection *connection,
                                      const ssh::HostKeyInfo &info)
{
    auto *dialog = new HostKeyDialog(hostName, info, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<ssh::HostConnection> target = connection;
    connect(dialog, &QDialog::finished, this, [target](int result) {
        if (target) {
            target->answerHostKey(result == QDialog::Accepted);
        }
    });
    dialog->open();
}

void ConnectionController::askPassphrase(const QString &hostName, ssh::HostConnection *connection,
                                         const ssh::PassphraseRequest &request)
{
    auto *dialog = new CredentialsDialog(
        tr("Key passphrase"),
        tr("The key %1 is protected by a passphrase (for %2).").arg(request.identityFile, hostName),
        request.previousError, {{tr("Passphrase:"), false}}, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<ssh::HostConnection> target = connection;
    connect(dialog, &QDialog::finished, this, [dialog, target](int result) {
        if (!target) {
            return;
        }
        target->answerPassphrase(result == QDialog::Accepted ? std::optional<QString>(dialog->takeAnswers().value(0))
                                                             : std::nullopt);
    });
    dialog->open();
}

void ConnectionController::askPassword(ssh::HostConnection *connection, const ssh::PasswordRequest &request)
{
    auto *dialog = new CredentialsDialog(tr("Password"), tr("Password for %1@%2.").arg(request.user, request.host),
                                         request.previousError, {{tr("Password:"), false}}, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<ssh::HostConnection> target = connection;
    connect(dialog, &QDialog::finished, this, [dialog, target](int result) {
        if (!target) {
            return;
        }
        target->answerPassword(result == QDialog::Accepted ? std::optional<QString>(dialog->takeAnswers().value(0))
                                                           : std::nullopt);
    });
    dialog->open();
}

void ConnectionController::askKeyboardInteractive(const QString &hostName, ssh::HostConnection *connection,
                                                  const ssh::KbdIntChallenge &challenge)
{
    QList<CredentialsDialog::Prompt> prompts;
    for (const ssh::KbdIntPrompt &p : challenge.prompts) {
        prompts.append({p.text, p.echo});
    }
    QString message = challenge.name;
    if (!challenge.instruction.isEmpty()) {
        message += (message.isEmpty() ? QString() : QStringLiteral("\n")) + challenge.instruction;
    }
    auto *dialog = new CredentialsDialog(tr("Sign in to %1").arg(hostName), message, {}, prompts, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<ssh::HostConnection> target = connection;
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

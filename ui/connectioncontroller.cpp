#include "ui/connectioncontroller.h"

#include "backend/fleet/hostsession.h"
#include "ui/dialogs/credentialsdialog.h"
#include "ui/dialogs/hostkeydialog.h"

#include <QWidget>

namespace flashdeck::ui {

ConnectionController::ConnectionController(QWidget *dialogParent)
    : QObject(dialogParent)
    , m_dialogParent(dialogParent)
{ }

ConnectionController::~ConnectionController() = default;

void ConnectionController::connectTo(fleet::HostSession &session)
{
    attach(&session);
    session.connectWithOperator();
    // Say where it stands now (a session that is up stays up, and reports nothing new).
    Q_EMIT stateChanged(session.entry().name, session.state());
}

void ConnectionController::attach(fleet::HostSession *s)
{
    if (m_attached.contains(s)) {
        return;
    }
    m_attached.insert(s);
    const QString hostName = s->entry().name;
    connect(s, &QObject::destroyed, this, [this, s] { m_attached.remove(s); });
    connect(s, &fleet::HostSession::stateChanged, this,
            [this, hostName](const ssh::ConnectionState &state) { Q_EMIT stateChanged(hostName, state); });
    connect(s, &fleet::HostSession::hostKeyNeedsDecision, this,
            [this, s](const ssh::HostKeyInfo &i) { askHostKey(s, i); });
    connect(s, &fleet::HostSession::passphraseNeeded, this,
            [this, s](const ssh::PassphraseRequest &r) { askPassphrase(s, r); });
    connect(s, &fleet::HostSession::passwordNeeded, this,
            [this, s](const ssh::PasswordRequest &r) { askPassword(s, r); });
    connect(s, &fleet::HostSession::keyboardInteractiveNeeded, this,
            [this, s](const ssh::KbdIntChallenge &r) { askKeyboardInteractive(s, r); });
}

void ConnectionController::askHostKey(fleet::HostSession *session, const ssh::HostKeyInfo &info)
{
    auto *dialog = new HostKeyDialog(session->entry().name, info, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<fleet::HostSession> target = session;
    connect(dialog, &QDialog::finished, this, [target](int result) {
        if (fleet::HostSession *s = target.data()) {
            s->answerHostKey(result == QDialog::Accepted);
        }
    });
    dialog->open();
}

void ConnectionController::askPassphrase(fleet::HostSession *session, const ssh::PassphraseRequest &request)
{
    auto *dialog = new CredentialsDialog(
        tr("Key passphrase"),
        tr("The key %1 is protected by a passphrase (for %2).").arg(request.identityFile, session->entry().name),
        request.previousError, {{tr("Passphrase:"), false}}, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<fleet::HostSession> target = session;
    connect(dialog, &QDialog::finished, this, [dialog, target](int result) {
        fleet::HostSession *s = target.data();
        if (!s) {
            return;
        }
        s->answerPassphrase(result == QDialog::Accepted ? std::optional<QString>(dialog->takeAnswers().value(0))
                                                        : std::nullopt);
    });
    dialog->open();
}

void ConnectionController::askPassword(fleet::HostSession *session, const ssh::PasswordRequest &request)
{
    auto *dialog = new CredentialsDialog(tr("Password"), tr("Password for %1@%2.").arg(request.user, request.host),
                                         request.previousError, {{tr("Password:"), false}}, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<fleet::HostSession> target = session;
    connect(dialog, &QDialog::finished, this, [dialog, target](int result) {
        fleet::HostSession *s = target.data();
        if (!s) {
            return;
        }
        s->answerPassword(result == QDialog::Accepted ? std::optional<QString>(dialog->takeAnswers().value(0))
                                                      : std::nullopt);
    });
    dialog->open();
}

void ConnectionController::askKeyboardInteractive(fleet::HostSession *session, const ssh::KbdIntChallenge &challenge)
{
    QList<CredentialsDialog::Prompt> prompts;
    for (const ssh::KbdIntPrompt &p : challenge.prompts) {
        prompts.append({p.text, p.echo});
    }
    QString message = challenge.name;
    if (!challenge.instruction.isEmpty()) {
        message += (message.isEmpty() ? QString() : QStringLiteral("\n")) + challenge.instruction;
    }
    auto *dialog =
        new CredentialsDialog(tr("Sign in to %1").arg(session->entry().name), message, {}, prompts, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<fleet::HostSession> target = session;
    connect(dialog, &QDialog::finished, this, [dialog, target](int result) {
        fleet::HostSession *s = target.data();
        if (!s) {
            return;
        }
        s->answerKeyboardInteractive(result == QDialog::Accepted ? std::optional<QStringList>(dialog->takeAnswers())
                                                                 : std::nullopt);
    });
    dialog->open();
}

} // namespace flashdeck::ui

#pragma once

#include "backend/ssh/sshtypes.h"

#include <QObject>
#include <QPointer>
#include <QSet>

class QWidget;

namespace flashdeck {
namespace fleet {
class HostSession;
} // namespace fleet
} // namespace flashdeck

namespace flashdeck::ui {

/**
 * The GUI side of the hosts' sessions the operator asked for: turns each connection's requests
 * (host key, passphrase, password, keyboard-interactive) into window-modal dialogs opened
 * asynchronously, and sends the answers back to the session. Never blocks the event loop. The
 * connection is the session's own, the one every page uses: there is no second one for the host bar.
 */
class ConnectionController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionController)

public:
    explicit ConnectionController(QWidget *dialogParent);
    ~ConnectionController() override;

    /** The operator asks for this host: its prompts open dialogs from now on, and it connects. */
    void connectTo(fleet::HostSession &session);

Q_SIGNALS:
    void stateChanged(const QString &hostName, const flashdeck::ssh::ConnectionState &state);

private:
    void attach(fleet::HostSession *session);
    void askHostKey(fleet::HostSession *session, const ssh::HostKeyInfo &info);
    void askPassphrase(fleet::HostSession *session, const ssh::PassphraseRequest &request);
    void askPassword(fleet::HostSession *session, const ssh::PasswordRequest &request);
    void askKeyboardInteractive(fleet::HostSession *session, const ssh::KbdIntChallenge &challenge);

    QPointer<QWidget> m_dialogParent;
    /** The sessions whose prompts this answers (each attached once). */
    QSet<fleet::HostSession *> m_attached;
};

} // namespace flashdeck::ui

#pragma once

#include "backend/fleet/hostentry.h"
#include "backend/ssh/sshtypes.h"

#include <QObject>
#include <QPointer>

#include <memory>

class QWidget;

namespace flashdeck::ssh {
class HostConnection;
}

namespace flashdeck::ui {

/**
 * The GUI side of one host's connection: turns the worker's requests (host key, passphrase,
 * password, keyboard-interactive) into window-modal dialogs opened asynchronously, and
 * sends the answers back. Never blocks the event loop.
 */
class ConnectionController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionController)

public:
    explicit ConnectionController(QWidget *dialogParent);
    ~ConnectionController() override;

    void connectTo(const HostEntry &host);
    void disconnectFromHost();
    const HostEntry &host() const { return m_host; }
    ssh::HostConnection *connection() const { return m_connection.get(); }

Q_SIGNALS:
    void stateChanged(const QString &hostName, const flashdeck::ssh::ConnectionState &state);

private:
    void retireConnection();
    void askHostKey(const ssh::HostKeyInfo &info);
    void askPassphrase(const ssh::PassphraseRequest &request);
    void askPassword(const ssh::PasswordRequest &request);
    void askKeyboardInteractive(const ssh::KbdIntChallenge &challenge);

    QPointer<QWidget> m_dialogParent;
    HostEntry m_host;
    std::unique_ptr<ssh::HostConnection> m_connection;
};

} // namespace flashdeck::ui

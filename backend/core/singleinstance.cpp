#include "backend/core/singleinstance.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QLocalServer>
#include <QLocalSocket>

#include <unistd.h>

namespace flashdeck {

namespace {
constexpr char kActivate[] = "activate\n";
}

SingleInstance::SingleInstance(QString key, QObject *parent)
    : QObject(parent)
    , m_key(std::move(key))
{ }

SingleInstance::~SingleInstance() = default;

QString SingleInstance::keyFor(const QString &configDir)
{
    const QByteArray id = QByteArray::number(::getuid()) + '\0' + configDir.toUtf8();
    return QStringLiteral("flashdeck-") +
        QString::fromLatin1(QCryptographicHash::hash(id, QCryptographicHash::Sha256).toHex().left(20));
}

Result<SingleInstance::Role> SingleInstance::claim(int timeoutMs)
{
    {
        QLocalSocket probe;
        probe.connectToServer(m_key);
        if (probe.waitForConnected(timeoutMs)) {
            probe.write(kActivate);
            probe.flush();
            (void)probe.waitForBytesWritten(timeoutMs);
            probe.disconnectFromServer();
            return Role::Secondary;
        }
    }
    m_server = new QLocalServer(this);
    m_server->setSocketOptions(QLocalServer::UserAccessOption); // only this user may ask
    if (!m_server->listen(m_key)) {
        // Nobody answered, so a socket file left by a crashed instance is in the way.
        QLocalServer::removeServer(m_key);
        if (!m_server->listen(m_key)) {
            return Status::failure(
                QCoreApplication::translate("Core",
                                            "Cannot make sure only one Flashdeck window runs (%1); a second "
                                            "one would open its own window.")
                    .arg(m_server->errorString()));
        }
    }
    connect(m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *s = m_server->nextPendingConnection()) {
            connect(s, &QLocalSocket::readyRead, s, [this, s] {
                if (s->readAll().contains("activate")) {
                    Q_EMIT activationRequested();
                }
                s->disconnectFromServer();
            });
            connect(s, &QLocalSocket::disconnected, s, &QObject::deleteLater);
        }
    });
    return Role::Primary;
}

} // namespace flashdeck

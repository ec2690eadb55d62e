#include "backend/ssh/hostconnection.h"

#include "backend/ssh/commandreply.h"
#include "backend/ssh/sessionworker.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>

#include <cerrno>
#include <cstring>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>

namespace flashdeck::ssh {

namespace {

/** A descriptor closed unless released. */
class FdGuard
{
public:
    explicit FdGuard(int fd)
        : m_fd(fd)
    { }
    ~FdGuard()
    {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
    }
    FdGuard(const FdGuard &) = delete;
    FdGuard &operator=(const FdGuard &) = delete;
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd;
};

} // namespace

namespace {

QByteArray takeUtf8(QString &secret)
{
    QByteArray bytes = secret.toUtf8();
    secret.fill(QLatin1Char('x')); // KIO's habit: overwrite, then clear
    secret.clear();
    return bytes;
}

} // namespace

HostConnection::HostConnection(SshTarget target, QObject *parent)
    : Transport(parent)
    , m_target(std::move(target))
    , m_thread(new QThread)
    , m_worker(new SessionWorker(m_target))
{
    m_thread->setObjectName(QStringLiteral("ssh:%1").arg(m_target.host));
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::started, m_worker, &SessionWorker::initThread);
    // Deleted on its own thread, as libssh requires, when the thread finishes.
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);

    connect(m_worker, &SessionWorker::stateChanged, this, [this](const ConnectionState &s) {
        m_state = s;
        Q_EMIT stateChanged(s);
    });
    connect(m_worker, &SessionWorker::hostKeyVerified, this, &HostConnection::hostKeyVerified);
    connect(m_worker, &SessionWorker::hostKeyNeedsDecision, this, &HostConnection::hostKeyNeedsDecision);
    connect(m_worker, &SessionWorker::passphraseNeeded, this, &HostConnection::passphraseNeeded);
    connect(m_worker, &SessionWorker::keyboardInteractiveNeeded, this, &HostConnection::keyboardInteractiveNeeded);
    connect(m_worker, &SessionWorker::passwordNeeded, this, &HostConnection::passwordNeeded);
    connect(m_worker, &SessionWorker::commandOutput, this,
            [this](quint64 id, const QList<QByteArray> &out, const QList<QByteArray> &err) {
                if (const QPointer<CommandReply> reply = m_commandReplies.value(id)) {
                    reply->deliverOutput(out, err);
                }
                Q_EMIT commandOutput(id, out, err);
                // Handled (slots ran): let the worker read more of this command (flow control).
                const qint64 cost = outputBatchCost(out, err);
                SessionWorker *worker = m_worker;
                QMetaObject::invokeMethod(
                    worker, [worker, id, cost] { worker->acknowledgeOutput(id, cost); }, Qt::QueuedConnection);
            });
    connect(m_worker, &SessionWorker::commandFinished, this, [this](quint64 id, const CommandResult &result) {
        if (const QPointer<CommandReply> reply = m_commandReplies.take(id)) {
            reply->deliverFinished(result);
        }
        Q_EMIT commandFinished(id, result);
    });
    connect(m_worker, &SessionWorker::tunnelReady, this, [this](quint64 id, quint16 port) {
        if (const QPointer<TunnelReply> reply = m_tunnelReplies.value(id)) {
            reply->deliverReady(port);
        }
        Q_EMIT tunnelReady(id, port);
    });
    connect(m_worker, &SessionWorker::tunnelFailed, this, [this](quint64 id, const QString &message) {
        // A tunnel reports failed once: before it was ready, or when the session dropped it.
        if (const QPointer<TunnelReply> reply = m_tunnelReplies.take(id)) {
            reply->deliverFailed(message);
        }
        Q_EMIT tunnelFailed(id, message);
    });
    m_thread->start();
}

HostConnection::~HostConnection()
{
    // Blocking, so the worker stops the remote commands and disconnects before the thread
    // ends (a queued call might never run once quit() is processed). This is the owner waiting
    // for its worker, never the worker waiting for the GUI.
    QMetaObject::invokeMethod(m_worker, &SessionWorker::stop, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

void HostConnection::connectToHost()
{
    QMetaObject::invokeMethod(m_worker, &SessionWorker::start, Qt::QueuedConnection);
}

void HostConnection::disconnectFromHost()
{
    QMetaObject::invokeMethod(m_worker, &SessionWorker::stop, Qt::QueuedConnection);
}

void HostConnection::answerHostKey(bool accept)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, accept] { w->answerHostKey(accept); }, Qt::QueuedConnection);
}

void HostConnection::answerPassphrase(std::optional<QString> passphrase)
{
    const bool given = passphrase.has_value();
    QByteArray bytes = given ? takeUtf8(*passphrase) : QByteArray();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, bytes, given] { w->answerPassphrase(bytes, given); }, Qt::QueuedConnection);
}

void HostConnection::answerKeyboardInteractive(std::optional<QStringList> answers)
{
    const bool given = answers.has_value();
    QList<QByteArray> bytes;
    if (given) {
        for (QString &a : *answers) {
            bytes.append(takeUtf8(a));
        }
    }
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, bytes, given] { w->answerKeyboardInteractive(bytes, given); }, Qt::QueuedConnection);
}

void HostConnection::answerPassword(std::optional<QString> password)
{
    const bool given = password.has_value();
    QByteArray bytes = given ? takeUtf8(*password) : QByteArray();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, bytes, given] { w->answerPassword(bytes, given); }, Qt::QueuedConnection);
}

quint64 HostConnection::run(const RemoteCommand &command)
{
    const quint64 id = m_nextId++;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id, command] { w->runCommand(id, command); }, Qt::QueuedConnection);
    return id;
}

quint64 HostConnection::run(const QByteArray &commandLine, int timeoutMs)
{
    RemoteCommand command;
    command.commandLine = commandLine;
    command.timeoutMs = timeoutMs;
    command.capture = true;
    return run(command);
}

void HostConnection::cancel(quint64 commandId)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, commandId] { w->cancelCommand(commandId); }, Qt::QueuedConnection);
}

quint64 HostConnection::openPortTunnel(const QString &remoteHost, quint16 remotePort, quint16 localPort)
{
    const quint64 id = m_nextId++;
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id, remoteHost, remotePort, localPort] {
            w->openTunnel(id, 0, remoteHost, remotePort, {}, localPort);
        },
        Qt::QueuedConnection);
    return id;
}

quint64 HostConnection::openStdioTunnel(const QByteArray &command)
{
    const quint64 id = m_nextId++;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id, command] { w->openTunnel(id, 1, {}, 0, command, 0); }, Qt::QueuedConnection);
    return id;
}

quint64 HostConnection::openPrivateStdioTunnel(const QByteArray &command)
{
    const quint64 id = m_nextId++;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id, command] { w->openPrivateTunnel(id, 1, {}, 0, command); }, Qt::QueuedConnection);
    return id;
}

quint64 HostConnection::openPrivatePortTunnel(const QString &remoteHost, quint16 remotePort)
{
    const quint64 id = m_nextId++;
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id, remoteHost, remotePort] { w->openPrivateTunnel(id, 0, remoteHost, remotePort, {}); },
        Qt::QueuedConnection);
    return id;
}

LinkOpener HostConnection::privateLink(quint64 tunnelId)
{
    QPointer<HostConnection> self(this);
    return LinkOpener(
        [self, tunnelId](QString *error) -> int {
            HostConnection *connection = self.data(); // one read (see adoptTunnel)
            if (!connection) {
                if (error) {
                    *error = QCoreApplication::translate("Ssh", "Disconnected.");
                }
                return -1;
            }
            int fds[2] = {-1, -1};
            if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0) {
                if (error) {
                    *error = QString::fromLocal8Bit(std::strerror(errno));
                }
                return -1;
            }
            // The worker's end travels in a guard: if the call never runs (the worker went
            // away first), the guard closes it and the client reads an end at once.
            auto theirs = std::make_shared<FdGuard>(fds[0]);
            QMetaObject::invokeMethod(
                connection->m_worker,
                [w = connection->m_worker, tunnelId, theirs] { w->adoptLink(tunnelId, theirs->release()); },
                Qt::QueuedConnection);
            return fds[1];
        },
        QByteArrayLiteral("localhost"));
}

CommandReply *HostConnection::execute(const RemoteCommand &command, QObject *owner)
{
    Q_ASSERT(owner != nullptr);
    const quint64 id = run(command);
    QPointer<HostConnection> self(this);
    auto *reply = new CommandReply(
        [self, id] {
            if (HostConnection *connection = self.data()) { // one read (see adoptTunnel)
                connection->cancel(id);
            }
        },
        owner);
    m_commandReplies.insert(id, reply);
    // A reply gone before its end: forget it (its destructor already asked for the cancel).
    connect(reply, &QObject::destroyed, this, [this, id] { m_commandReplies.remove(id); });
    return reply;
}

TunnelReply *HostConnection::tunnelToPort(const QString &remoteHost, quint16 remotePort, quint16 localPort,
                                          QObject *owner)
{
    return adoptTunnel(openPortTunnel(remoteHost, remotePort, localPort), owner);
}

TunnelReply *HostConnection::tunnelToPort(const QString &remoteHost, quint16 remotePort, QObject *owner)
{
    // Private: every caller is this process (chat, the load test, the samplers, the deploy's
    // health and verify calls), so no port is opened that another local user could reach.
    const quint64 id = openPrivatePortTunnel(remoteHost, remotePort);
    TunnelReply *reply = adoptTunnel(id, owner);
    reply->setLink(privateLink(id));
    return reply;
}

TunnelReply *HostConnection::tunnelToCommand(const QByteArray &command, QObject *owner)
{
    // Private: every caller is this process (the Engine API clients), so no port is opened.
    const quint64 id = openPrivateStdioTunnel(command);
    TunnelReply *reply = adoptTunnel(id, owner);
    reply->setLink(privateLink(id));
    return reply;
}

TunnelReply *HostConnection::adoptTunnel(quint64 id, QObject *owner)
{
    Q_ASSERT(owner != nullptr);
    QPointer<HostConnection> self(this);
    auto *reply = new TunnelReply(
        [self, id] {
            // One read of the QPointer (GCC's -O3 flow analysis treats each read as maybe null).
            // The entry goes with the reply (destroyed, below); a closed reply ignores late reports.
            if (HostConnection *connection = self.data()) {
                connection->closeTunnel(id);
            }
        },
        owner);
    m_tunnelReplies.insert(id, reply);
    connect(reply, &QObject::destroyed, this, [this, id] { m_tunnelReplies.remove(id); });
    return reply;
}

void HostConnection::closeTunnel(quint64 tunnelId)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, tunnelId] { w->closeTunnel(tunnelId); }, Qt::QueuedConnection);
}

} // namespace flashdeck::ssh

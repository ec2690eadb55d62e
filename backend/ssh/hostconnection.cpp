#include "backend/ssh/hostconnection.h"

#include "backend/ssh/sessionworker.h"

#include <QThread>
#include <QVariant>

namespace flashdeck::ssh {

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
    : QObject(parent)
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
                Q_EMIT commandOutput(id, out, err);
                // Handled (slots ran): let the worker read more of this command (flow control).
                const qint64 cost = outputBatchCost(out, err);
                SessionWorker *worker = m_worker;
                QMetaObject::invokeMethod(
                    worker, [worker, id, cost] { worker->acknowledgeOutput(id, cost); }, Qt::QueuedConnection);
            });
    connect(m_worker, &SessionWorker::commandFinished, this, &HostConnection::commandFinished);
    connect(m_worker, &SessionWorker::tunnelReady, this, &HostConnection::tunnelReady);
    connect(m_worker, &SessionWorker::tunnelFailed, this, &HostConnection::tunnelFailed);
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

quint64 HostConnection::openPortTunnel(const QString &remoteHost, quint16 remotePort)
{
    const quint64 id = m_nextId++;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id, remoteHost, remotePort] { w->openTunnel(id, 0, remoteHost, remotePort, {}); },
        Qt::QueuedConnection);
    return id;
}

quint64 HostConnection::openStdioTunnel(const QByteArray &command)
{
    const quint64 id = m_nextId++;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id, command] { w->openTunnel(id, 1, {}, 0, command); }, Qt::QueuedConnection);
    return id;
}

void HostConnection::onTunnel(quint64 tunnelId, QObject *context, std::function<void(quint16)> ready,
                              std::function<void(const QString &)> failed)
{
    auto *once = new QObject(context); // gone after the first report, or with the context
    connect(this, &HostConnection::tunnelReady, once, [tunnelId, once, ready](quint64 id, quint16 port) {
        if (id == tunnelId && !once->property("done").toBool()) {
            once->setProperty("done", true);
            once->deleteLater();
            ready(port);
        }
    });
    connect(this, &HostConnection::tunnelFailed, once, [tunnelId, once, failed](quint64 id, const QString &message) {
        if (id == tunnelId && !once->property("done").toBool()) {
            once->setProperty("done", true);
            once->deleteLater();
            failed(message);
        }
    });
}

void HostConnection::closeTunnel(quint64 tunnelId)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, tunnelId] { w->closeTunnel(tunnelId); }, Qt::QueuedConnection);
}

} // namespace flashdeck::ssh

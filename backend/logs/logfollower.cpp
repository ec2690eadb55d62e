#include "backend/logs/logfollower.h"

#include "backend/core/jsonread.h"
#include "backend/core/sharedbytes.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/dockerendpoint.h"
#include "backend/docker/logframes.h"
#include "backend/docker/ourcontainers.h"
#include "backend/logs/logrules.h"
#include "backend/recipe/recipe.h"
#include "backend/ssh/transport.h"

#include <QCoreApplication>
#include <QNetworkReply>
#include <QTimer>

#include <nlohmann/json.hpp>

namespace flashdeck::logs {

LogFollower::LogFollower(ssh::Transport &connection, const LogRules &rules, Options options, QObject *parent)
    : QObject(parent)
    , m_conn(&connection)
    , m_rules(rules)
    , m_options(std::move(options))
    , m_batch(new QTimer(this))
    , m_retry(new QTimer(this))
{
    m_batch->setSingleShot(true);
    m_batch->setInterval(m_options.batchMs);
    connect(m_batch, &QTimer::timeout, this, &LogFollower::flush);
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, [this] {
        if (!m_running) {
            return;
        }
        if (!m_docker || !m_linkAsked) {
            dropTunnel(); // (a client left from a tunnel that closed)
            openTunnel();
        } else {
            findContainer();
        }
    });
    connect(m_conn, &ssh::Transport::stateChanged, this, &LogFollower::onConnection);
    connect(&docker::DockerEndpoint::of(connection), &docker::DockerEndpoint::closed, this,
            [this](const QString &message) {
                if (!m_linkAsked) {
                    return;
                }
                // What was delivered stays; the retry opens it again and continues from its
                // timestamp (or the connection's loss, reported next, waits for SSH first).
                m_linkAsked = false;
                failOrRetry(message, 5000);
            });
}

LogFollower::~LogFollower()
{
    // No signals from a dying follower: its owner may be half way through resetting its pointer.
    blockSignals(true);
    stop();
}

bool LogFollower::connectionReady() const
{
    // One read of the QPointer (GCC's -O3 flow analysis rightly treats each read as maybe null).
    const ssh::Transport *conn = m_conn.data();
    return conn != nullptr && conn->state().phase == ssh::ConnectionPhase::Ready;
}

void LogFollower::start()
{
    if (m_running) {
        return;
    }
    m_running = true;
    if (connectionReady()) {
        openTunnel();
    } else {
        setState(State::Connecting, QCoreApplication::translate("Logs", "Waiting for the SSH connection"));
    }
}

void LogFollower::stop()
{
    if (!m_running) {
        return;
    }
    m_running = false;
    m_retry->stop();
    dropTunnel();
    flush();
    setState(State::Idle, QCoreApplication::translate("Logs", "Stopped"));
}

void LogFollower::onConnection(const ssh::ConnectionState &state)
{
    if (!m_running) {
        return;
    }
    if (state.phase == ssh::ConnectionPhase::Ready) {
        if (!m_linkAsked) {
            openTunnel();
        }
        return;
    }
    if (!m_linkAsked && !m_docker) {
        return;
    }
    // The session is gone, and every tunnel with it: keep what was delivered, continue from
    // its timestamp once the connection is back.
    dropTunnel();
    if (state.phase == ssh::ConnectionPhase::Failed || !m_options.follow) {
        setState(State::Failed, state.describe());
        if (!m_options.follow) {
            Q_EMIT finished();
        }
        return;
    }
    setState(State::Connecting, QCoreApplication::translate("Logs", "Connection lost; waiting for SSH to reconnect"));
}

void LogFollower::openTunnel()
{
    setState(State::Connecting, QCoreApplication::translate("Logs", "Opening the Docker tunnel"));
    if (!m_conn) {
        return;
    }
    docker::DockerEndpoint &endpoint = docker::DockerEndpoint::of(*m_conn);
    m_linkAsked = true;
    const quint64 attempt = ++m_attempt;
    // Made before it opens: a client on the endpoint keeps its tunnel open.
    m_docker = std::make_unique<docker::DockerClient>(endpoint);
    const auto ready = [this, attempt] {
        if (!m_running || attempt != m_attempt) {
            return;
        }
        m_docker->ping([this](const docker::DockerResponse &res) {
            if (!res.ok()) {
                setState(State::Failed, res.message());
                if (!m_options.follow) {
                    Q_EMIT finished();
                    return;
                }
                dropTunnel();
                retryLater(5000);
                return;
            }
            findContainer();
        });
    };
    const auto failed = [this, attempt](const QString &message) {
        if (attempt != m_attempt) {
            return;
        }
        m_linkAsked = false; // the retry opens it again
        failOrRetry(message, 5000);
    };
    endpoint.whenOpen(this, ready, failed);
}

void LogFollower::dropTunnel()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply = nullptr; // deleted with the client
    }
    if (m_decoder) {
        for (const docker::LogLine &l : m_decoder->finish()) {
            Q_UNUSED(l) // a line cut by the drop: it comes again, whole, after the reconnect
        }
        m_decoder.reset();
    }
    if (m_docker) {
        m_docker->close(); // the host's Docker tunnel closes now if nothing else uses it
        m_docker.release()->deleteLater(); // this may run inside one of its replies' signals
    }
    m_linkAsked = false;
    ++m_attempt; // an opening asked for before is not heard
}

void LogFollower::retryLater(int ms)
{
    if (m_running) {
        m_retry->start(ms);
    }
}

void LogFollower::findContainer()
{
    if (!m_docker) {
        return;
    }
    auto noContainer = [this](const QString &why) {
        if (!m_options.follow) {
            setState(State::Failed, why);
            Q_EMIT finished();
            return;
        }
        setState(State::Waiting, why + QCoreApplication::translate("Logs", " Waiting for one to start."));
        retryLater(2000);
    };
    if (!m_options.container.isEmpty()) {
        m_docker->call("GET", QStringLiteral("/containers/%1/json").arg(docker::DockerClient::q(m_options.container)),
                       {}, [this, noContainer](const docker::DockerResponse &res) {
                           if (res.status == 404) {
                               noContainer(QCoreApplication::translate("Logs", "No container named %1 on %2.")
                                               .arg(m_options.container, m_options.hostName));
                               return;
                           }
                           if (!res.ok()) {
                               failOrRetry(res.message(), 5000); // (not following, this used to wait forever)
                               return;
                           }
                           const nlohmann::json j = res.json();
                           m_containerId = QString::fromStdString(jsonread::string(j, "Id"));
                           m_containerName = QString::fromStdString(jsonread::string(j, "Name")).mid(1);
                           openStreamIfRunning(j.value("State", nlohmann::json::object()).value("Running", false));
                       });
        return;
    }
    const QString filter = docker::OurContainers::filter();
    m_docker->call(
        "GET", QStringLiteral("/containers/json?all=1&filters=") + docker::DockerClient::q(filter), {},
        [this, noContainer](const docker::DockerResponse &res) {
            if (!res.ok() || !res.json().is_array()) {
                failOrRetry(res.message(), 5000);
                return;
            }
            // The first server of the deployment speaks for it (the router has no model log);
            // a running one before a stopped one.
            const auto server = docker::OurContainers::speakingServer(
                docker::OurContainers::parse(res.json()), recipe::Recipe::deploymentIds(m_options.hostName));
            if (!server) {
                if (m_opened) {
                    startOver(QString()); // the followed container is gone (undeployed)
                }
                noContainer(
                    QCoreApplication::translate("Logs", "No Flashdeck deployment on %1.").arg(m_options.hostName));
                return;
            }
            m_containerId = server->id;
            m_containerName = server->name;
            openStreamIfRunning(server->running());
        });
}

void LogFollower::startOver(const QString &name)
{
    m_opened = false;
    m_lastTimeNs = 0;
    m_countAtLast = 0;
    m_catchingUp = false;
    m_openedId.clear();
    m_announceNext = name.isEmpty();
    Q_EMIT containerReplaced(name);
}

void LogFollower::openStreamIfRunning(bool running)
{
    if (!running && m_opened && m_options.follow) {
        // Its log so far is shown: wait for it (or a new deployment) to run.
        setState(
            State::Waiting,
            QCoreApplication::translate("Logs", "%1 is not running; waiting for it to start").arg(m_containerName));
        retryLater(2000);
        return;
    }
    openStream(); // a stopped container's log is still worth reading once
}

void LogFollower::failOrRetry(const QString &message, int retryMs)
{
    setState(State::Failed, message);
    if (!m_options.follow) {
        Q_EMIT finished();
    } else {
        retryLater(retryMs);
    }
}

void LogFollower::openStream()
{
    if (m_opened && m_containerId != m_openedId) {
        // A new container under the same label or name: `since=` the old one's last line would
        // mix two servers' start-ups (and their qmul4 and ready lines) into one log.
        startOver(m_containerName);
    } else if (m_announceNext) {
        // The followed one was removed (undeployed) and this one came after it: the reader is
        // told its log starts here, as for a replacement seen in one step.
        m_announceNext = false;
        Q_EMIT containerReplaced(m_containerName);
    }
    m_openedId = m_containerId;
    QString query = QStringLiteral("/containers/%1/logs?stdout=1&stderr=1&timestamps=1&follow=%2")
                        .arg(m_containerId, m_options.follow ? QStringLiteral("1") : QStringLiteral("0"));
    if (m_opened && m_lastTimeNs > 0) {
        // Whole seconds: Docker's `since` is inclusive and our own count drops what we already
        // have, so rounding down can only bring lines we skip, never lose one.
        query += QStringLiteral("&since=") + QString::number(m_lastTimeNs / 1000000000LL);
        m_resumeFromNs = m_lastTimeNs;
        m_skipAtLast = m_countAtLast;
        m_catchingUp = true;
        ++m_reconnects;
    } else if (!m_opened && m_options.tail >= 0) {
        query += QStringLiteral("&tail=") + QString::number(m_options.tail);
    }
    m_opened = true;
    m_decoder.reset();
    m_reply = m_docker->stream("GET", query);
    connect(m_reply, &QNetworkReply::readyRead, this, &LogFollower::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &LogFollower::onStreamFinished);
    setState(State::Following, QCoreApplication::translate("Logs", "Following %1").arg(m_containerName));
}

void LogFollower::onReadyRead()
{
    if (!m_reply) {
        return;
    }
    if (!m_decoder) {
        const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status != 200) {
            return; // the error body is read when the reply finishes
        }
        // A container with a TTY sends raw bytes, one without sends multiplexed frames.
        const bool raw =
            m_reply->header(QNetworkRequest::ContentTypeHeader).toString().contains(QLatin1String("raw-stream"));
        m_decoder = std::make_unique<docker::LogFrameDecoder>(!raw);
    }
    for (docker::LogLine &l : m_decoder->feed(m_reply->readAll())) {
        accept(l.stream, std::move(l.text), l.cut);
    }
}

void LogFollower::accept(int stream, QByteArray line, bool cut)
{
    qint64 timeNs = 0;
    const qsizetype skip = splitDockerTimestamp(line, timeNs);
    if (timeNs > 0) {
        if (m_catchingUp) {
            // Replayed from `since`: what is older than the resume point, and as many lines of
            // its very nanosecond as we delivered, we have already.
            if (timeNs < m_resumeFromNs || (timeNs == m_resumeFromNs && m_skipAtLast > 0)) {
                if (timeNs == m_resumeFromNs) {
                    --m_skipAtLast;
                }
                ++m_duplicates;
                return;
            }
            m_catchingUp = false;
        }
        // Outside a catch-up every line counts, even one a little older than the one before
        // (stdout and stderr are stamped apart).
        if (timeNs > m_lastTimeNs) {
            m_lastTimeNs = timeNs;
            m_countAtLast = 1;
        } else if (timeNs == m_lastTimeNs) {
            ++m_countAtLast;
        }
    }
    QByteArrayView text = QByteArrayView(line).sliced(skip);
    // Docker splits only at '\n': a tqdm bar's redraws arrive as one line of '\r'-separated
    // frames (sglang-facts §3.1). Its last non-empty frame is what a terminal would show.
    if (const qsizetype cr = text.lastIndexOf('\r'); cr >= 0) {
        qsizetype end = text.size();
        qsizetype start = cr + 1;
        while (start == end && start > 0) {
            end = start - 1;
            start = text.first(end).lastIndexOf('\r') + 1;
        }
        text = text.sliced(start, end - start);
    }
    LogRecord r;
    r.seq = ++m_seq;
    r.timeNs = timeNs;
    // The record keeps the line's memory and its reference: no copy, no count changed per line.
    bytes::narrow(line, text.data() - line.constData(), text.size());
    r.text = std::move(line);
    r.rule = qint16(m_rules.classify(r.text));
    r.stream = quint8(stream);
    r.cut = cut;
    m_pending.append(std::move(r));
    if (!m_batch->isActive()) {
        m_batch->start();
    }
}

void LogFollower::onStreamFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply) {
        return;
    }
    m_reply = nullptr;
    reply->deleteLater();
    const docker::DockerResponse res = docker::DockerClient::responseOf(reply);
    if (m_decoder) {
        for (docker::LogLine &l : m_decoder->finish()) {
            accept(l.stream, std::move(l.text), l.cut);
        }
        m_decoder.reset();
    }
    flush();
    if (!m_running) {
        return;
    }
    if (res.status == 0) { // the tunnel broke under the stream: a new one, then on from here
        dropTunnel();
        setState(State::Connecting, QCoreApplication::translate("Logs", "The log stream broke; reconnecting"));
        if (connectionReady()) {
            retryLater(1000);
        }
        return;
    }
    if (!res.ok()) {
        if (res.status == 404) {
            m_containerId.clear();
        }
        failOrRetry(res.message(), 2000);
        return;
    }
    if (!m_options.follow) {
        setState(State::Finished, QCoreApplication::translate("Logs", "End of the log of %1").arg(m_containerName));
        Q_EMIT finished();
        return;
    }
    // Docker ends a follow when the container stops: wait for it (or its successor) to run.
    setState(State::Waiting,
             QCoreApplication::translate("Logs", "%1 stopped; waiting for it to start again").arg(m_containerName));
    retryLater(2000);
}

void LogFollower::flush()
{
    m_batch->stop();
    if (m_pending.isEmpty()) {
        return;
    }
    const QList<LogRecord> batch = std::move(m_pending);
    m_pending.clear();
    Q_EMIT recordsArrived(batch);
}

void LogFollower::setState(State state, const QString &text)
{
    if (state == m_state && text == m_stateText) {
        return;
    }
    m_state = state;
    m_stateText = text;
    Q_EMIT stateChanged();
}

} // namespace flashdeck::logs

#include "tests/simhost/simhostfixture.h"

#include "backend/core/apppaths.h"
#include "backend/fleet/inventory.h"
#include "tests/support/buildpaths.h"
#include "tests/support/sshtesthelpers.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTcpSocket>

#include <nlohmann/json.hpp>

namespace flashdeck::test {

namespace {

constexpr quint16 kSshInside = 2222;
constexpr quint16 kDockerInside = 2375; // dockerd's own TCP port
constexpr quint16 kServerInside = 30000;

QJsonObject firstJsonLine(QProcess &p, QString *error, const QString &what)
{
    while (!p.canReadLine()) {
        if (!p.waitForReadyRead(30000)) {
            *error = QStringLiteral("%1 did not start: %2").arg(what, QString::fromUtf8(p.readAllStandardError()));
            return {};
        }
    }
    const QByteArray line = p.readLine();
    const QJsonObject o = QJsonDocument::fromJson(line).object();
    if (o.isEmpty()) {
        *error = QStringLiteral("%1 said: %2").arg(what, QString::fromUtf8(line));
    }
    return o;
}

} // namespace

bool SimHostFixture::startNamespace(QString *error)
{
    m_netns = std::make_unique<QProcess>();
    m_netns->start(flashdeck::test::simNetns(),
                   {QStringLiteral("serve"), QStringLiteral("--forward"), QString::number(kSshInside),
                    QStringLiteral("--forward"), QString::number(kDockerInside), QStringLiteral("--forward"),
                    QString::number(kServerInside), QStringLiteral("--die-with-parent")});
    const QJsonObject o = firstJsonLine(*m_netns, error, QStringLiteral("simhost-netns"));
    const QJsonObject forwards = o.value(QStringLiteral("forwards")).toObject();
    m_netnsPid = o.value(QStringLiteral("pid")).toInteger();
    m_sshPort = quint16(forwards.value(QString::number(kSshInside)).toInt());
    m_dockerPort = quint16(forwards.value(QString::number(kDockerInside)).toInt());
    m_serverPort = quint16(forwards.value(QString::number(kServerInside)).toInt());
    return m_netnsPid > 0 && m_sshPort != 0 && m_dockerPort != 0 && m_serverPort != 0;
}

quint16 SimHostFixture::relay(quint16 insidePort)
{
    if (insidePort == kServerInside) {
        return m_serverPort;
    }
    QString error;
    m_netns->write("forward " + QByteArray::number(insidePort) + '\n');
    const QJsonObject o = firstJsonLine(*m_netns, &error, QStringLiteral("simhost-netns"));
    if (!error.isEmpty()) {
        qWarning("%s", qPrintable(error));
    }
    return quint16(o.value(QStringLiteral("port")).toInt());
}

bool SimHostFixture::startDaemon(double timeFactor, QString *error)
{
    m_daemon = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("FLASHDECK_SIM_TIME_FACTOR"), QString::number(timeFactor));
    m_daemon->setProcessEnvironment(env);
    m_daemon->start(flashdeck::test::simNetns(),
                    {QStringLiteral("join"), QString::number(m_netnsPid), QStringLiteral("--die-with-parent"),
                     QStringLiteral("--"), flashdeck::test::simDaemon(), QStringLiteral("--sim-dir"), m_sim->path(),
                     QStringLiteral("--bin"), flashdeck::test::simBin(), QStringLiteral("--registry"),
                     flashdeck::test::simRegistry(), QStringLiteral("--docker-port"), QString::number(kDockerInside),
                     QStringLiteral("--die-with-parent")});
    // The first line says where it listens (inside the namespace); nothing else is on stdout.
    const QJsonObject ports = firstJsonLine(*m_daemon, error, QStringLiteral("simhostd"));
    m_hubPort = quint16(ports.value(QStringLiteral("hub_port")).toInt());
    return m_hubPort != 0;
}

QString SimHostFixture::daemonLog()
{
    return m_daemon ? QString::fromUtf8(m_daemon->readAllStandardError()) : QString();
}

bool SimHostFixture::start(const QString &scenario, QString *error, double timeFactor)
{
    m_home = std::make_unique<QTemporaryDir>();
    m_sim = std::make_unique<QTemporaryDir>();
    isolateSshEnvironment(m_home->path());
    if (!useScenario(scenario)) {
        *error = QStringLiteral("no scenario named %1").arg(scenario);
        return false;
    }
    if (!startNamespace(error) || !startDaemon(timeFactor, error)) {
        return false;
    }
    SshdFixture::Options options;
    options.pathPrefix = {flashdeck::test::simBin()};
    options.environment = {QStringLiteral("FLASHDECK_SIM_DIR=") + m_sim->path(),
                           QStringLiteral("HF_ENDPOINT=http://127.0.0.1:") + QString::number(m_hubPort)};
    // Many clients at once (20 concurrent `flashdeck chat`, a fleet of entries on one host):
    // OpenSSH's default MaxStartups 10:30:100 would drop some of them at random.
    options.extraConfig = {QStringLiteral("MaxStartups 100"), QStringLiteral("MaxSessions 100")};
    options.netns.helper = flashdeck::test::simNetns();
    options.netns.pid = m_netnsPid;
    options.netns.insidePort = kSshInside;
    options.netns.outsidePort = m_sshPort;
    m_sshd = std::make_unique<SshdFixture>(options);
    if (!m_sshd->start(error)) {
        return false;
    }
    m_key = m_sshd->addClientKey(QStringLiteral("id_sim"));
    m_conn = std::make_unique<ssh::HostConnection>(
        targetFor(*m_sshd, m_home->path() + QStringLiteral("/known_hosts"), m_key));
    const ssh::ConnectionState state = connectAndWait(*m_conn);
    if (state.phase != ssh::ConnectionPhase::Ready) {
        *error = state.error.message;
        return false;
    }
    return true;
}

void SimHostFixture::stop()
{
    m_conn.reset();
    m_sshd.reset();
    if (m_daemon && m_daemon->state() != QProcess::NotRunning) {
        m_daemon->terminate(); // SIGTERM: it kills its containers and exits
        if (!m_daemon->waitForFinished(15000)) {
            m_daemon->kill();
            m_daemon->waitForFinished(5000);
        }
    }
    m_daemon.reset();
    if (m_netns) {
        m_netns->terminate();
        if (!m_netns->waitForFinished(5000)) {
            m_netns->kill();
            m_netns->waitForFinished(5000);
        }
        m_netns.reset();
    }
}

bool SimHostFixture::useScenario(const QString &name)
{
    const QString target = m_sim->path() + QStringLiteral("/scenario.json");
    QFile::remove(target);
    clearLoad();
    return QFile::copy(flashdeck::test::simScenarios(u"/") + name + QStringLiteral(".json"), target);
}

bool SimHostFixture::writeLoad(const QList<int> &gpus, qint64 usedMiB, int utilization, double powerW, int tempC)
{
    nlohmann::json list = nlohmann::json::array();
    const int count = gpus.isEmpty() ? 0 : *std::max_element(gpus.begin(), gpus.end()) + 1;
    for (int i = 0; i < count; ++i) {
        const bool loaded = gpus.contains(i);
        list.push_back({{"memory_used_mib", loaded ? usedMiB : 0},
                        {"utilization_gpu", loaded ? utilization : 0},
                        {"utilization_memory", loaded ? utilization / 2 : 0},
                        {"power_w", loaded ? powerW : -1.0},
                        {"temp_c", loaded ? tempC : -1}});
    }
    const std::string text = nlohmann::json{{"gpus", list}}.dump();
    QSaveFile f(m_sim->path() + QStringLiteral("/gpu-load.json"));
    return f.open(QIODevice::WriteOnly) && f.write(text.data(), qint64(text.size())) == qint64(text.size()) &&
        f.commit();
}

void SimHostFixture::clearLoad()
{
    QFile::remove(m_sim->path() + QStringLiteral("/gpu-load.json"));
}

fleet::HostEntry SimHostFixture::hostEntry(const QString &name) const
{
    const ssh::SshTarget t = m_conn->target();
    fleet::HostEntry e;
    e.name = name;
    e.address = t.host;
    e.port = t.port;
    e.user = t.user;
    e.identityFile = t.identityFile;
    e.knownHostsFile = t.knownHostsFile;
    e.simulated = true;
    return e;
}

bool SimHostFixture::addToInventory(const QString &configDir, const QString &name) const
{
    const AppPaths paths(configDir);
    if (!paths.ensureExists()) {
        return false;
    }
    fleet::Inventory inventory(paths.inventoryFile());
    return inventory.add(hostEntry(name)).isOk() && inventory.save().isOk();
}

int SimHostFixture::engineCount(const char *what)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_dockerPort);
    if (!socket.waitForConnected(10000)) {
        return -1;
    }
    socket.write("GET /_sim/counts HTTP/1.1\r\nHost: docker\r\nConnection: close\r\n\r\n");
    QByteArray answer;
    while (socket.state() == QAbstractSocket::ConnectedState && socket.waitForReadyRead(10000)) {
        answer += socket.readAll();
    }
    answer += socket.readAll();
    const qsizetype body = answer.indexOf("\r\n\r\n");
    const nlohmann::json j =
        nlohmann::json::parse(body < 0 ? std::string() : answer.mid(body + 4).toStdString(), nullptr, false);
    return j.is_object() && j.contains(what) && j[what].is_number_integer() ? j[what].get<int>() : -1;
}

} // namespace flashdeck::test

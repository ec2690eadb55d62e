#include "tests/simhost/simhostfixture.h"

#include "tests/support/sshtesthelpers.h"

#include <QFile>
#include <QSaveFile>

#include <nlohmann/json.hpp>

namespace flashdeck::test {

bool SimHostFixture::startDaemon(double timeFactor, QString *error)
{
    m_daemon = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("FLASHDECK_SIM_TIME_FACTOR"), QString::number(timeFactor));
    m_daemon->setProcessEnvironment(env);
    m_daemon->start(QStringLiteral(FLASHDECK_SIM_DAEMON),
                    {QStringLiteral("--sim-dir"), m_sim->path(), QStringLiteral("--bin"),
                     QStringLiteral(FLASHDECK_SIM_BIN), QStringLiteral("--registry"),
                     QStringLiteral(FLASHDECK_SIM_REGISTRY), QStringLiteral("--die-with-parent")});
    // The first line says where it listens; nothing else is on stdout.
    while (!m_daemon->canReadLine()) {
        if (!m_daemon->waitForReadyRead(30000)) {
            *error = QStringLiteral("simhostd did not start: ") + daemonLog();
            return false;
        }
    }
    const QByteArray line = m_daemon->readLine();
    const auto ports = nlohmann::json::parse(line.constData(), line.constData() + line.size(), nullptr, false);
    if (!ports.is_object()) {
        *error = QStringLiteral("simhostd said: ") + QString::fromUtf8(line);
        return false;
    }
    m_dockerPort = ports.value("docker_port", quint16(0));
    m_hubPort = ports.value("hub_port", quint16(0));
    return true;
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
    if (!startDaemon(timeFactor, error)) {
        return false;
    }
    SshdFixture::Options options;
    options.pathPrefix = {QStringLiteral(FLASHDECK_SIM_BIN)};
    options.environment = {QStringLiteral("FLASHDECK_SIM_DIR=") + m_sim->path(),
                           QStringLiteral("HF_ENDPOINT=http://127.0.0.1:") + QString::number(m_hubPort)};
    // Many clients at once (20 concurrent `flashdeck chat`, a fleet of entries on one host):
    // OpenSSH's default MaxStartups 10:30:100 would drop some of them at random.
    options.extraConfig = {QStringLiteral("MaxStartups 100"), QStringLiteral("MaxSessions 100")};
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
}

bool SimHostFixture::useScenario(const QString &name)
{
    const QString target = m_sim->path() + QStringLiteral("/scenario.json");
    QFile::remove(target);
    clearLoad();
    return QFile::copy(QStringLiteral(FLASHDECK_SIM_SCENARIOS "/") + name + QStringLiteral(".json"), target);
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

HostEntry SimHostFixture::hostEntry(const QString &name) const
{
    const ssh::SshTarget t = m_conn->target();
    HostEntry e;
    e.name = name;
    e.address = t.host;
    e.port = t.port;
    e.user = t.user;
    e.identityFile = t.identityFile;
    e.knownHostsFile = t.knownHostsFile;
    e.simulated = true;
    return e;
}

} // namespace flashdeck::test

#include "tests/simhost/simhostfixture.h"

#include "tests/support/sshtesthelpers.h"

#include <QFile>
#include <QSaveFile>

#include <nlohmann/json.hpp>

namespace flashdeck::test {

bool SimHostFixture::start(const QString &scenario, QString *error)
{
    m_home = std::make_unique<QTemporaryDir>();
    m_sim = std::make_unique<QTemporaryDir>();
    isolateSshEnvironment(m_home->path());
    if (!useScenario(scenario)) {
        *error = QStringLiteral("no scenario named %1").arg(scenario);
        return false;
    }
    SshdFixture::Options options;
    options.pathPrefix = {QStringLiteral(FLASHDECK_SIM_BIN)};
    options.environment = {QStringLiteral("FLASHDECK_SIM_DIR=") + m_sim->path()};
    m_sshd = std::make_unique<SshdFixture>(options);
    if (!m_sshd->start(error)) {
        return false;
    }
    const QString key = m_sshd->addClientKey(QStringLiteral("id_sim"));
    m_conn =
        std::make_unique<ssh::HostConnection>(targetFor(*m_sshd, m_home->path() + QStringLiteral("/known_hosts"), key));
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

} // namespace flashdeck::test

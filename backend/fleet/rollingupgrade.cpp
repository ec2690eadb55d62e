#include "backend/fleet/rollingupgrade.h"

#include <QCoreApplication>
#include <QTimer>

namespace flashdeck::fleet {

RollingUpgrade::RollingUpgrade(const recipe::Recipe &recipe, security::SecretStore &secrets,
                               security::Redactor &redactor, Connect connect, QObject *parent)
    : QObject(parent)
    , m_recipe(recipe)
    , m_secrets(secrets)
    , m_redactor(redactor)
    , m_connect(std::move(connect))
{ }

RollingUpgrade::~RollingUpgrade() = default;

void RollingUpgrade::add(const QString &host, const QString &directory, deploy::UpgradeSetup setup)
{
    Host h;
    h.name = host;
    h.directory = directory;
    h.setup = std::move(setup);
    m_hosts.push_back(std::move(h));
}

void RollingUpgrade::start(int maxUnavailable)
{
    m_maxUnavailable = std::max(1, maxUnavailable);
    QTimer::singleShot(0, this, &RollingUpgrade::startNext);
}

void RollingUpgrade::cancel()
{
    m_stopped = true;
    for (Host &h : m_hosts) {
        if (h.session && h.session->running()) {
            h.session->cancel();
        }
    }
    QTimer::singleShot(0, this, &RollingUpgrade::startNext); // finishes when nothing runs
}

int RollingUpgrade::running() const
{
    int n = 0;
    for (const Host &h : m_hosts) {
        n += h.started && !h.done;
    }
    return n;
}

void RollingUpgrade::startNext()
{
    for (Host &h : m_hosts) {
        if (running() >= m_maxUnavailable || m_stopped) {
            break;
        }
        if (h.started || h.setup.unchanged) {
            continue;
        }
        h.started = true;
        Host *hp = &h;
        Q_EMIT hostStarted(h.name, h.setup.plan);
        m_connect(
            h.name, [this, hp](ssh::Transport &transport) { run(*hp, transport); },
            [this, hp](const QString &message) {
                hp->unreachable = message.isEmpty() ? QCoreApplication::translate("Fleet", "not reached") : message;
                end(*hp);
            });
    }
    if (running() == 0 && !m_finished) {
        m_finished = true;
        Q_EMIT finished();
    }
}

void RollingUpgrade::run(Host &h, ssh::Transport &transport)
{
    h.session = std::make_unique<deploy::UpgradeSession>(h.directory, h.name, m_recipe, h.setup.profile,
                                                         h.setup.options, h.setup.plan, m_secrets, m_redactor);
    deploy::UpgradeSession *s = h.session.get();
    const QString name = h.name;
    connect(s, &deploy::UpgradeSession::phaseChanged, this,
            [this, name, s](deploy::UpgradePhase phase) { Q_EMIT phaseChanged(name, phase, s->plan()); });
    connect(s, &deploy::UpgradeSession::stepChanged, this,
            [this, name](const recipe::StepRecord &r) { Q_EMIT stepChanged(name, r); });
    connect(s, &deploy::UpgradeSession::progress, this,
            [this, name](const recipe::StepProgress &p) { Q_EMIT progress(name, p); });
    connect(s, &deploy::UpgradeSession::notice, this, [this, name](const QString &text) { Q_EMIT notice(name, text); });
    connect(s, &deploy::UpgradeSession::finished, this, [this, &h](deploy::UpgradeOutcome outcome) {
        h.outcome = outcome;
        h.setup.plan = h.session->plan(); // where it ended (the failed step, the phase)
        end(h);
    });
    if (const Status started = s->start(transport); !started) {
        Q_EMIT notice(name, started.message()); // a deployment of the host runs: this one did not start
        end(h);
    }
}

void RollingUpgrade::end(Host &h)
{
    h.done = true;
    m_stopped = m_stopped || h.outcome != deploy::UpgradeOutcome::Upgraded;
    Q_EMIT hostFinished(h.name, h.outcome, h.setup.plan);
    QTimer::singleShot(0, this, &RollingUpgrade::startNext); // a fresh stack: this runs in the session's signal
}

bool RollingUpgrade::allUpgraded() const
{
    for (const Host &h : m_hosts) {
        if (!h.setup.unchanged && h.outcome != deploy::UpgradeOutcome::Upgraded) {
            return false;
        }
    }
    return true;
}

QString RollingUpgrade::resultOf(const Host &h)
{
    if (h.setup.unchanged) {
        return QCoreApplication::translate("Fleet", "already on these pins");
    }
    if (!h.started) {
        return QCoreApplication::translate("Fleet", "not started");
    }
    if (!h.unreachable.isEmpty()) {
        return QStringLiteral("unreachable");
    }
    if (!h.outcome) {
        return QStringLiteral("stopped");
    }
    return deploy::upgradeOutcomeName(*h.outcome);
}

} // namespace flashdeck::fleet

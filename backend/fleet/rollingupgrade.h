#pragma once

#include "backend/deploy/upgradesession.h"
#include "backend/deploy/upgradesetup.h"

#include <QObject>

#include <functional>
#include <list>
#include <memory>
#include <optional>

namespace flashdeck {

namespace security {
class Redactor;
class SecretStore;
} // namespace security
namespace ssh {
class Transport;
} // namespace ssh

} // namespace flashdeck

namespace flashdeck::fleet {

/**
 * Hosts upgraded in turn, `maxUnavailable` at a time: no new host starts after the first one that
 * did not upgrade (rolled back, failed, unreachable) or after cancel(). The CLI (`flashdeck
 * upgrade H1 H2 …`) and the Fleet page's selection both run it; each says how a host's connection
 * is reached.
 */
class RollingUpgrade final : public QObject
{
    Q_OBJECT

public:
    /** Reaches `host`: `ready(transport)` once connected (kept until hostFinished), or `failed(message)`. */
    using Connect = std::function<void(const QString &host, std::function<void(ssh::Transport &)> ready,
                                       std::function<void(const QString &message)> failed)>;

    struct Host
    {
        QString name;
        QString directory; // deployments/<host>
        deploy::UpgradeSetup setup; // the session holds a reference to its profile: the list keeps it in place
        std::unique_ptr<deploy::UpgradeSession> session;
        std::optional<deploy::UpgradeOutcome> outcome;
        QString unreachable; // why it could not be reached
        bool started = false;
        bool done = false;
    };

    RollingUpgrade(const recipe::Recipe &recipe, security::SecretStore &secrets, security::Redactor &redactor,
                   Connect connect, QObject *parent = nullptr);
    ~RollingUpgrade() override;

    void add(const QString &host, const QString &directory, deploy::UpgradeSetup setup);
    void start(int maxUnavailable);
    /** Cancels the running hosts (each keeps its plan for --resume) and starts no other. */
    void cancel();
    const std::list<Host> &hosts() const { return m_hosts; }
    /** Every host upgraded or already on the pins. */
    bool allUpgraded() const;
    /** "upgraded", "rolled-back", …, "not started", "already on these pins", "unreachable". */
    static QString resultOf(const Host &host);

Q_SIGNALS:
    void hostStarted(const QString &host, const flashdeck::deploy::UpgradePlan &plan);
    void phaseChanged(const QString &host, flashdeck::deploy::UpgradePhase phase,
                      const flashdeck::deploy::UpgradePlan &plan);
    void stepChanged(const QString &host, const flashdeck::recipe::StepRecord &record);
    void progress(const QString &host, const flashdeck::recipe::StepProgress &progress);
    void notice(const QString &host, const QString &text);
    /** The host ended: `outcome` when its upgrade ran, else it was not reached (`unreachable` says why). */
    void hostFinished(const QString &host, std::optional<flashdeck::deploy::UpgradeOutcome> outcome,
                      const flashdeck::deploy::UpgradePlan &plan);
    void finished();

private:
    void startNext();
    void run(Host &host, ssh::Transport &transport);
    void end(Host &host);
    int running() const;

    const recipe::Recipe &m_recipe;
    security::SecretStore &m_secrets;
    security::Redactor &m_redactor;
    Connect m_connect;
    std::list<Host> m_hosts;
    int m_maxUnavailable = 1;
    bool m_stopped = false; // a host did not upgrade, or cancel(): start no other
    bool m_finished = false;
};

} // namespace flashdeck::fleet

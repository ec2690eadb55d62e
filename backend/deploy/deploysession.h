#pragma once

#include "backend/deploy/deployrunner.h"

#include <QMap>
#include <QObject>

#include <memory>

namespace flashdeck {

class HeldLock;
namespace security {
class Redactor;
class SecretStore;
} // namespace security

} // namespace flashdeck

namespace flashdeck::deploy {

class Journal;

/**
 * One deployment run of one host and profile, as the CLI and the Deploy page both drive it:
 * the API key from the keyring (or generated), the runner, the journal
 * (`deployments/<host>/journal.jsonl`), and at the end the manifest and the key stored back.
 * What it hands out is already redacted.
 */
class DeploySession final : public QObject
{
    Q_OBJECT

public:
    /**
     * `directory`: deployments/<host>, created if missing. The recipe and profile are copied (the
     * session may outlive the page that made it: the host's session keeps it); `secrets` and
     * `redactor` outlive it.
     */
    DeploySession(QString directory, QString hostName, const recipe::Recipe &recipe,
                  const recipe::RecipeProfile &profile, DeployOptions options, security::SecretStore &secrets,
                  security::Redactor &redactor, QObject *parent = nullptr);
    ~DeploySession() override;

    /**
     * `deployments/<host>/deploy.lock`: held (HeldLock) while a run of the host's plan goes on, in
     * whichever window or terminal. Another run of the same host is refused while it is held, and
     * the fleet's monitors read a deployment in progress, not a server that is down.
     */
    static QString lockOf(const QString &directory);
    /** What a run of `host` says while another run of it holds the lock; empty when none does. */
    static QString runningElsewhere(const QString &host, const QString &directory);
    /**
     * Takes the host's deploy lock for this run (start() takes it if this was not called): fails,
     * saying so in words, while another run of the host holds it. Call it before connecting.
     */
    [[nodiscard]] Status claim();
    /**
     * Reads the stored key, then runs the plan on the (ready or connecting) connection. Fails,
     * with nothing run or written, when another run of this host holds its lock.
     */
    [[nodiscard]] Status start(ssh::Transport &connection);
    /** Stops cleanly (DeployRunner::cancel): the plan ends with what is left on the host. */
    void cancel();
    bool running() const { return m_running; }
    const QString &directory() const { return m_dir; }
    const DeployOptions &options() const { return m_options; }
    DeployRunner *runner() const { return m_runner.get(); }
    /** The last record of every step so far (redacted). */
    const QMap<QString, recipe::StepRecord> &results() const { return m_results; }
    /** The step running now, as it last reported (an empty step id between steps). */
    const recipe::StepRecord &current() const { return m_current; }

Q_SIGNALS:
    void stepChanged(const flashdeck::recipe::StepRecord &record);
    void progress(const flashdeck::recipe::StepProgress &progress);
    void layersChanged(const QStringList &layers);
    /** Something the operator should read that is not a step (keyring unavailable, key not stored). */
    void notice(const QString &text);
    void finished(bool ok);

private:
    void writeManifest(bool ok);
    /** The manifest of the host's deployment as it was before this run (none: a first run). */
    [[nodiscard]] Result<recipe::Deployment> readManifest() const;

    QString m_dir;
    QString m_host;
    recipe::Recipe m_recipe;
    recipe::RecipeProfile m_profile;
    DeployOptions m_options;
    security::SecretStore &m_secrets;
    security::Redactor &m_redactor;
    std::unique_ptr<Journal> m_journal;
    std::unique_ptr<HeldLock> m_held; // while it runs: one run of a host at a time
    QString m_lockNotice; // the lock file could not be taken (not held elsewhere): said at start
    std::unique_ptr<DeployRunner> m_runner;
    QMap<QString, recipe::StepRecord> m_results;
    recipe::StepRecord m_current;
    bool m_running = false;
};

} // namespace flashdeck::deploy

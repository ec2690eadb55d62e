#pragma once

#include "backend/deploy/deployrunner.h"

#include <QMap>
#include <QObject>

#include <memory>

namespace flashdeck {

class Journal;
class Redactor;
class SecretStore;

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
    /** `directory`: deployments/<host>, created if missing. The references outlive the session. */
    DeploySession(QString directory, QString hostName, const Recipe &recipe, const RecipeProfile &profile,
                  DeployOptions options, SecretStore &secrets, Redactor &redactor, QObject *parent = nullptr);
    ~DeploySession() override;

    /** Reads the stored key, then runs the plan on the (ready or connecting) connection. */
    void start(ssh::Transport &connection);
    /** Stops cleanly (DeployRunner::cancel): the plan ends with what is left on the host. */
    void cancel();
    bool running() const { return m_running; }
    const QString &directory() const { return m_dir; }
    const DeployOptions &options() const { return m_options; }
    DeployRunner *runner() const { return m_runner.get(); }
    /** The last record of every step so far (redacted). */
    const QMap<QString, StepRecord> &results() const { return m_results; }

Q_SIGNALS:
    void stepChanged(const flashdeck::StepRecord &record);
    void progress(const flashdeck::StepProgress &progress);
    void layersChanged(const QStringList &layers);
    /** Something the operator should read that is not a step (keyring unavailable, key not stored). */
    void notice(const QString &text);
    void finished(bool ok);

private:
    void writeManifest(bool ok);
    /** The manifest of the host's deployment as it was before this run (none: a first run). */
    [[nodiscard]] Result<Deployment> readManifest() const;

    QString m_dir;
    QString m_host;
    const Recipe &m_recipe;
    const RecipeProfile &m_profile;
    DeployOptions m_options;
    SecretStore &m_secrets;
    Redactor &m_redactor;
    std::unique_ptr<Journal> m_journal;
    std::unique_ptr<DeployRunner> m_runner;
    QMap<QString, StepRecord> m_results;
    bool m_running = false;
};

} // namespace flashdeck

#pragma once

#include "backend/core/result.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/recipe.h"
#include "backend/recipe/step.h"
#include "ui/deploy/planview.h"

#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTreeWidget;
class QTreeWidgetItem;
class QVBoxLayout;

namespace flashdeck {
class AppPaths;
namespace deploy {
class Acknowledgements;
class DeploySession;
class UpgradeSession;
struct UpgradePlan;
struct UpgradeTarget;
enum class UpgradePhase;
} // namespace deploy
namespace fleet {
class FleetWatcher;
class HostSession;
} // namespace fleet
namespace logs {
class LogRules;
struct LogRecord;
} // namespace logs
namespace recipe {
class LicenseTerms;
struct Recipe;
struct RecipeProfile;
} // namespace recipe
namespace security {
class Redactor;
class SecretStore;
} // namespace security
} // namespace flashdeck

namespace flashdeck::ui {

class ExposePanel;
class LaunchCommandBox;
class LicensePanel;
class LogPanel;
class StepDetail;

/**
 * The guided first deployment (screens.md §Deploy, issue 6): host and profile with the
 * profile's card; the plan's steps grouped Pre-flight / Licence / Pin / Pull / Launch / Verify
 * with live status; the selected step's evidence; the licence acknowledgement before Pin; the
 * deployment's log, classified, below. Run, Stop, Resume, Retry step, Export runbook. The run
 * itself is a DeploySession on the host's one SSH connection, kept by the host's HostSession: the
 * page shows it and does not own it, so a page made again (or coming back to the host) shows the
 * running run's steps. Nothing blocks this thread, and the view of an earlier run comes back from
 * its journal.
 */
class DeployPage final : public QWidget
{
    Q_OBJECT

public:
    DeployPage(const AppPaths &paths, fleet::FleetWatcher &watcher, security::Redactor &redactor,
               QWidget *parent = nullptr);
    ~DeployPage() override;

    void setHost(const QString &host);
    QString host() const { return m_host; }
    void setProfile(const QString &profileId);
    QString profile() const;

    /** Starts (or resumes: every step reuses what is there) the plan; asks for the licence first. */
    void run();
    void stop();
    bool isRunning() const;
    /** Whether an "Open to the team" panel of any host is placing or removing a gateway. */
    bool exposeRunning() const;
    /** Cancels every gateway placement under way and waits (at most `ms` each) for its undo. */
    void cancelExposes(int ms);
    /**
     * Moves the host's deployment to other pins (UpgradeSession): the same steps in this view,
     * then, on a failure, the rollback's; the notice says which phase runs and how it ended.
     */
    void upgrade(const deploy::UpgradeTarget &target);
    /** Asks for the pins in an UpgradeDialog, then upgrade(). */
    void askUpgrade();
    /**
     * "Open to the team": the host's gateway panel (made for the page's host, or the one already
     * open for it), shown; null while the page has no host.
     */
    ExposePanel *openToTeam();
    /** Writes the runbook of the last pinned deployment; false with `error` when there is none. */
    bool exportRunbook(const QString &path, QString *error) const;

    QTreeWidget *steps() const { return m_steps; }
    StepDetail *detail() const { return m_detail; }
    LicensePanel *licensePanel() const { return m_license; }
    LogPanel *logPanel() const { return m_log; }
    /** The status of a step as the list shows it. */
    recipe::StepStatus stepStatus(const QString &step) const;
    void selectStep(const QString &step);

Q_SIGNALS:
    void addHostRequested();
    void runningChanged(bool running);
    /**
     * The operator picked `host` in the page's own box, or the page kept its host while a run
     * goes on: the window's host bar follows, so the two never disagree.
     */
    void hostChosen(const QString &host);

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // The page's parts, made once by the constructor.
    /** Host and profile, the card, the steps, the buttons and the notice. */
    QWidget *buildLeft(QWidget *parent, QPushButton *&addHost);
    /** The selected step's detail (or the licence) above the log. */
    QSplitter *buildRight(QWidget *parent);
    QGroupBox *buildChooser(QWidget *parent, QPushButton *&addHost);
    void buildChoiceRows(QVBoxLayout *layout, QGroupBox *box, QPushButton *addHost);
    QHBoxLayout *buildButtons();
    void wire(QPushButton *addHost);
    /** The left column's split until the operator drags it: the card as tall as it reads, the steps ten rows at least.
     */
    void fitLeftSplit();
    void rebuildHosts();
    /**
     * The profile follows the host until the operator picks one for it: the profile of the
     * deployment on the host, else the one made for its GPUs (vendor, model, count).
     */
    void followHost();
    /** The Port field: the deployment's recorded port for this profile, else the profile's. */
    void syncPort();
    void updateProfileCard();
    void updateButtons();
    void resetSteps();
    void loadJournal();
    /** The host's journal and record, its profile, port and log: what setHost() and a change on disk show. */
    void showHost();
    /**
     * The host's session holds a new deployment (a terminal's deploy, undeploy or upgrade, another
     * window's, or this page's own run): show it.
     */
    void onRecordChanged();
    /**
     * The host's deployment as its session holds it: its manifest, read once each time anyone
     * writes it, for every page (a failure for a host the fleet does not hold).
     */
    [[nodiscard]] Result<recipe::Deployment> deploymentOf(const QString &host) const;
    /** What an upgrade in this phase is doing, for the notice line. */
    QString upgradeNotice(const deploy::UpgradePlan &plan, deploy::UpgradePhase phase) const;
    /** A run of this page ended: the fleet reads its manifest, and the page shows it as it is. */
    void recordOwnRun();
    /** Reads the host's manifest into m_record: once per view of it, not per button update. */
    void readRecord();
    void applyRecord(const recipe::StepRecord &record);
    void showSelected();
    void showLicense();
    void onProgress(const recipe::StepProgress &progress);
    void restartLog();
    void startSession();
    /**
     * The profile as it will run: the generator's command (when given) laid over the operator's
     * image, GPUs and port. A failure says why, in words for the notice line.
     */
    [[nodiscard]] Result<recipe::RecipeProfile> chosenProfile(const recipe::RecipeProfile &listed) const;
    /** The watcher's secret store, or (tests without one) the watcher's own. */
    security::SecretStore &secretStore();
    /** The host's session (null while the host is not watched). */
    fleet::HostSession *hostSession() const;
    /**
     * Follows the host's operation (its session's deployment or upgrade): its steps, notices and
     * end reach this page; one that runs already is shown as far as it got.
     */
    void followOperation();
    /** The steps a running operation has reported so far, as if the page had started it. */
    void showRunningOperation();
    /** A deployment run's steps, progress and notices, and how it ended. */
    void connectDeploy(deploy::DeploySession *s);
    /** An upgrade's steps, progress and notices, and each phase (upgrade, then rollback) as it starts. */
    void connectUpgrade(deploy::UpgradeSession *s);
    /** How an upgrade ended, in the notice, and the page as it is after it. */
    void connectUpgradeFinished(deploy::UpgradeSession *s);
    /** A session's pull layers: kept, and shown when the Pull step is selected. */
    void onLayers(const QStringList &layers);

    const AppPaths &m_paths;
    fleet::FleetWatcher &m_watcher;
    security::Redactor &m_redactor;
    std::unique_ptr<QList<recipe::Recipe>> m_recipes;
    std::unique_ptr<recipe::LicenseTerms> m_terms;
    std::unique_ptr<deploy::Acknowledgements> m_acks;
    std::unique_ptr<logs::LogRules> m_rules;
    /** The host's operation this page follows (each is connected once). */
    QPointer<QObject> m_followed;
    /** The host's session's operationChanged and deploymentChanged, while the page shows that host. */
    QMetaObject::Connection m_sessionWatch;
    QMetaObject::Connection m_recordWatch;
    /** The session those two are connected to (a host made again has a new one). */
    QPointer<fleet::HostSession> m_watchedSession;
    bool m_runAfterLicense = false;
    QString m_host;
    QString m_runningStep;
    /** The host's manifest as the page last showed it; none before a deployment (or unreadable). */
    std::optional<recipe::Deployment> m_record;
    bool m_recordingOwnRun = false; // recordOwnRun(): the records' echo of this page's own run
    /** What was in the generator's box for each host: another host's command is never run here. */
    QHash<QString, QString> m_commandFor;

    QComboBox *m_hostBox;
    QComboBox *m_profileBox;
    QLineEdit *m_flags;
    QWidget *m_imageRow;
    QLineEdit *m_image;
    QPushButton *m_useSuggested;
    QWidget *m_gpusRow;
    QLineEdit *m_gpus;
    QSpinBox *m_port; // the port the server serves on (the router's for a profile with one)
    LaunchCommandBox *m_generator;
    QLabel *m_card;
    PlanView *m_steps;
    QStringList m_layers; // the pull's, latest
    QPushButton *m_run;
    QPushButton *m_stop;
    QPushButton *m_resume;
    QPushButton *m_retry;
    QPushButton *m_export;
    QPushButton *m_upgrade;
    QPushButton *m_openToTeam;
    /** One panel per host, kept while it works (a placement's outcome is shown when its host is back). */
    QHash<QString, QPointer<ExposePanel>> m_exposePanels;
    QLabel *m_notice;
    QStackedWidget *m_right;
    QSplitter *m_rightSplit = nullptr;
    QSplitter *m_leftSplit = nullptr;
    bool m_leftSplitDragged = false;
    StepDetail *m_detail;
    LicensePanel *m_license;
    LogPanel *m_log;
    // Pull rate: the first sample of the current transfer.
    QElapsedTimer m_progressClock;
    qint64 m_progressStart = -1;
    QString m_progressStep;
    /** Hosts whose profile the operator chose: it no longer follows their GPUs. */
    QSet<QString> m_profileChosenFor;
};

} // namespace flashdeck::ui

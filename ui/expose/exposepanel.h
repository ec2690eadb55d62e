#pragma once

#include "backend/core/result.h"
#include "backend/expose/gatewayoptions.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/recipe/step.h"

#include <QDialog>
#include <QHash>
#include <QPointer>

#include <optional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QStackedWidget;
class QTreeWidget;
class QTreeWidgetItem;
class QWidget;

namespace flashdeck {
class AppPaths;
namespace expose {
class GatewayOperation;
class GatewayRecordWatch;
struct GatewayPlan;
} // namespace expose
namespace fleet {
class FleetWatcher;
} // namespace fleet
} // namespace flashdeck

namespace flashdeck::ui {

/**
 * "Open to the team": the gateway of one deployed host, as `flashdeck expose` places it. The
 * fields (who may connect, where it listens, the limits, the remote-media hosts, TLS), a live
 * preview of what will be placed, Expose; then the check's steps from this machine; once exposed
 * the URL, the public-key pin and the curl line a colleague runs, and Unexpose. The work is the
 * backend's GatewayOperation on the host's session (the lock, placement, record and removal the
 * command line uses); the panel follows the host's record, so an expose or unexpose from a
 * terminal shows here within a moment. Cancel (or Escape) while placing removes what was placed.
 */
class ExposePanel final : public QDialog
{
    Q_OBJECT

public:
    ExposePanel(const AppPaths &paths, fleet::FleetWatcher &watcher, const QString &host, QWidget *parent = nullptr);
    ~ExposePanel() override;

    QString host() const { return m_host; }
    /** The gateway as its record says now (none: not exposed). */
    const std::optional<expose::GatewayRecord> &record() const { return m_record; }
    /** Whether a placement, removal or check runs. */
    bool isRunning() const;
    /** A check step's status as the list shows it ("expose.tls", …). */
    recipe::StepStatus stepStatus(const QString &step) const;

    /** Expose with the fields as they are (what the Expose button does). */
    void exposeNow();
    void unexposeNow();
    void checkNow();
    /** Cancels a placement (what Cancel and Escape do while it runs). */
    void cancelNow();
    /** Cancels a placement and waits, at most `ms`, until what it placed is removed. */
    void cancelAndWait(int ms);

public Q_SLOTS:
    void reject() override;

private:
    // Made once by the constructor (exposepanel.cpp).
    QWidget *buildForm();
    QWidget *buildTls(QWidget *parent);
    QWidget *buildPreviewPage();
    QWidget *buildExposedPage();
    void buildButtons(QWidget *bar);
    void wire();
    /** The fields as options; a failure says which field and why. */
    [[nodiscard]] Result<expose::GatewayOptions> options() const;
    /** The plan to place: the options, the certificate and key read from their files. */
    [[nodiscard]] Result<expose::GatewayPlan> plan() const;
    /** "ADDR:PORT" of the Check at field: false when it is not one (empty is fine). */
    bool checkTarget(QString *host, int *port) const;
    void refreshPreview();
    void updateButtons();
    void fillFields(const expose::GatewayRecord &r);
    void resetSteps();
    void applyStep(const recipe::StepRecord &record);
    void say(const QString &status, const QString &problem = {});
    void chooseFile(QLineEdit *into, const QString &title);

    // The work and the record (exposepanelrun.cpp).
    /** The host's operation, made on its session when it is there (null while it is not watched). */
    expose::GatewayOperation *operation();
    void onExposed(const Result<expose::GatewayRecord> &result);
    void onUnexposed(const Result<QStringList> &removed, const QString &recordProblem);
    void onChecked(bool passed, const QString &problem);
    /** Reads the host's record (at start and when anyone writes it) and shows it. */
    void readRecord();
    void showRecord();

    const AppPaths &m_paths;
    fleet::FleetWatcher &m_watcher;
    QString m_host;
    std::optional<expose::GatewayRecord> m_record;
    QPointer<expose::GatewayOperation> m_operation;
    expose::GatewayRecordWatch *m_watch;
    QHash<QString, QTreeWidgetItem *> m_stepItems;
    QHash<QString, recipe::StepStatus> m_stepStatus;
    bool m_previewValid = false;
    /** What the last expose, unexpose or check said went wrong (shown while the fields are valid). */
    QString m_outcome;

    QLineEdit *m_allow;
    QLineEdit *m_listen;
    QSpinBox *m_port;
    QLineEdit *m_rate;
    QSpinBox *m_burst;
    QSpinBox *m_maxConcurrent;
    QLineEdit *m_maxBody;
    QLineEdit *m_media;
    QRadioButton *m_selfSigned;
    QRadioButton *m_ownCertificate;
    QLineEdit *m_certFile;
    QLineEdit *m_keyFile;
    QPushButton *m_certChoose;
    QPushButton *m_keyChoose;
    QLineEdit *m_checkAt;
    QLabel *m_problem;
    QLabel *m_status;
    QStackedWidget *m_right;
    QPlainTextEdit *m_preview;
    QLabel *m_url;
    QLineEdit *m_pin;
    QLabel *m_details;
    QLineEdit *m_curl;
    QPushButton *m_copy;
    QTreeWidget *m_steps;
    QPushButton *m_expose;
    QPushButton *m_cancel;
    QPushButton *m_check;
    QPushButton *m_unexpose;
    QPushButton *m_close;
};

} // namespace flashdeck::ui

#include "ui/deploy/upgradedialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace flashdeck::ui {

UpgradeDialog::UpgradeDialog(const QString &host, const recipe::Pins &current,
                             const std::optional<deploy::UpgradePlan> &interrupted, QWidget *parent)
    : QDialog(parent)
    , m_current(current)
    , m_resume(interrupted.has_value())
    , m_digest(new QLineEdit(current.imageDigest, this))
    , m_revision(new QLineEdit(current.modelRevision, this))
    , m_problem(new QLabel(this))
    , m_start(new QPushButton(this))
{
    build(tr("Upgrade %1").arg(host),
          tr("<b>%1 runs</b> %2<br>image <tt>%3</tt><br>model revision <tt>%4</tt>")
              .arg(host.toHtmlEscaped(), current.profile.toHtmlEscaped(), current.imageDigest, current.modelRevision),
          false);
    if (m_resume) {
        // An upgrade that did not finish is finished first, from where it was.
        m_digest->setText(interrupted->to.imageDigest);
        m_revision->setText(interrupted->to.modelRevision);
        m_digest->setEnabled(false);
        m_revision->setEnabled(false);
        m_fromFile->setEnabled(false);
        m_start->setText(tr("Resume the %1").arg(deploy::upgradePhaseName(interrupted->phase)));
        m_problem->setText(tr("An upgrade of %1 (%2) was interrupted in its %3: resume it to finish.")
                               .arg(host, interrupted->summary(), deploy::upgradePhaseName(interrupted->phase)));
        return;
    }
    validate();
}

UpgradeDialog::UpgradeDialog(const QStringList &hosts, const recipe::Pins &current, QWidget *parent)
    : QDialog(parent)
    , m_current(current)
    , m_several(true)
    , m_digest(new QLineEdit(current.imageDigest, this))
    , m_revision(new QLineEdit(current.modelRevision, this))
    , m_problem(new QLabel(this))
    , m_start(new QPushButton(this))
{
    build(tr("Upgrade %n hosts", nullptr, int(hosts.size())),
          tr("<b>In turn:</b> %1<br>Each keeps its profile, GPUs and flags; no host starts after one that rolls "
             "back.")
              .arg(hosts.join(QStringLiteral(", ")).toHtmlEscaped()),
          true);
    validate();
}

void UpgradeDialog::build(const QString &title, const QString &runs, bool several)
{
    setObjectName(QStringLiteral("upgradeDialog"));
    setWindowTitle(title);
    setMinimumWidth(760);
    auto *layout = new QVBoxLayout(this);
    auto *now = new QLabel(runs, this);
    now->setWordWrap(true);
    now->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(now);
    auto *form = new QFormLayout;
    m_digest->setObjectName(QStringLiteral("upgradeDigest"));
    m_revision->setObjectName(QStringLiteral("upgradeRevision"));
    // A digest is 71 characters: shown whole, in a fixed-width font, so two can be compared by eye.
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_digest->setFont(fixed);
    m_revision->setFont(fixed);
    m_digest->setMinimumWidth(QFontMetrics(fixed).horizontalAdvance(QString(72, QLatin1Char('0'))));
    m_digest->setPlaceholderText(QStringLiteral("sha256:…"));
    m_revision->setPlaceholderText(tr("a 40-character commit id"));
    form->addRow(tr("New image digest:"), m_digest);
    form->addRow(tr("New model revision:"), m_revision);
    if (several) {
        m_maxUnavailable = new QSpinBox(this);
        m_maxUnavailable->setObjectName(QStringLiteral("upgradeMaxUnavailable"));
        m_maxUnavailable->setRange(1, 64);
        m_maxUnavailable->setValue(1);
        m_maxUnavailable->setToolTip(tr("How many hosts stop serving at once while they upgrade"));
        form->addRow(tr("Hosts at a time:"), m_maxUnavailable);
    }
    layout->addLayout(form);
    m_fromFile = new QPushButton(tr("Read a pins file…"), this);
    m_fromFile->setObjectName(QStringLiteral("upgradeFromPins"));
    layout->addWidget(m_fromFile, 0, Qt::AlignLeft);
    auto *how = new QLabel(tr("The new image is pulled while the server keeps serving. Then the server is stopped, "
                              "the new one started, and every check and verify step runs again. If any step fails, "
                              "the current pins run again (their image stays on the host) and are verified again."),
                           this);
    how->setWordWrap(true);
    layout->addWidget(how);
    m_problem->setObjectName(QStringLiteral("upgradeProblem"));
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    box->addButton(m_start, QDialogButtonBox::AcceptRole);
    m_start->setObjectName(QStringLiteral("upgradeStart"));
    m_start->setDefault(true);
    m_start->setText(tr("Upgrade"));
    layout->addWidget(box);
    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_fromFile, &QPushButton::clicked, this, &UpgradeDialog::readPinsFile);
    connect(m_digest, &QLineEdit::textChanged, this, &UpgradeDialog::validate);
    connect(m_revision, &QLineEdit::textChanged, this, &UpgradeDialog::validate);
}

int UpgradeDialog::maxUnavailable() const
{
    return m_maxUnavailable ? m_maxUnavailable->value() : 1;
}

void UpgradeDialog::readPinsFile()
{
    const QString file =
        QFileDialog::getOpenFileName(this, tr("A pins file"), QString(), tr("Pins files (*.json);;All files (*)"));
    if (file.isEmpty()) {
        return;
    }
    const Result<recipe::Pins> pins = recipe::Pins::readFrom(file);
    if (!pins) {
        m_problem->setText(pins.message());
        return;
    }
    m_digest->setText(pins.value().imageDigest);
    m_revision->setText(pins.value().modelRevision);
}

void UpgradeDialog::validate()
{
    const QString digest = m_digest->text().trimmed();
    const QString revision = m_revision->text().trimmed();
    QString problem;
    if (!recipe::Pins::isImageDigest(digest)) {
        problem = tr("The image digest is sha256: and 64 hex digits, as 'flashdeck pins' prints it.");
    } else if (!recipe::Pins::isModelRevision(revision)) {
        problem = tr("The model revision is a full commit id: 40 hex digits.");
    } else if (!m_several && digest == m_current.imageDigest && revision == m_current.modelRevision) {
        problem = tr("These are the pins the host runs: change the digest or the revision.");
    }
    m_problem->setText(problem);
    m_start->setEnabled(problem.isEmpty());
}

deploy::UpgradeTarget UpgradeDialog::target() const
{
    deploy::UpgradeTarget t;
    t.resume = m_resume;
    if (!m_resume) {
        t.imageDigest = m_digest->text().trimmed();
        t.modelRevision = m_revision->text().trimmed();
    }
    return t;
}

} // namespace flashdeck::ui

#include "ui/pages/deploypage.h"

#include "backend/core/apppaths.h"
#include "backend/core/format.h"
#include "backend/deploy/acknowledgements.h"
#include "backend/deploy/deploysession.h"
#include "backend/deploy/upgradesession.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostsession.h"
#include "backend/logs/loghighlights.h"
#include "backend/logs/logrules.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/licenseterms.h"
#include "backend/recipe/profilechoice.h"
#include "backend/recipe/recipe.h"
#include "backend/security/secretstore.h"
#include "ui/deploy/launchcommandbox.h"
#include "ui/deploy/licensepanel.h"
#include "ui/deploy/planview.h"
#include "ui/deploy/profilecard.h"
#include "ui/deploy/stepdetail.h"
#include "ui/logs/logmodel.h"
#include "ui/logs/logpanel.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace flashdeck::ui {

DeployPage::DeployPage(const AppPaths &paths, fleet::FleetWatcher &watcher, security::Redactor &redactor,
                       QWidget *parent)
    : QWidget(parent)
    , m_paths(paths)
    , m_watcher(watcher)
    , m_redactor(redactor)
    , m_hostBox(new QComboBox(this))
    , m_profileBox(new QComboBox(this))
    , m_flags(new QLineEdit(this))
    , m_imageRow(new QWidget(this))
    , m_image(new QLineEdit(this))
    , m_useSuggested(new QPushButton(tr("Use the suggestion"), this))
    , m_gpusRow(new QWidget(this))
    , m_gpus(new QLineEdit(this))
    , m_port(new QSpinBox(this))
    , m_generator(new LaunchCommandBox(this))
    , m_card(new QLabel(this))
    , m_steps(new PlanView(this))
    , m_run(new QPushButton(tr("Run"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_resume(new QPushButton(tr("Resume"), this))
    , m_retry(new QPushButton(tr("Retry step"), this))
    , m_export(new QPushButton(tr("Export runbook…"), this))
    , m_upgrade(new QPushButton(tr("Upgrade…"), this))
    , m_openToTeam(new QPushButton(tr("Open to the team…"), this))
    , m_notice(new QLabel(this))
    , m_right(new QStackedWidget(this))
    , m_detail(new StepDetail(this))
{
    setObjectName(QStringLiteral("deployPage"));
    auto recipes = recipe::Recipe::builtIn();
    auto terms = recipe::LicenseTerms::builtIn();
    auto rules = logs::LogRules::builtIn();
    m_recipes = std::make_unique<QList<recipe::Recipe>>(recipes ? recipes.value() : QList<recipe::Recipe>());
    // The licence text and the log rules are compiled in: a broken build says so on the page.
    m_terms = std::make_unique<recipe::LicenseTerms>(terms ? terms.value() : recipe::LicenseTerms());
    m_rules = std::make_unique<logs::LogRules>(rules ? rules.value() : logs::LogRules());
    m_acks = std::make_unique<deploy::Acknowledgements>(m_paths.acknowledgementsFile());
    m_license = new LicensePanel(*m_terms, *m_acks, this);
    m_log = new LogPanel(*m_rules, this);

    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(16, 12, 16, 12);
    auto *split = new QSplitter(Qt::Horizontal, this);
    outer->addWidget(split);

    // Left: host and profile, the card, the steps, the buttons.
    QPushButton *addHost = nullptr;
    QWidget *left = buildLeft(split, addHost);
    // Right: the selected step (or the licence), and the log below.
    QSplitter *rightSplit = buildRight(split);
    split->addWidget(left);
    split->addWidget(rightSplit);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 5);

    wire(addHost);

    resetSteps();
    rebuildHosts();
    updateProfileCard();
    if (!recipes || !terms || !rules) {
        m_notice->setText((!recipes ? recipes.message() : !terms ? terms.message() : rules.message()));
        m_run->setEnabled(false);
    }
}

DeployPage::~DeployPage() = default;

QWidget *DeployPage::buildLeft(QWidget *parent, QPushButton *&addHost)
{
    auto *left = new QWidget(parent);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 8, 0);
    QGroupBox *choose = buildChooser(left, addHost);
    m_leftSplit = new QSplitter(Qt::Vertical, left);
    m_leftSplit->setObjectName(QStringLiteral("deployLeftSplit"));
    m_leftSplit->setChildrenCollapsible(false);
    m_leftSplit->addWidget(choose);
    m_leftSplit->addWidget(m_steps);
    m_leftSplit->setStretchFactor(0, 0);
    m_leftSplit->setStretchFactor(1, 1);
    connect(m_leftSplit, &QSplitter::splitterMoved, this, [this] { m_leftSplitDragged = true; });
    leftLayout->addWidget(m_leftSplit, 1);
    leftLayout->addLayout(buildButtons());
    m_notice->setObjectName(QStringLiteral("deployNotice"));
    m_notice->setWordWrap(true);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notice->setMinimumHeight(m_notice->fontMetrics().lineSpacing() * 3);
    m_notice->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    // The deployed server, opened to colleagues through a gateway: beside what the page says.
    auto *noticeRow = new QHBoxLayout;
    noticeRow->addWidget(m_notice, 1);
    m_openToTeam->setObjectName(QStringLiteral("deployOpenToTeam"));
    m_openToTeam->setToolTip(tr("Put a TLS gateway in front of the server: allowed networks, the API key, limits"));
    noticeRow->addWidget(m_openToTeam, 0, Qt::AlignTop);
    leftLayout->addLayout(noticeRow);
    return left;
}

QSplitter *DeployPage::buildRight(QWidget *parent)
{
    auto *rightSplit = new QSplitter(Qt::Vertical, parent);
    m_rightSplit = rightSplit;
    m_right->addWidget(m_detail);
    m_right->addWidget(m_license);
    rightSplit->addWidget(m_right);
    auto *logBox = new QGroupBox(tr("Log (live, classified)"), rightSplit);
    auto *logLayout = new QVBoxLayout(logBox);
    logLayout->setContentsMargins(6, 6, 6, 6);
    logLayout->addWidget(m_log);
    rightSplit->addWidget(logBox);
    rightSplit->setStretchFactor(0, 2);
    rightSplit->setStretchFactor(1, 3);
    return rightSplit;
}

QGroupBox *DeployPage::buildChooser(QWidget *parent, QPushButton *&addHost)
{
    auto *choose = new QGroupBox(tr("Host and profile"), parent);
    auto *chooseLayout = new QVBoxLayout(choose);
    addHost = new QPushButton(tr("Add host…"), choose);
    buildChoiceRows(chooseLayout, choose, addHost);
    // The page's way for hosts without a verified command: SGLang's configuration generator's.
    chooseLayout->addWidget(m_generator);
    m_card->setObjectName(QStringLiteral("profileCard"));
    m_card->setWordWrap(true);
    m_card->setOpenExternalLinks(true);
    m_card->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_card->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    // The card scrolls within what the left column's split gives it: at 1366 × 768 the steps keep
    // ten rows and the card takes the rest (the AMD card, with its image note, is taller than the
    // screen's share for it); the operator may drag the split. It was a 115 px box once.
    auto *cardScroll = new QScrollArea(choose);
    cardScroll->setObjectName(QStringLiteral("profileCardScroll"));
    cardScroll->setWidget(m_card);
    cardScroll->setWidgetResizable(true);
    cardScroll->setFrameShape(QFrame::NoFrame);
    cardScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    cardScroll->setMinimumHeight(120);
    chooseLayout->addWidget(cardScroll, 1);
    return choose;
}

void DeployPage::buildChoiceRows(QVBoxLayout *chooseLayout, QGroupBox *choose, QPushButton *addHost)
{
    auto *hostRow = new QHBoxLayout;
    m_hostBox->setObjectName(QStringLiteral("deployHost"));
    hostRow->addWidget(new QLabel(tr("Host:"), choose));
    hostRow->addWidget(m_hostBox, 1);
    hostRow->addWidget(addHost);
    chooseLayout->addLayout(hostRow);
    auto *profileRow = new QHBoxLayout;
    m_profileBox->setObjectName(QStringLiteral("deployProfile"));
    profileRow->addWidget(new QLabel(tr("Profile:"), choose));
    profileRow->addWidget(m_profileBox, 1);
    chooseLayout->addLayout(profileRow);
    for (const recipe::Recipe &r : *m_recipes) {
        for (const recipe::RecipeProfile &p : r.profiles) {
            m_profileBox->addItem(p.title, p.id);
        }
    }
    m_flags->setObjectName(QStringLiteral("operatorFlags"));
    m_flags->setPlaceholderText(tr("The Low-Latency recipe's flags, as the Cookbook gives them"));
    chooseLayout->addWidget(m_flags);
    // The image: only where the deployment page names none (AMD), confirmed or supplied here.
    auto *imageLayout = new QHBoxLayout(m_imageRow);
    imageLayout->setContentsMargins(0, 0, 0, 0);
    m_image->setObjectName(QStringLiteral("deployImage"));
    m_useSuggested->setObjectName(QStringLiteral("deployUseSuggestedImage"));
    imageLayout->addWidget(new QLabel(tr("Image:"), m_imageRow));
    imageLayout->addWidget(m_image, 1);
    imageLayout->addWidget(m_useSuggested);
    chooseLayout->addWidget(m_imageRow);
    // F13: the page's commands use GPUs 0-3 and tell the operator to change the list if busy.
    auto *gpusLayout = new QHBoxLayout(m_gpusRow);
    gpusLayout->setContentsMargins(0, 0, 0, 0);
    m_gpus->setObjectName(QStringLiteral("deployGpus"));
    m_gpus->setAccessibleName(tr("GPUs"));
    m_gpus->setToolTip(tr("One GPU per TP rank, as nvidia-smi numbers them (services in order). Change the list "
                          "when those GPUs are busy."));
    gpusLayout->addWidget(new QLabel(tr("GPUs:"), m_gpusRow));
    gpusLayout->addWidget(m_gpus, 1);
    gpusLayout->addWidget(new QLabel(tr("if busy"), m_gpusRow));
    // The server's port on the host's loopback: another when the profile's is taken; recorded, so
    // chat, status and the runbook follow it.
    m_port->setObjectName(QStringLiteral("deployPort"));
    m_port->setAccessibleName(tr("Port"));
    m_port->setRange(1, 65535);
    m_port->setToolTip(tr("The port the server listens on, on the host's loopback (the router's for a profile with "
                          "one). Chat, status and the runbook use the port recorded here."));
    gpusLayout->addWidget(new QLabel(tr("Port:"), m_gpusRow));
    gpusLayout->addWidget(m_port);
    chooseLayout->addWidget(m_gpusRow);
}

QHBoxLayout *DeployPage::buildButtons()
{
    auto *buttons = new QHBoxLayout;
    QWidget *previous = nullptr;
    for (QPushButton *b : {m_run, m_stop, m_resume, m_retry, m_upgrade, m_export}) {
        buttons->addWidget(b);
        // Tab goes as the row reads (it went Resume → Export runbook → Upgrade, the order the
        // buttons were made in).
        if (previous) {
            setTabOrder(previous, b);
        }
        previous = b;
    }
    m_run->setObjectName(QStringLiteral("deployRun"));
    m_stop->setObjectName(QStringLiteral("deployStop"));
    m_resume->setObjectName(QStringLiteral("deployResume"));
    m_retry->setObjectName(QStringLiteral("deployRetry"));
    m_export->setObjectName(QStringLiteral("deployExport"));
    m_upgrade->setObjectName(QStringLiteral("deployUpgrade"));
    m_upgrade->setToolTip(tr("Move this host's deployment to another image digest or model revision; on any failure "
                             "it rolls back to the current pins"));
    m_run->setDefault(true);
    m_resume->setToolTip(tr("Run the plan again: each step checks what is there; nothing is pulled or started twice"));
    m_retry->setToolTip(tr("Run again from the failed step's checks (earlier steps reuse what they found)"));
    buttons->addStretch(1);
    return buttons;
}

void DeployPage::wire(QPushButton *addHost)
{
    const auto recheck = [this] {
        if (const recipe::RecipeProfile *p = m_recipes->isEmpty() ? nullptr : m_recipes->first().profile(profile())) {
            m_generator->setContext(m_recipes->first(), *p, m_gpus->text(), quint16(m_port->value()));
        }
    };
    connect(m_gpus, &QLineEdit::textChanged, this, recheck);
    connect(m_port, &QSpinBox::valueChanged, this, recheck);
    connect(m_generator, &LaunchCommandBox::changed, this, &DeployPage::updateButtons);
    connect(m_generator, &LaunchCommandBox::edited, this, [this] {
        if (!isRunning()) {
            m_notice->clear(); // what Run said of the command before is said anew, in the preview
        }
    });
    connect(m_useSuggested, &QPushButton::clicked, this, [this] {
        const recipe::RecipeProfile *p = m_recipes->isEmpty() ? nullptr : m_recipes->first().profile(profile());
        if (p) {
            m_image->setText(m_recipes->first().imageOf(*p).reference());
        }
    });
    connect(addHost, &QPushButton::clicked, this, &DeployPage::addHostRequested);
    connect(m_hostBox, &QComboBox::currentIndexChanged, this, [this] { setHost(m_hostBox->currentData().toString()); });
    connect(m_hostBox, &QComboBox::activated, this, [this] { Q_EMIT hostChosen(m_host); });
    connect(m_profileBox, &QComboBox::currentIndexChanged, this, [this] {
        updateProfileCard();
        loadJournal();
    });
    connect(m_steps, &QTreeWidget::currentItemChanged, this, &DeployPage::showSelected);
    connect(m_run, &QPushButton::clicked, this, &DeployPage::run);
    connect(m_resume, &QPushButton::clicked, this, &DeployPage::run);
    connect(m_retry, &QPushButton::clicked, this, &DeployPage::run);
    connect(m_stop, &QPushButton::clicked, this, &DeployPage::stop);
    connect(m_upgrade, &QPushButton::clicked, this, &DeployPage::askUpgrade);
    connect(m_openToTeam, &QPushButton::clicked, this, &DeployPage::openToTeam);
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export runbook"),
                                                          QStringLiteral("flashdeck-%1-runbook.sh").arg(m_host),
                                                          tr("Shell scripts (*.sh)"));
        if (path.isEmpty()) {
            return;
        }
        QString error;
        m_notice->setText(exportRunbook(path, &error)
                              ? tr("Runbook written to %1. Run it on the host with FLASHDECK_API_KEY set.").arg(path)
                              : error);
    });
    connect(m_license, &LicensePanel::acknowledged, this, [this] {
        applyRecord({QStringLiteral("license"), recipe::StepStatus::Pass,
                     m_steps->record(QStringLiteral("license")).title, tr("The model's licence, acknowledged by you"),
                     QString(), QString(),
                     tr("acknowledged for %1 use by %2").arg(m_license->acknowledgedUse(), m_license->record()),
                     QString(), QDateTime::currentDateTimeUtc(), QString()});
        if (m_runAfterLicense) {
            m_runAfterLicense = false;
            startSession();
        }
    });
    connect(&m_watcher, &fleet::FleetWatcher::hostsChanged, this, &DeployPage::rebuildHosts);
    connect(&m_watcher, &fleet::FleetWatcher::statusChanged, this, [this](const QString &host) {
        if (host == m_host) {
            followHost();
            // A run from a terminal or another window: its start is awaited here too.
            const metrics::HostStatus status = m_watcher.status(host);
            m_log->setStartExpected(isRunning() || status.deployRunning || status.upgradeRunning);
        }
    });
    connect(m_profileBox, &QComboBox::activated, this, [this] { m_profileChosenFor.insert(m_host); });
}

void DeployPage::rebuildHosts()
{
    const QString keep = m_host;
    const QSignalBlocker block(m_hostBox);
    m_hostBox->clear();
    for (const QString &h : m_watcher.hosts()) {
        const fleet::HostEntry *e = m_watcher.entry(h);
        m_hostBox->addItem(e && e->simulated ? tr("%1 · SIMULATED").arg(h) : h, h);
    }
    if (m_hostBox->count() == 0) {
        m_hostBox->addItem(tr("No hosts yet: add one"), QString());
    }
    const int i = m_hostBox->findData(keep);
    m_hostBox->setCurrentIndex(i >= 0 ? i : 0);
    if (m_hostBox->currentData().toString() != m_host) {
        setHost(m_hostBox->currentData().toString());
    }
    // The same name may have a new session (the host left the inventory and came back): follow it.
    followOperation();
    updateButtons();
}

void DeployPage::setHost(const QString &host)
{
    if (isRunning()) {
        if (host != m_host) {
            const QSignalBlocker block(m_hostBox);
            m_hostBox->setCurrentIndex(m_hostBox->findData(m_host)); // one run at a time on this page
            m_notice->setText(tr("A deployment is running on %1: stop it before switching hosts.").arg(m_host));
            Q_EMIT hostChosen(m_host); // the host bar comes back to the host the run is on
        }
        return;
    }
    if (host != m_host) {
        // The generator's command belongs to the host it was pasted for: an AMD host's ROCm flags
        // must not follow the operator to an NVIDIA one. Each host gets back its own, else the
        // command its deployment runs.
        if (!m_host.isEmpty()) {
            m_commandFor.insert(m_host, m_generator->text());
        }
        QString command = m_commandFor.value(host);
        if (!m_commandFor.contains(host) && !host.isEmpty()) {
            if (const Result<recipe::Deployment> d = deploymentOf(host)) {
                command = d.value().launchCommand;
            }
        }
        m_generator->setText(command);
    }
    m_host = host;
    {
        const QSignalBlocker block(m_hostBox);
        const int i = m_hostBox->findData(host);
        if (i >= 0) {
            m_hostBox->setCurrentIndex(i);
        }
    }
    m_license->setHost(host);
    m_notice->clear();
    showHost();
}

Result<recipe::Deployment> DeployPage::deploymentOf(const QString &host) const
{
    const fleet::HostSession *session = host.isEmpty() ? nullptr : m_watcher.session(host);
    return session ? session->deployment() : Result<recipe::Deployment>(Status::failure(QString()));
}

void DeployPage::showHost()
{
    followHost();
    syncPort();
    loadJournal();
    restartLog();
    updateButtons();
    followOperation();
}

void DeployPage::syncPort()
{
    const recipe::RecipeProfile *p = m_recipes->isEmpty() ? nullptr : m_recipes->first().profile(profile());
    if (!p) {
        return;
    }
    // The port the deployment on this host was made with, for this profile; else the profile's.
    const Result<recipe::Deployment> d = deploymentOf(m_host);
    m_port->setValue(d && d.value().profile == p->id && d.value().port != 0 ? d.value().port
                                                                            : recipe::ProfileChoice::servedPort(*p));
}

void DeployPage::followHost()
{
    if (isRunning() || m_host.isEmpty() || m_profileChosenFor.contains(m_host)) {
        return;
    }
    QString id;
    if (const Result<recipe::Deployment> d = deploymentOf(m_host)) {
        id = d.value().profile; // what runs there
    } else if (const metrics::HostMonitor *monitor = m_watcher.monitor(m_host)) {
        QStringList names;
        for (const probe::GpuSample &g : monitor->status().gpus) {
            names.append(g.name);
        }
        // A profile made for these GPUs, else the page's generator-only entry for their model
        // (8 × H200: the card then asks for the generator's command instead of offering B300's).
        for (const recipe::Recipe &r : *m_recipes) {
            const recipe::RecipeProfile *p = r.profileForGpus(names);
            p = p ? p : recipe::ProfileChoice::generatorEntryForGpus(r, names);
            if (p) {
                id = p->id;
                break;
            }
        }
    }
    const int i = id.isEmpty() ? -1 : m_profileBox->findData(id);
    if (i >= 0 && i != m_profileBox->currentIndex()) {
        m_profileBox->setCurrentIndex(i);
    }
}

void DeployPage::setProfile(const QString &profileId)
{
    m_profileChosenFor.insert(m_host);
    const int i = m_profileBox->findData(profileId);
    if (i >= 0) {
        m_profileBox->setCurrentIndex(i);
    }
}

QString DeployPage::profile() const
{
    return m_profileBox->currentData().toString();
}

void DeployPage::updateProfileCard()
{
    if (m_recipes->isEmpty()) {
        return;
    }
    const recipe::Recipe &r = m_recipes->first();
    const recipe::RecipeProfile *p = r.profile(profile());
    if (!p) {
        return;
    }
    m_flags->setVisible(p->operatorFlagsRequired);
    m_imageRow->setVisible(p->imageConfirm);
    m_image->clear(); // a suggestion is not a decision: each AMD run is confirmed again
    m_image->setPlaceholderText(p->imageConfirm ? tr("Suggested: %1").arg(r.imageOf(*p).reference()) : QString());
    m_gpusRow->setVisible(!p->generatorOnly());
    m_gpus->setText(recipe::ProfileChoice::gpuList(*p));
    syncPort();
    // No B300 flags where the page has no verified command: the generator's, or nothing.
    m_generator->setRequired(p->generatorOnly() || p->vendor == probe::GpuVendor::Amd);
    m_generator->setContext(r, *p, m_gpus->text(), quint16(m_port->value()));
    // The pinned image's real size once a run on this host measured it (dockerd's Size: unpacked, what
    // the disk holds), the recipe's estimate before. Unpacked, said so: the pull step reports the
    // compressed download, which is smaller (a 32 GB image arrives as about 14 GB).
    qint64 imageBytes = r.imageApproxBytes;
    QString imageWord = tr("image about %1 unpacked").arg(fmt::bytes(r.imageApproxBytes));
    if (!m_host.isEmpty()) {
        if (const auto d = deploymentOf(m_host); d && d.value().profile == p->id && d.value().imageBytes > 0) {
            imageBytes = d.value().imageBytes;
            imageWord = tr("the pinned image %1 unpacked").arg(fmt::bytes(imageBytes));
        }
    }
    m_card->setText(ProfileCard::html(r, *p, imageBytes, imageWord));
    updateButtons();
}

bool DeployPage::isRunning() const
{
    const fleet::HostSession *session = hostSession();
    return session && session->operationRunning();
}

fleet::HostSession *DeployPage::hostSession() const
{
    return m_host.isEmpty() ? nullptr : m_watcher.session(m_host);
}

void DeployPage::updateButtons()
{
    const bool running = isRunning();
    const recipe::RecipeProfile *p = m_recipes->isEmpty() ? nullptr : m_recipes->first().profile(profile());
    const bool launchable = p && (!p->generatorOnly() || m_generator->launch()) && !m_host.isEmpty();
    const bool anyRun = m_steps->anyRun();
    m_run->setEnabled(launchable && !running);
    m_stop->setEnabled(running);
    // A run that ended well has nothing to resume (Run checks it all again).
    m_resume->setEnabled(launchable && !running && anyRun && !m_steps->allDone());
    m_retry->setEnabled(launchable && !running && m_steps->status(m_steps->currentStep()) == recipe::StepStatus::Fail);
    m_export->setEnabled(!m_host.isEmpty() && recipe::Deployment::exists(m_paths, m_host));
    // Nothing to upgrade once undeployed (the containers are gone): Run deploys it again.
    m_upgrade->setEnabled(!running && m_record && !m_record->isUndeployed());
    m_openToTeam->setEnabled(!running && m_record && !m_record->isUndeployed());
    m_hostBox->setEnabled(!running);
    m_profileBox->setEnabled(!running);
    m_image->setEnabled(!running);
    m_useSuggested->setEnabled(!running);
    m_gpus->setEnabled(!running);
    m_port->setEnabled(!running);
    m_generator->setEnabled(!running);
}

void DeployPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    fitLeftSplit();
}

void DeployPage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitLeftSplit();
}

void DeployPage::fitLeftSplit()
{
    if (m_leftSplitDragged || !isVisible()) {
        return;
    }
    if (layout()) {
        layout()->activate(); // the split's height as this page's size gives it
    }
    const QWidget *choose = m_leftSplit->widget(0);
    const auto *cardScroll = choose->findChild<QScrollArea *>(QStringLiteral("profileCardScroll"));
    const int total = m_leftSplit->height() - m_leftSplit->handleWidth();
    const int row = std::max(m_steps->fontMetrics().lineSpacing() + 4, 18);
    const int stepsAtLeast = row * 10 + m_steps->frameWidth() * 2;
    // The group at its least holds the card at its least; what the card's text needs comes on top
    // (a wrapping label's own size hint is a guess at another width).
    const int least = choose->minimumSizeHint().height();
    const int cardWants = m_card->heightForWidth(cardScroll->viewport()->width()) - cardScroll->minimumHeight();
    const int top = std::clamp(least + std::max(0, cardWants), least, std::max(least, total - stepsAtLeast));
    m_leftSplit->setSizes({top, std::max(0, total - top)});
}

} // namespace flashdeck::ui

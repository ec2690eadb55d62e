#include "ui/fleet/upgradepanel.h"

#include "backend/core/apppaths.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/rollingupgrade.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/licenseterms.h"
#include "backend/security/secretstore.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace flashdeck::ui {

namespace {
enum Column { HostColumn, FromColumn, ToColumn, NowColumn };
}

UpgradePanel::UpgradePanel(fleet::FleetWatcher &watcher, const AppPaths &paths, security::Redactor &redactor,
                           QWidget *parent)
    : QWidget(parent)
    , m_watcher(watcher)
    , m_paths(paths)
    , m_redactor(redactor)
    , m_title(new QLabel(this))
    , m_rows(new QTreeWidget(this))
    , m_stop(new QPushButton(tr("Stop"), this))
{
    setObjectName(QStringLiteral("fleetUpgrades"));
    auto recipes = recipe::Recipe::builtIn();
    auto terms = recipe::LicenseTerms::builtIn();
    m_recipes = std::make_unique<QList<recipe::Recipe>>(recipes ? recipes.value() : QList<recipe::Recipe>());
    if (terms) {
        m_terms = std::make_unique<recipe::LicenseTerms>(terms.value());
    }
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 8, 0, 0);
    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    m_stop->setObjectName(QStringLiteral("fleetUpgradeStop"));
    m_stop->setToolTip(tr("The running hosts stop where they are (Upgrade… resumes each); no other host starts"));
    top->addWidget(m_stop);
    layout->addLayout(top);
    m_rows->setObjectName(QStringLiteral("fleetUpgradeRows"));
    m_rows->setHeaderLabels({tr("Host"), tr("From"), tr("To"), tr("Now")});
    m_rows->setRootIsDecorated(false);
    m_rows->setColumnWidth(HostColumn, 150);
    m_rows->setColumnWidth(FromColumn, 260);
    m_rows->setColumnWidth(ToColumn, 260);
    layout->addWidget(m_rows);
    connect(m_stop, &QPushButton::clicked, this, [this] {
        if (m_rolling) {
            m_rolling->cancel();
        }
    });
    hide();
}

UpgradePanel::~UpgradePanel() = default;

bool UpgradePanel::running() const
{
    return m_rolling && m_stop->isEnabled();
}

void UpgradePanel::setNow(const QString &host, const QString &text)
{
    for (int i = 0; i < m_rows->topLevelItemCount(); ++i) {
        if (QTreeWidgetItem *item = m_rows->topLevelItem(i); item->text(HostColumn) == host) {
            item->setText(NowColumn, text);
            item->setToolTip(NowColumn, text);
        }
    }
}

bool UpgradePanel::start(const QStringList &hosts, const deploy::UpgradeTarget &target, int maxUnavailable,
                         QString *error)
{
    if (running() || m_recipes->isEmpty() || !m_terms) {
        *error = running() ? tr("An upgrade is running.") : tr("This build has no recipe.");
        return false;
    }
    security::SecretStore *secrets = &m_watcher.secretStore();
    const recipe::Recipe &recipe = m_recipes->first();
    // Each host through its session's connection, when it is up (the fleet layer decides).
    auto rolling = std::make_unique<fleet::RollingUpgrade>(recipe, *secrets, m_redactor, m_watcher.upgradeConnector());
    for (const QString &host : hosts) {
        Result<deploy::UpgradeSetup> setup = deploy::UpgradeSetup::prepare(m_paths, host, recipe, *m_terms, target);
        if (!setup) {
            *error = setup.message();
            return false;
        }
        rolling->add(host, recipe::Deployment::directory(m_paths, host), std::move(setup).value());
    }
    m_rolling = std::move(rolling);
    showRows();
    m_title->setText(tr("<b>Upgrade</b> — %n host(s), %1 at a time; none starts after one that rolls back", nullptr,
                        int(hosts.size()))
                         .arg(maxUnavailable));
    connectRolling(m_rolling.get());
    m_stop->setEnabled(true);
    show();
    m_rolling->start(maxUnavailable);
    return true;
}

void UpgradePanel::showRows()
{
    m_rows->clear();
    for (const fleet::RollingUpgrade::Host &h : m_rolling->hosts()) {
        auto *item =
            new QTreeWidgetItem(m_rows,
                                {h.name, deploy::UpgradePlan::shortPins(h.setup.plan.from),
                                 deploy::UpgradePlan::shortPins(h.setup.plan.to), fleet::RollingUpgrade::resultOf(h)});
        item->setToolTip(FromColumn,
                         h.setup.plan.from.imageDigest + QLatin1Char('\n') + h.setup.plan.from.modelRevision);
        item->setToolTip(ToColumn, h.setup.plan.to.imageDigest + QLatin1Char('\n') + h.setup.plan.to.modelRevision);
    }
}

void UpgradePanel::connectRolling(fleet::RollingUpgrade *r)
{
    connect(r, &fleet::RollingUpgrade::hostStarted, this,
            [this](const QString &host, const deploy::UpgradePlan &) { setNow(host, tr("connecting…")); });
    connect(r, &fleet::RollingUpgrade::phaseChanged, this,
            [this](const QString &host, deploy::UpgradePhase phase, const deploy::UpgradePlan &plan) {
                setNow(host,
                       phase == deploy::UpgradePhase::Upgrade ? tr("upgrading…")
                                                              : tr("rolling back (%1 failed)…").arg(plan.failedStep));
            });
    connect(r, &fleet::RollingUpgrade::stepChanged, this,
            [this](const QString &host, const recipe::StepRecord &record) {
                if (record.status == recipe::StepStatus::Running) {
                    setNow(host, QStringLiteral("%1: %2").arg(record.phase, record.title));
                }
            });
    connect(
        r, &fleet::RollingUpgrade::hostFinished, this,
        [this, r](const QString &host, std::optional<deploy::UpgradeOutcome> outcome, const deploy::UpgradePlan &plan) {
            for (const fleet::RollingUpgrade::Host &h : r->hosts()) {
                if (h.name != host) {
                    continue;
                }
                QString words = fleet::RollingUpgrade::resultOf(h);
                if (outcome == deploy::UpgradeOutcome::RolledBack ||
                    outcome == deploy::UpgradeOutcome::RollbackFailed) {
                    words += QStringLiteral(": %1 failed (%2)").arg(plan.failedStep, plan.failedSeen);
                } else if (!h.unreachable.isEmpty()) {
                    words += QStringLiteral(": ") + h.unreachable;
                }
                setNow(host, words);
            }
            m_watcher.deploymentChanged(host); // the Pins column follows
        });
    connect(r, &fleet::RollingUpgrade::finished, this, [this, r] {
        for (const fleet::RollingUpgrade::Host &h : r->hosts()) {
            if (!h.started) {
                setNow(h.name, fleet::RollingUpgrade::resultOf(h));
            }
        }
        m_stop->setEnabled(false);
        Q_EMIT finished(r->allUpgraded());
    });
}

} // namespace flashdeck::ui

#include "ui/pages/logspage.h"

#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostsession.h"
#include "backend/logs/loghighlights.h"
#include "backend/logs/logrules.h"
#include "backend/metrics/hoststatus.h"
#include "ui/logs/logmodel.h"
#include "ui/logs/logpanel.h"

#include <QLabel>
#include <QVBoxLayout>

namespace flashdeck::ui {

LogsPage::LogsPage(fleet::FleetWatcher &watcher, QWidget *parent)
    : QWidget(parent)
    , m_watcher(watcher)
    , m_title(new QLabel(this))
{
    setObjectName(QStringLiteral("logsPage"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    QFont f = m_title->font();
    f.setPointSizeF(f.pointSizeF() * 1.25);
    f.setBold(true);
    m_title->setFont(f);
    layout->addWidget(m_title);
    auto rules = logs::LogRules::builtIn();
    if (!rules) {
        auto *error = new QLabel(rules.message(), this);
        error->setWordWrap(true);
        layout->addWidget(error, 1);
        m_title->setText(tr("Logs"));
        return;
    }
    m_rules = std::make_unique<logs::LogRules>(rules.value());
    m_panel = new LogPanel(*m_rules, this);
    layout->addWidget(m_panel, 1);
    // A deployment or upgrade of the host, from wherever it runs: its start is awaited, not "no log".
    connect(&m_watcher, &fleet::FleetWatcher::statusChanged, this, [this](const QString &host) {
        if (host == m_host) {
            const metrics::HostStatus status = m_watcher.status(host);
            m_panel->setStartExpected(status.deployRunning || status.upgradeRunning);
        }
    });
    connect(&m_watcher, &fleet::FleetWatcher::hostsChanged, this, [this] {
        // The host's connection may have been replaced (or the host removed).
        if (m_following && m_watcher.session(m_host) == nullptr) {
            restart();
        }
    });
    restart();
}

LogsPage::~LogsPage() = default;

void LogsPage::setHost(const QString &host)
{
    if (host == m_host && m_following) {
        return;
    }
    m_host = host;
    restart();
}

void LogsPage::setCapacity(qsizetype lines)
{
    if (m_panel) {
        m_panel->model()->setCapacity(lines);
    }
}

void LogsPage::restart()
{
    m_following = false;
    m_title->setText(m_host.isEmpty() ? tr("Logs") : tr("Logs · %1").arg(m_host));
    if (!m_panel) {
        return;
    }
    m_panel->model()->setRecordedQmul4(m_host.isEmpty() ? logs::LogHighlights::Qmul4::Unknown
                                                        : logs::LogHighlights::recorded(m_watcher.paths(), m_host));
    fleet::HostSession *session = m_host.isEmpty() ? nullptr : m_watcher.session(m_host);
    m_panel->follow(session ? session->logStream() : nullptr, m_panel->model()->capacity());
    if (!session) {
        m_panel->setStatus(m_host.isEmpty() ? tr("Pick a host in the host bar to follow its deployment's log.")
                                            : tr("%1 is not in the inventory.").arg(m_host));
        return;
    }
    m_following = true;
}

} // namespace flashdeck::ui

#pragma once

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;

namespace flashdeck {
namespace fleet {
class FleetWatcher;
} // namespace fleet
namespace logs {
class LogRules;
} // namespace logs
} // namespace flashdeck

namespace flashdeck::ui {

class LogPanel;

/**
 * The Logs page (screens.md §Logs): the live log of the selected host's deployment, followed
 * over the host's one SSH connection, through reconnects and restarts, into a LogPanel. It
 * keeps following while another page is shown, so nothing is missed.
 */
class LogsPage final : public QWidget
{
    Q_OBJECT

public:
    explicit LogsPage(fleet::FleetWatcher &watcher, QWidget *parent = nullptr);
    ~LogsPage() override;

    void setHost(const QString &host);
    QString host() const { return m_host; }
    LogPanel *panel() const { return m_panel; }
    /** Lines kept per host (settings; 200 000 by default). */
    void setCapacity(qsizetype lines);

private:
    void restart();

    fleet::FleetWatcher &m_watcher;
    std::unique_ptr<logs::LogRules> m_rules;
    QString m_host;
    QLabel *m_title;
    LogPanel *m_panel = nullptr;
    bool m_following = false;
};

} // namespace flashdeck::ui

#pragma once

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;
class QToolButton;

namespace flashdeck {
namespace fleet {
struct HostEntry;
} // namespace fleet
namespace ssh {
struct ConnectionState;
} // namespace ssh
} // namespace flashdeck

namespace flashdeck::ui {

/**
 * The bar above every page: the host selector, the chosen host's connection state with Connect,
 * and Add host… and Settings. The window decides what a choice or a button does.
 */
class HostBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostBar)

public:
    explicit HostBar(QWidget *parent = nullptr);

    /** The window's one host selector: every page follows it. */
    QComboBox *selector() const { return m_selector; }
    /** Lists `hosts` and chooses `select` (else the first); the caller blocks the selector's signals. */
    void setHosts(const QList<fleet::HostEntry> &hosts, const QString &select);
    /** No session for the chosen host (or no host at all): nothing to show a state of. */
    void showNoConnection();
    /** The chosen host's connection, as its one connection reports it. */
    void showState(const ssh::ConnectionState &state);

Q_SIGNALS:
    void connectRequested();
    void addHostRequested();
    void settingsRequested();

private:
    QComboBox *m_selector;
    QLabel *m_state;
    QToolButton *m_connect;
};

} // namespace flashdeck::ui

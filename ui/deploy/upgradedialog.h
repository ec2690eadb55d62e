#pragma once

#include "backend/deploy/upgradesetup.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace flashdeck::ui {

/**
 * "Upgrade…" on the Deploy page: what the host runs now, the image digest and model commit to
 * move to (typed, pasted or read from a pins file), and what will happen, in words. An
 * interrupted upgrade of the host is offered for resuming instead. The choice is target().
 * For several hosts (the Fleet page's selection) it also asks how many may upgrade at once.
 */
class UpgradeDialog final : public QDialog
{
    Q_OBJECT

public:
    /** `current`: the host's pins; `interrupted`: an unfinished upgrade's plan, if any. */
    UpgradeDialog(const QString &host, const recipe::Pins &current,
                  const std::optional<deploy::UpgradePlan> &interrupted, QWidget *parent = nullptr);
    /** Several hosts: `current` is the first one's pins (the fields start from them). */
    UpgradeDialog(const QStringList &hosts, const recipe::Pins &current, QWidget *parent = nullptr);

    deploy::UpgradeTarget target() const;
    /** How many hosts may upgrade at once (1 for one host). */
    int maxUnavailable() const;
    QLineEdit *digestField() const { return m_digest; }
    QLineEdit *revisionField() const { return m_revision; }
    QPushButton *startButton() const { return m_start; }

private:
    void build(const QString &title, const QString &runs, bool several);
    void validate();
    void readPinsFile();

    recipe::Pins m_current;
    bool m_resume = false;
    bool m_several = false;
    QSpinBox *m_maxUnavailable = nullptr;
    QPushButton *m_fromFile = nullptr;
    QLineEdit *m_digest;
    QLineEdit *m_revision;
    QLabel *m_problem;
    QPushButton *m_start;
};

} // namespace flashdeck::ui

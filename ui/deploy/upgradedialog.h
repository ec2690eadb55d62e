#pragma once

#include "backend/deploy/upgradesetup.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace flashdeck::ui {

/**
 * "Upgrade…" on the Deploy page: what the host runs now, the image digest and model commit to
 * move to (typed, pasted or read from a pins file), and what will happen, in words. An
 * interrupted upgrade of the host is offered for resuming instead. The choice is target().
 */
class UpgradeDialog final : public QDialog
{
    Q_OBJECT

public:
    /** `current`: the host's pins; `interrupted`: an unfinished upgrade's plan, if any. */
    UpgradeDialog(const QString &host, const Pins &current, const std::optional<UpgradePlan> &interrupted,
                  QWidget *parent = nullptr);

    UpgradeTarget target() const;
    QLineEdit *digestField() const { return m_digest; }
    QLineEdit *revisionField() const { return m_revision; }
    QPushButton *startButton() const { return m_start; }

private:
    void validate();
    void readPinsFile();

    Pins m_current;
    bool m_resume = false;
    QLineEdit *m_digest;
    QLineEdit *m_revision;
    QLabel *m_problem;
    QPushButton *m_start;
};

} // namespace flashdeck::ui

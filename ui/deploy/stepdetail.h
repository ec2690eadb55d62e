#pragma once

#include "backend/recipe/step.h"

#include <QWidget>

class QFormLayout;
class QLabel;
class QProgressBar;
class QPushButton;

namespace flashdeck::ui {

/**
 * The selected step of the plan (screens.md §Deploy): why it matters, the exact command or
 * call with a Copy button (secrets already redacted), what was expected, what was seen, and on
 * failure what to do, on a red panel. A running pull shows bytes, rate and ETA.
 */
class StepDetail final : public QWidget
{
    Q_OBJECT

public:
    explicit StepDetail(QWidget *parent = nullptr);

    void show(const recipe::StepRecord &record);
    const recipe::StepRecord &record() const { return m_record; }
    /** Progress of the step shown: bytes (or items) done of total, and the runner's words. */
    /** The bar (the step's percent) and its line: rate and time left ("about" on an estimated total). */
    void setProgress(const recipe::StepProgress &progress, double ratePerSecond, bool inBytes = true);
    void clearProgress();
    /** The pull's layers, shown under "▸ layers (N)" on demand. */
    void setLayers(const QStringList &layers);

private:
    recipe::StepRecord m_record;
    QLabel *m_title;
    QLabel *m_status;
    QLabel *m_why;
    QLabel *m_command;
    QPushButton *m_copy;
    QProgressBar *m_bar;
    QLabel *m_progress;
    QPushButton *m_layersToggle;
    QLabel *m_layers;
    QLabel *m_expected;
    QLabel *m_seen;
    QLabel *m_fix;
    QFormLayout *m_form = nullptr;
};

} // namespace flashdeck::ui

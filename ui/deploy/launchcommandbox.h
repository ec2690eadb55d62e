#pragma once

#include "backend/recipe/importedlaunch.h"
#include "backend/recipe/recipe.h"

#include <QGroupBox>

#include <optional>

class QPlainTextEdit;

namespace flashdeck::ui {

/**
 * "Use the configuration generator's command" on the Deploy page's profile card: the operator
 * pastes what SGLang's generator printed (`python3 -m sglang.launch_server …`, `sglang serve …`,
 * or a whole `docker run … IMAGE …`), and sees at once what will run: the generator's arguments as
 * given, what Flashdeck sets and why, what is not carried over, or why it is refused, with the
 * numbers. Checked, never run; nothing is pulled until the operator presses Run.
 *
 * Required (shown open) for the hosts the page has no verified command for (AMD, B200, GB200,
 * H200); available, unchecked, on every other profile.
 */
class LaunchCommandBox final : public QGroupBox
{
    Q_OBJECT

public:
    explicit LaunchCommandBox(QWidget *parent = nullptr);

    /** The profile the command runs in, and the operator's GPUs and port; re-checks the command. */
    void setContext(const recipe::Recipe &recipe, const recipe::RecipeProfile &listed, const QString &gpus,
                    quint16 port);
    /** The page has no verified command for this profile: the box is open and a command needed. */
    void setRequired(bool required);
    bool required() const { return m_required; }

    /** The operator's command, as pasted (empty when the box is unchecked). */
    QString text() const;
    void setText(const QString &text);
    /** The command checked into what runs; empty when there is none or it is refused. */
    const std::optional<recipe::ImportedLaunch> &launch() const { return m_launch; }
    /** The profile the command runs as (a host without a verified command: one service on its GPUs). */
    const std::optional<recipe::RecipeProfile> &layout() const { return m_layout; }
    /** Why the command is refused, in words; empty when it is accepted or absent. */
    QString problem() const { return m_problem; }
    /** The page's words for a host without a verified command, as the window says them. */
    static QString advice(const QString &hardware);

Q_SIGNALS:
    /** The command, or what it was checked against, changed. */
    void changed();
    /** The operator changed the command (typed, pasted, switched the box on or off). */
    void edited();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void showFrame(bool shown);
    void check();
    void showPreview();

    QPlainTextEdit *m_edit;
    QPlainTextEdit *m_preview; // read-only, scrolls: a long preview never grows the window
    std::optional<recipe::Recipe> m_recipe;
    std::optional<recipe::RecipeProfile> m_listed;
    QString m_gpus;
    quint16 m_port = 0;
    bool m_required = false;
    std::optional<recipe::ImportedLaunch> m_launch;
    std::optional<recipe::RecipeProfile> m_layout;
    QString m_problem;
};

} // namespace flashdeck::ui

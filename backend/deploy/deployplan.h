#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace flashdeck::deploy {

class DeployRunner;

/**
 * One step of the deployment plan as an object: its id (a contract: the CLI's --json, the journal
 * and the window use it), the phase it belongs to, its title and why it is there (both translated
 * when shown, so a journal written in English reads in Chinese), and the code that runs it. The
 * runner records each step's transitions in the journal under these; the window and the CLI show
 * a plan from here before anything ran.
 */
struct PlanStep
{
    const char *id;
    const char *group; // the phase, QT_TRANSLATE_NOOP("Steps", …)
    const char *title; // QT_TRANSLATE_NOOP("Steps", …)
    /** Why the step is there, when it says so without the run's numbers; "": the run says why. */
    const char *why;
    void (*run)(DeployRunner &runner);

    QString stepId() const { return QString::fromLatin1(id); }
    QString groupText() const;
    QString titleText() const;
    QString whyText() const;
};

/** The plan pin → pull → launch → verify, in order; the deploy runner runs it, pages show it. */
class DeployPlan
{
public:
    static const QList<PlanStep> &steps();
    /** The step of this id; nullptr for one this build does not know (a newer journal's). */
    static const PlanStep *find(QStringView id);
    /** The step ids, in order. */
    static QStringList ids();
    /**
     * A step's title in the language spoken now, the same before, during and after a run;
     * `otherwise` for an id this build does not know (another plan's, a newer Flashdeck's journal).
     */
    static QString title(const QString &id, const QString &otherwise = {});
};

} // namespace flashdeck::deploy

#include "backend/cli/cliprompts.h"

#include "backend/cli/hostscommand.h"
#include "backend/fleet/hostsession.h"
#include "backend/ssh/hostconnection.h"

#include <QCoreApplication>

namespace flashdeck::cli {

namespace {

// A HostSession and a HostConnection ask and take answers with the same signals and calls.
template<class PromptSource>
void answerAtTerminal(PromptSource &connection, CliContext &c)
{
    QObject::connect(&connection, &PromptSource::passphraseNeeded, &connection,
                     [&connection, &c](const ssh::PassphraseRequest &r) {
                         QString text = r.previousError.isEmpty() ? QString() : r.previousError + QLatin1Char(' ');
                         text += QCoreApplication::translate("Cli", "Passphrase for %1: ").arg(r.identityFile);
                         connection.answerPassphrase(c.prompt(text, false));
                     });
    QObject::connect(&connection, &PromptSource::passwordNeeded, &connection,
                     [&connection, &c](const ssh::PasswordRequest &r) {
                         QString text = r.previousError.isEmpty() ? QString() : r.previousError + QLatin1Char(' ');
                         text += QStringLiteral("%1@%2's password: ").arg(r.user, r.host);
                         connection.answerPassword(c.prompt(text, false));
                     });
    QObject::connect(&connection, &PromptSource::keyboardInteractiveNeeded, &connection,
                     [&connection, &c](const ssh::KbdIntChallenge &ch) {
                         QStringList answers;
                         for (const ssh::KbdIntPrompt &prompt : ch.prompts) {
                             const std::optional<QString> a = c.prompt(prompt.text + QLatin1Char(' '), prompt.echo);
                             if (!a) {
                                 connection.answerKeyboardInteractive(std::nullopt);
                                 return;
                             }
                             answers.append(*a);
                         }
                         connection.answerKeyboardInteractive(answers);
                     });
}

} // namespace

void answerAuthPromptsAtTerminal(fleet::HostSession &session, CliContext &c)
{
    answerAtTerminal(session, c);
}

void answerAuthPromptsAtTerminal(ssh::HostConnection &connection, CliContext &c)
{
    answerAtTerminal(connection, c);
}

} // namespace flashdeck::cli

#pragma once

#include <QDialog>
#include <QList>

class QLineEdit;

namespace flashdeck::ui {

/**
 * Asks for secrets: a key passphrase, a password, or one round of keyboard-interactive
 * prompts, all prompts in one dialog (RFC 4256 §3.3: "SHOULD NOT present each prompt in a
 * separate window"). Prompts without echo are masked. Answers are handed over once and the
 * fields cleared.
 */
class CredentialsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CredentialsDialog)

public:
    struct Prompt
    {
        QString label;
        bool echo = false;
    };

    CredentialsDialog(const QString &title, const QString &message, const QString &error, const QList<Prompt> &prompts,
                      QWidget *parent = nullptr);
    ~CredentialsDialog() override;

    /** The answers, in prompt order; clears the fields. */
    QStringList takeAnswers();

private:
    QList<QLineEdit *> m_fields;
};

} // namespace flashdeck::ui

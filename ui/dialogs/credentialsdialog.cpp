#include "ui/dialogs/credentialsdialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace flashdeck::ui {

CredentialsDialog::CredentialsDialog(const QString &title, const QString &message, const QString &error,
                                     const QList<Prompt> &prompts, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(title);
    setObjectName(QStringLiteral("credentialsDialog"));
    auto *layout = new QVBoxLayout(this);
    if (!message.isEmpty()) {
        auto *text = new QLabel(message, this);
        text->setWordWrap(true);
        text->setTextFormat(Qt::PlainText); // server-supplied text is never rendered as HTML
        text->setMinimumWidth(380);
        layout->addWidget(text);
    }
    if (!error.isEmpty()) {
        auto *problem = new QLabel(QStringLiteral("⚠ ") + error, this);
        problem->setObjectName(QStringLiteral("error"));
        problem->setTextFormat(Qt::PlainText);
        QPalette pal = problem->palette();
        pal.setColor(QPalette::WindowText, QColor(0xb4, 0x53, 0x09)); // amber: warn, with icon and words
        problem->setPalette(pal);
        layout->addWidget(problem);
    }
    auto *form = new QFormLayout;
    for (const Prompt &prompt : prompts) {
        auto *field = new QLineEdit(this);
        field->setEchoMode(prompt.echo ? QLineEdit::Normal : QLineEdit::Password);
        field->setMinimumWidth(260);
        auto *label = new QLabel(prompt.label, this);
        label->setTextFormat(Qt::PlainText);
        label->setBuddy(field);
        form->addRow(label, field);
        m_fields.append(field);
    }
    layout->addLayout(form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    if (!m_fields.isEmpty()) {
        m_fields.first()->setFocus();
    }
}

CredentialsDialog::~CredentialsDialog()
{
    for (QLineEdit *field : m_fields) {
        field->clear();
    }
}

QStringList CredentialsDialog::takeAnswers()
{
    QStringList answers;
    for (QLineEdit *field : m_fields) {
        answers.append(field->text());
        field->clear();
    }
    return answers;
}

} // namespace flashdeck::ui

#pragma once

#include "backend/fleet/hostentry.h"

#include <QDialog>

class QComboBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QVBoxLayout;

namespace flashdeck::ui {

/** Adds a host by hand or from ~/.ssh/config. Validates as the CLI does. */
class AddHostDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AddHostDialog)

public:
    /** `existingNames` are refused; `sshConfigPath` feeds the import list. */
    AddHostDialog(const QStringList &existingNames, const QString &sshConfigPath, QWidget *parent = nullptr);

    fleet::HostEntry host() const;
    /** Starts from a host the operator saw elsewhere (Prometheus): its name and address. */
    void prefill(const QString &name, const QString &address);

private:
    /** The ~/.ssh/config aliases to import from. */
    QFormLayout *buildImportRow(const QString &sshConfigPath);
    /** Name, address, user, port, identity file and GPU vendor. */
    QFormLayout *buildForm();
    /** The identity file's field and its Browse button. */
    QHBoxLayout *buildIdentityRow();
    /** The note on what is stored, the problem line and the buttons. */
    void buildFooter(QVBoxLayout *layout);
    void importAlias(const QString &alias);
    void validate();

    QStringList m_existing;
    QString m_configPath;
    QComboBox *m_import = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_address = nullptr;
    QLineEdit *m_user = nullptr;
    QSpinBox *m_port = nullptr;
    QLineEdit *m_identity = nullptr;
    QComboBox *m_vendor = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_ok = nullptr;
};

} // namespace flashdeck::ui

#include "ui/dialogs/addhostdialog.h"

#include "backend/ssh/sshconfig.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace flashdeck::ui {

AddHostDialog::AddHostDialog(const QStringList &existingNames, const QString &sshConfigPath, QWidget *parent)
    : QDialog(parent)
    , m_existing(existingNames)
    , m_configPath(sshConfigPath)
{
    setWindowTitle(tr("Add host"));
    setObjectName(QStringLiteral("addHostDialog"));
    auto *layout = new QVBoxLayout(this);

    layout->addLayout(buildImportRow(sshConfigPath));
    layout->addLayout(buildForm());
    buildFooter(layout);

    connect(m_import, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index > 0) {
            importAlias(m_import->itemText(index));
        }
    });
    for (QLineEdit *e : {m_name, m_address, m_user}) {
        connect(e, &QLineEdit::textChanged, this, &AddHostDialog::validate);
    }
    setMinimumWidth(520);
    validate();
}

QFormLayout *AddHostDialog::buildImportRow(const QString &sshConfigPath)
{
    const QStringList aliases = ssh::SshConfig::load(sshConfigPath).aliases();
    m_import = new QComboBox(this);
    m_import->setObjectName(QStringLiteral("importCombo"));
    m_import->addItem(aliases.isEmpty() ? tr("No hosts in %1").arg(sshConfigPath) : tr("Choose a host…"));
    m_import->addItems(aliases);
    m_import->setEnabled(!aliases.isEmpty());
    auto *importRow = new QFormLayout;
    importRow->addRow(tr("Import from ~/.ssh/config:"), m_import);
    return importRow;
}

QFormLayout *AddHostDialog::buildForm()
{
    auto *form = new QFormLayout;
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setPlaceholderText(tr("b300-a"));
    m_address = new QLineEdit(this);
    m_address->setObjectName(QStringLiteral("address"));
    m_address->setPlaceholderText(tr("gpu1.example.com or an alias from ~/.ssh/config"));
    m_user = new QLineEdit(this);
    m_user->setObjectName(QStringLiteral("user"));
    m_user->setPlaceholderText(tr("from ~/.ssh/config, else your user name"));
    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("port"));
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("default (22)"));
    QHBoxLayout *identityRow = buildIdentityRow();
    m_vendor = new QComboBox(this);
    m_vendor->addItem(tr("Detect"), QString());
    m_vendor->addItem(tr("NVIDIA"), QStringLiteral("nvidia"));
    m_vendor->addItem(tr("AMD"), QStringLiteral("amd"));
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Address:"), m_address);
    form->addRow(tr("User:"), m_user);
    form->addRow(tr("Port:"), m_port);
    form->addRow(tr("Identity file:"), identityRow);
    form->addRow(tr("GPU vendor:"), m_vendor);
    return form;
}

QHBoxLayout *AddHostDialog::buildIdentityRow()
{
    m_identity = new QLineEdit(this);
    m_identity->setObjectName(QStringLiteral("identity"));
    m_identity->setPlaceholderText(tr("ssh-agent, then ~/.ssh/id_*"));
    auto *browse = new QToolButton(this);
    browse->setText(tr("…"));
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString f =
            QFileDialog::getOpenFileName(this, tr("Private key"), QDir::homePath() + QStringLiteral("/.ssh"));
        if (!f.isEmpty()) {
            m_identity->setText(f);
        }
    });
    auto *identityRow = new QHBoxLayout;
    identityRow->addWidget(m_identity, 1);
    identityRow->addWidget(browse);
    return identityRow;
}

void AddHostDialog::buildFooter(QVBoxLayout *layout)
{
    auto *note = new QLabel(tr("Flashdeck asks you to confirm the host key on first connection. No password or "
                               "passphrase is stored."),
                            this);
    note->setWordWrap(true);
    note->setEnabled(false);
    layout->addWidget(note);
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Add host"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

void AddHostDialog::importAlias(const QString &alias)
{
    const ssh::SshConfigHost h = ssh::SshConfig::load(m_configPath).resolve(alias);
    m_name->setText(alias);
    // Keep the alias as the address: libssh applies the config (HostName, ProxyJump…) itself.
    m_address->setText(alias);
    m_user->setText(h.user);
    m_port->setValue(h.port);
    m_identity->setText(h.identityFiles.value(0));
}

fleet::HostEntry AddHostDialog::host() const
{
    fleet::HostEntry h;
    h.name = m_name->text().trimmed();
    h.address = m_address->text().trimmed();
    h.user = m_user->text().trimmed();
    h.port = static_cast<quint16>(m_port->value());
    h.identityFile = m_identity->text().trimmed();
    h.vendorHint = m_vendor->currentData().toString();
    return h;
}

void AddHostDialog::validate()
{
    QString problem;
    const fleet::HostEntry h = host();
    if (h.name.isEmpty() || h.address.isEmpty()) {
        problem = tr("A name and an address are needed.");
    } else if (Status s = fleet::HostEntry::validateName(h.name); !s) {
        problem = s.message();
    } else if (m_existing.contains(h.name)) {
        problem = tr("A host named \"%1\" already exists.").arg(h.name);
    } else if (Result<fleet::HostEntry> parsed = fleet::HostEntry::fromSshSpec(h.name, h.address); !parsed) {
        problem = parsed.message();
    }
    m_problem->setText(problem.isEmpty() || (h.name.isEmpty() && h.address.isEmpty()) ? QString()
                                                                                      : QStringLiteral("⚠ ") + problem);
    m_ok->setEnabled(problem.isEmpty());
}

void AddHostDialog::prefill(const QString &name, const QString &address)
{
    // An inventory name allows letters, digits, '-', '_' and '.': a label value may hold others.
    QString safe = name;
    safe.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("-"));
    m_name->setText(safe);
    m_address->setText(address);
    validate();
}

} // namespace flashdeck::ui

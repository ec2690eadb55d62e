#include "ui/dialogs/hostkeydialog.h"

#include "backend/ssh/sshtypes.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace flashdeck::ui {

HostKeyDialog::HostKeyDialog(const QString &hostName, const ssh::HostKeyInfo &info, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Trust this host key?"));
    setObjectName(QStringLiteral("hostKeyDialog"));
    auto *layout = new QVBoxLayout(this);

    auto *top = new QHBoxLayout;
    auto *icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxQuestion).pixmap(40, 40));
    icon->setAlignment(Qt::AlignTop);
    top->addWidget(icon);
    auto *intro = new QLabel(
        tr("<b>%1</b> has not been seen before. Before trusting it, compare this fingerprint with the one the "
           "server's administrator reads on the server itself (<code>ssh-keygen -lf "
           "/etc/ssh/ssh_host_%2_key.pub</code>).")
            .arg(hostName.toHtmlEscaped(),
                 info.keyType.startsWith(QStringLiteral("ssh-ed25519")) ? QStringLiteral("ed25519")
                     : info.keyType.contains(QStringLiteral("ecdsa"))   ? QStringLiteral("ecdsa")
                                                                        : QStringLiteral("rsa")),
        this);
    intro->setWordWrap(true);
    intro->setMinimumWidth(460);
    top->addWidget(intro, 1);
    layout->addLayout(top);

    auto *form = new QFormLayout;
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto *host = new QLabel(info.host, this);
    auto *type = new QLabel(info.keyType, this);
    auto *fingerprint = new QLabel(info.fingerprint, this);
    fingerprint->setObjectName(QStringLiteral("fingerprint"));
    fingerprint->setFont(mono);
    fingerprint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *file = new QLabel(info.knownHostsFile, this);
    file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Host:"), host);
    form->addRow(tr("Key type:"), type);
    form->addRow(tr("Fingerprint:"), fingerprint);
    form->addRow(tr("Saved to:"), file);
    layout->addLayout(form);

    auto *buttons = new QDialogButtonBox(this);
    auto *accept = buttons->addButton(tr("Trust and connect"), QDialogButtonBox::AcceptRole);
    auto *reject = buttons->addButton(tr("Do not connect"), QDialogButtonBox::RejectRole);
    accept->setObjectName(QStringLiteral("acceptButton"));
    reject->setObjectName(QStringLiteral("rejectButton"));
    // A stray Enter must not trust a key: Reject is the default, and Trust never becomes the
    // default by merely having focus (autoDefault).
    accept->setAutoDefault(false);
    reject->setDefault(true);
    reject->setFocus();
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace flashdeck::ui

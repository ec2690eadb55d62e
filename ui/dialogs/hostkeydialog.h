#pragma once

#include <QDialog>

namespace flashdeck::ssh {
struct HostKeyInfo;
}

namespace flashdeck::ui {

/**
 * First contact with a host: shows the key type and SHA256 fingerprint and asks the
 * operator to compare them. Reject is the default button; there is no "always" shortcut.
 */
class HostKeyDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostKeyDialog)

public:
    HostKeyDialog(const QString &hostName, const ssh::HostKeyInfo &info, QWidget *parent = nullptr);
};

} // namespace flashdeck::ui

#pragma once

#include "backend/core/result.h"

#include <QObject>
#include <QString>

class QLocalServer;

namespace flashdeck {

/**
 * One window per user and configuration (issue 10): the first Flashdeck to start listens on
 * a local socket; a second one finds it, asks it to come to the front, and exits. A socket
 * left behind by a crashed instance is detected (nobody answers) and replaced.
 */
class SingleInstance final : public QObject
{
    Q_OBJECT

public:
    enum class Role { Primary, Secondary };

    explicit SingleInstance(QString key, QObject *parent = nullptr);
    ~SingleInstance() override;

    /** The socket name for a configuration folder: per user, so users never see each other's. */
    static QString keyFor(const QString &configDir);

    /** Primary when no other instance answered (this one now listens); Secondary when one did. */
    [[nodiscard]] Result<Role> claim(int timeoutMs = 1000);

Q_SIGNALS:
    /** Another instance started and asked this one to show itself. */
    void activationRequested();

private:
    QString m_key;
    QLocalServer *m_server = nullptr;
};

} // namespace flashdeck

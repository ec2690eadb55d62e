#pragma once

#include "backend/core/result.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

namespace flashdeck::security {

/**
 * Secrets (SGLang API keys, HF tokens, passphrases) in the system keyring through QtKeychain
 * (Secret Service / KWallet). Where there is none — a headless machine with no D-Bus session —
 * it says so once and keeps secrets in memory for this run only: never a file, never
 * QtKeychain's insecure fallback. A keyring that refuses (locked, denied) gives its message and
 * the secret stays in memory too. Asynchronous: the keyring may ask the user to unlock it.
 */
class SecretStore final : public QObject
{
    Q_OBJECT

public:
    /** `service` names the entries in the keyring ("Flashdeck"; tests use their own). */
    explicit SecretStore(QString service = QStringLiteral("Flashdeck"), QObject *parent = nullptr);
    ~SecretStore() override;

    /** False when there is no session bus to reach a keyring (decided at once, no timeout). */
    bool keyringAvailable() const { return m_keyring; }
    /** Why secrets stay in memory, for the user; empty while the keyring works. */
    QString memoryOnlyReason() const { return m_reason; }

    using StatusDone = std::function<void(const Status &)>;
    /** Read: the secret, or an empty string when there is none. */
    using ReadDone = std::function<void(const Result<QString> &)>;

    void write(const QString &key, const QString &secret, StatusDone done);
    void read(const QString &key, ReadDone done);
    void remove(const QString &key, StatusDone done);

    /** The keyring key of a deployment's API key. */
    static QString apiKeyKey(const QString &deploymentId) { return QStringLiteral("api-key/") + deploymentId; }

private:
    void fallBack(const QString &reason);

    QString m_service;
    bool m_keyring = false;
    QString m_reason;
    QHash<QString, QString> m_memory; // this run only
};

} // namespace flashdeck::security

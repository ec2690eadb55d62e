#include "backend/security/secretstore.h"

#include <QCoreApplication>
#include <qt6keychain/keychain.h>

namespace flashdeck::security {

SecretStore::SecretStore(QString service, QObject *parent)
    : QObject(parent)
    , m_service(std::move(service))
{
    // Without a session bus, libsecret would try to autolaunch one (X11 only) and fail, or wait;
    // decide here instead, at once, and say why.
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")) {
        fallBack(
            QCoreApplication::translate("Security",
                                        "No system keyring here (no D-Bus session, as on a headless server or in CI): "
                                        "secrets stay in memory for this run only and are never written to disk."));
    } else {
        m_keyring = true;
    }
}

SecretStore::~SecretStore() = default;

void SecretStore::fallBack(const QString &reason)
{
    m_keyring = false;
    m_reason = reason;
}

void SecretStore::write(const QString &key, const QString &secret, StatusDone done)
{
    m_memory.insert(key, secret); // the run can go on whatever the keyring says
    if (!m_keyring) {
        done(Status::ok());
        return;
    }
    auto *job = new QKeychain::WritePasswordJob(m_service, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    job->setTextData(secret);
    connect(job, &QKeychain::Job::finished, this, [this, done = std::move(done)](QKeychain::Job *j) {
        if (j->error() == QKeychain::NoError) {
            done(Status::ok());
            return;
        }
        fallBack(QCoreApplication::translate(
                     "Security",
                     "The system keyring refused to store the secret (%1): it stays in memory for this "
                     "run only. Unlock or set up the keyring to keep it.")
                     .arg(j->errorString()));
        done(Status::failure(m_reason));
    });
    job->start();
}

void SecretStore::read(const QString &key, ReadDone done)
{
    if (m_memory.contains(key) || !m_keyring) {
        done(Result<QString>(m_memory.value(key)));
        return;
    }
    auto *job = new QKeychain::ReadPasswordJob(m_service, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    connect(job, &QKeychain::Job::finished, this, [this, key, done = std::move(done)](QKeychain::Job *j) {
        auto *read = static_cast<QKeychain::ReadPasswordJob *>(j);
        if (j->error() == QKeychain::NoError) {
            m_memory.insert(key, read->textData());
            done(Result<QString>(read->textData()));
        } else if (j->error() == QKeychain::EntryNotFound) {
            done(Result<QString>(QString()));
        } else {
            fallBack(QCoreApplication::translate(
                         "Security",
                         "The system keyring could not be read (%1): secrets stay in memory for this run "
                         "only.")
                         .arg(j->errorString()));
            done(Result<QString>(Status::failure(m_reason)));
        }
    });
    job->start();
}

void SecretStore::remove(const QString &key, StatusDone done)
{
    m_memory.remove(key);
    if (!m_keyring) {
        done(Status::ok());
        return;
    }
    auto *job = new QKeychain::DeletePasswordJob(m_service, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    connect(job, &QKeychain::Job::finished, this, [done = std::move(done)](QKeychain::Job *j) {
        done(j->error() == QKeychain::NoError || j->error() == QKeychain::EntryNotFound
                 ? Status::ok()
                 : Status::failure(
                       QCoreApplication::translate("Security", "The system keyring could not delete the secret: %1")
                           .arg(j->errorString())));
    });
    job->start();
}

} // namespace flashdeck::security

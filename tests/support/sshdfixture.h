#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace flashdeck::test {

/**
 * A throwaway OpenSSH server (Debian's /usr/sbin/sshd) on a free loopback port, with its own
 * generated host key, authorized_keys, PidFile and config, as KIO's sftp autotests do.
 * Works as root (CI) and as an ordinary user (who can only log in as themselves). Stopping
 * kills the listener and every per-connection child, so a client sees the connection drop.
 */
class SshdFixture final
{
public:
    struct Options
    {
        QString hostKeyType = QStringLiteral("ed25519");
        bool password = false;
        bool keyboardInteractive = false; // through PAM (root only)
        /** Prepended to the server-side PATH (`SetEnv PATH=`): the simulated host's tools. */
        QStringList pathPrefix;
        /** More session environment (`NAME=value`), e.g. FLASHDECK_SIM_DIR for the simulated host. */
        QStringList environment;
        QStringList extraConfig;
        /**
         * HOME points at the fixture (so no rc file of the machine's user is read). False: each
         * account keeps its own home (tests that log in as other accounts).
         */
        bool fixtureHome = true;
        /**
         * Run inside the network namespace of this `simhost-netns serve` process (a simulated
         * host's own loopback): sshd listens on `insidePort` there, and clients reach it at
         * 127.0.0.1:`outsidePort`, which the namespace's relay forwards.
         */
        struct Namespace
        {
            QString helper; // the simhost-netns binary
            qint64 pid = 0;
            quint16 insidePort = 2222;
            quint16 outsidePort = 0;
        };
        Namespace netns;
    };

    SshdFixture();
    explicit SshdFixture(Options options);
    ~SshdFixture();
    SshdFixture(const SshdFixture &) = delete;
    SshdFixture &operator=(const SshdFixture &) = delete;

    /** Why the fixture cannot run here (no sshd binary), or empty. */
    static QString unavailableReason();

    bool start(QString *error);
    /** Kills sshd and every connection it serves. */
    void stop();
    /** Starts again on the same port with the same (or a replaced) host key. */
    bool restart(QString *error);

    /** Where clients connect (on the machine's loopback). */
    quint16 port() const { return m_port; }
    QString dir() const { return m_dir.path(); }
    /** The login user: the current user, or the password test account. */
    static QString currentUser();

    /** A client key pair whose public half is authorised; returns the private key path. */
    QString addClientKey(const QString &name, const QString &passphrase = {},
                         const QString &type = QStringLiteral("ed25519"));
    /** Replaces the host key (same or other type); takes effect on the next (re)start. */
    bool replaceHostKey(const QString &type);
    /** "SHA256:…" of the current host key, as ssh-keygen prints it. */
    QString hostKeyFingerprint() const;
    QString hostKeyType() const { return m_options.hostKeyType; }

    /** The password test account (root only): created once, with a random password. */
    static bool ensurePasswordAccount(QString *user, QString *password, QString *error);
    /**
     * An ordinary account whose login shell is `shell` (/usr/bin/fish, /bin/tcsh…), with a home
     * of its own (root only; created once per machine, under a lock): operators log in with
     * whatever shell they like, and every command must still mean the same.
     */
    static bool ensureShellAccount(const QString &shell, QString *user, QString *error);

    QString sshdLog()
    {
        collectLog();
        return m_log;
    }

private:
    QString logFile() const;
    bool inNamespace() const { return m_options.netns.pid > 0; }
    quint16 listenPort() const { return inNamespace() ? m_options.netns.insidePort : m_port; }
    bool writeConfig(QString *error);
    bool generateHostKey(QString *error);
    void collectLog();

    Options m_options;
    QTemporaryDir m_dir;
    quint16 m_port = 0;
    std::unique_ptr<QProcess> m_process;
    QString m_log;
};

/** Runs a program to completion; returns its exit code, stdout+stderr in `output`. */
int runProgram(const QString &program, const QStringList &args, QString *output = nullptr,
               const QByteArray &stdinData = {}, const QStringList &extraEnv = {});

} // namespace flashdeck::test

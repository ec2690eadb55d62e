#include "tests/support/sshdfixture.h"

#include "backend/core/processtree.h"
#include "tests/support/sshtesthelpers.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTest>

#include <csignal>
#include <pwd.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace flashdeck::test {

namespace {

const QString kSshd = QStringLiteral("/usr/sbin/sshd");
const QString kPasswordUser = QStringLiteral("fdtest");

} // namespace

int runProgram(const QString &program, const QStringList &args, QString *output, const QByteArray &stdinData,
               const QStringList &extraEnv)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    if (!extraEnv.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &kv : extraEnv) {
            const qsizetype eq = kv.indexOf(QLatin1Char('='));
            env.insert(kv.left(eq), kv.mid(eq + 1));
        }
        p.setProcessEnvironment(env);
    }
    p.start(program, args);
    if (!p.waitForStarted(10000)) {
        if (output) {
            *output = QStringLiteral("cannot start %1").arg(program);
        }
        return -1;
    }
    if (!stdinData.isEmpty()) {
        p.write(stdinData);
    }
    p.closeWriteChannel();
    p.waitForFinished(120000);
    if (output) {
        *output = QString::fromUtf8(p.readAll());
    }
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

SshdFixture::SshdFixture()
    : SshdFixture(Options{})
{ }

SshdFixture::SshdFixture(Options options)
    : m_options(std::move(options))
{ }

SshdFixture::~SshdFixture()
{
    stop();
}

QString SshdFixture::unavailableReason()
{
    if (!QFile::exists(kSshd)) {
        return QStringLiteral("%1 is missing: install openssh-server (scripts/bootstrap does).").arg(kSshd);
    }
    return {};
}

QString SshdFixture::currentUser()
{
    const passwd *pw = getpwuid(getuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : qEnvironmentVariable("USER");
}

bool SshdFixture::generateHostKey(QString *error)
{
    const QString key = dir() + QStringLiteral("/ssh_host_key");
    QFile::remove(key);
    QFile::remove(key + QStringLiteral(".pub"));
    QString out;
    const int rc = runProgram(QStringLiteral("ssh-keygen"),
                              {QStringLiteral("-q"), QStringLiteral("-t"), m_options.hostKeyType, QStringLiteral("-N"),
                               QString(), QStringLiteral("-f"), key},
                              &out);
    if (rc != 0 && error) {
        *error = QStringLiteral("ssh-keygen failed: ") + out;
    }
    return rc == 0;
}

bool SshdFixture::replaceHostKey(const QString &type)
{
    m_options.hostKeyType = type;
    return generateHostKey(nullptr);
}

QString SshdFixture::hostKeyFingerprint() const
{
    QString out;
    runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-lf"), dir() + QStringLiteral("/ssh_host_key.pub")},
               &out);
    const QStringList parts = out.split(QLatin1Char(' '));
    return parts.size() > 1 ? parts.at(1) : QString();
}

bool SshdFixture::writeConfig(QString *error)
{
    const bool root = getuid() == 0;
    QStringList lines{
        QStringLiteral("Port %1").arg(listenPort()),
        QStringLiteral("ListenAddress 127.0.0.1"),
        QStringLiteral("HostKey %1/ssh_host_key").arg(dir()),
        QStringLiteral("PidFile %1/sshd.pid").arg(dir()),
        QStringLiteral("AuthorizedKeysFile %1/authorized_keys").arg(dir()),
        QStringLiteral("StrictModes no"),
        QStringLiteral("PubkeyAuthentication yes"),
        QStringLiteral("PasswordAuthentication %1").arg(QLatin1String(m_options.password ? "yes" : "no")),
        QStringLiteral("KbdInteractiveAuthentication %1")
            .arg(QLatin1String(m_options.keyboardInteractive ? "yes" : "no")),
        QStringLiteral("UsePAM %1").arg(QLatin1String(root && m_options.keyboardInteractive ? "yes" : "no")),
        QStringLiteral("PermitRootLogin yes"),
        QStringLiteral("AllowTcpForwarding yes"),
        QStringLiteral("MaxSessions 200"),
        QStringLiteral("MaxStartups 200"),
        QStringLiteral("LogLevel VERBOSE"),
        QStringLiteral("PrintMotd no"),
        QStringLiteral("Subsystem sftp internal-sftp"),
    };
    // HOME points at the fixture, so the login shell does not source the machine's own
    // ~/.bashrc (Debian's bash reads it when started by sshd): a developer's rc file that
    // takes a lock or prints to stdout must not change what our commands see.
    QDir().mkpath(dir() + QStringLiteral("/home"));
    QString setEnv =
        m_options.fixtureHome ? QStringLiteral("SetEnv HOME=%1/home").arg(dir()) : QStringLiteral("SetEnv");
    if (!m_options.pathPrefix.isEmpty()) {
        setEnv +=
            QStringLiteral(" PATH=%1:/usr/local/bin:/usr/bin:/bin").arg(m_options.pathPrefix.join(QLatin1Char(':')));
    }
    for (const QString &kv : m_options.environment) {
        setEnv += QLatin1Char(' ') + kv;
    }
    if (setEnv != QLatin1String("SetEnv")) {
        lines.append(setEnv);
    }
    lines.append(m_options.extraConfig);
    QFile file(dir() + QStringLiteral("/sshd_config"));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (error) {
            *error = file.errorString();
        }
        return false;
    }
    file.write(lines.join(QLatin1Char('\n')).toUtf8() + '\n');
    return true;
}

bool SshdFixture::start(QString *error)
{
    if (const QString why = unavailableReason(); !why.isEmpty()) {
        if (error) {
            *error = why;
        }
        return false;
    }
    if (getuid() == 0) {
        QDir().mkpath(QStringLiteral("/run/sshd")); // privilege separation directory
    }
    if (!QFile::exists(dir() + QStringLiteral("/ssh_host_key")) && !generateHostKey(error)) {
        return false;
    }
    QFile keys(dir() + QStringLiteral("/authorized_keys"));
    if (!keys.exists()) {
        keys.open(QIODevice::WriteOnly);
        keys.close();
    }
    if (m_port == 0) {
        m_port = inNamespace() ? m_options.netns.outsidePort : freeLocalPort();
    }
    if (!writeConfig(error)) {
        return false;
    }
    m_log.clear(); // a restart must wait for its own "listening" line
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    // If the test process dies (a crash, a sanitizer abort), sshd dies with it instead of
    // lingering on its port.
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    // Logs go to a file (-E), not a pipe: a pipe nobody drains fills up after a few hundred
    // sessions and then blocks sshd itself.
    QFile::remove(logFile());
    const QStringList sshdArgs{QStringLiteral("-D"), QStringLiteral("-E"), logFile(), QStringLiteral("-f"),
                               dir() + QStringLiteral("/sshd_config")};
    if (inNamespace()) {
        // `join` executes sshd in place: the process (and its pid) is sshd's.
        m_process->start(m_options.netns.helper,
                         QStringList{QStringLiteral("join"), QString::number(m_options.netns.pid),
                                     QStringLiteral("--die-with-parent"), QStringLiteral("--"), kSshd} +
                             sshdArgs);
    } else {
        m_process->start(kSshd, sshdArgs);
    }
    if (!m_process->waitForStarted(10000)) {
        if (error) {
            *error = QStringLiteral("cannot start sshd: ") + m_process->errorString();
        }
        return false;
    }
    // Ready when it says so (sshd -e logs to stderr), not after a guessed delay.
    const bool listening = QTest::qWaitFor(
        [this] {
            collectLog();
            return m_log.contains(QStringLiteral("Server listening on 127.0.0.1 port %1").arg(listenPort())) ||
                m_process->state() == QProcess::NotRunning;
        },
        15000);
    if (!listening || m_process->state() == QProcess::NotRunning) {
        collectLog();
        if (error) {
            *error = QStringLiteral("sshd did not start:\n") + m_log;
        }
        return false;
    }
    return true;
}

QString SshdFixture::logFile() const
{
    return dir() + QStringLiteral("/sshd.log");
}

void SshdFixture::collectLog()
{
    QFile file(logFile());
    if (file.open(QIODevice::ReadOnly)) {
        m_log = QString::fromUtf8(file.readAll());
    }
    if (m_process) {
        m_log += QString::fromUtf8(m_process->readAll());
    }
}

void SshdFixture::stop()
{
    if (!m_process) {
        return;
    }
    const qint64 pid = m_process->processId();
    if (pid > 0) {
        for (const qint64 child : processDescendants(pid)) {
            ::kill(static_cast<pid_t>(child), SIGKILL);
        }
    }
    m_process->kill();
    m_process->waitForFinished(10000);
    collectLog();
    m_process.reset();
}

bool SshdFixture::restart(QString *error)
{
    stop();
    return start(error);
}

QString SshdFixture::addClientKey(const QString &name, const QString &passphrase, const QString &type)
{
    const QString key = dir() + QStringLiteral("/") + name;
    QFile::remove(key);
    QFile::remove(key + QStringLiteral(".pub"));
    runProgram(QStringLiteral("ssh-keygen"),
               {QStringLiteral("-q"), QStringLiteral("-t"), type, QStringLiteral("-N"), passphrase,
                QStringLiteral("-C"), name, QStringLiteral("-f"), key});
    QFile pub(key + QStringLiteral(".pub"));
    QFile keys(dir() + QStringLiteral("/authorized_keys"));
    if (pub.open(QIODevice::ReadOnly) && keys.open(QIODevice::Append)) {
        keys.write(pub.readAll());
    }
    return key;
}

bool SshdFixture::ensurePasswordAccount(QString *user, QString *password, QString *error)
{
    if (getuid() != 0) {
        if (error) {
            *error = QStringLiteral("password and keyboard-interactive tests create a local test account, which "
                                    "needs root: run `sudo make test` (CI runs as root).");
        }
        return false;
    }
    // One random password per machine, kept root-only, so concurrent test runs (a developer's
    // and CI's) agree on it instead of resetting it under each other. A lock serialises the
    // first creation.
    const QString dir = QStringLiteral("/var/lib/flashdeck-tests");
    const QString store = dir + QStringLiteral("/fdtest-password");
    QDir().mkpath(dir);
    QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QLockFile lock(dir + QStringLiteral("/fdtest.lock"));
    if (!lock.tryLock(60000)) {
        if (error) {
            *error = QStringLiteral("cannot lock %1/fdtest.lock").arg(dir);
        }
        return false;
    }
    QString out;
    const bool exists = runProgram(QStringLiteral("id"), {kPasswordUser}, &out) == 0;
    if (!exists &&
        runProgram(QStringLiteral("useradd"),
                   {QStringLiteral("--system"), QStringLiteral("--shell"), QStringLiteral("/bin/sh"),
                    QStringLiteral("--home-dir"), QStringLiteral("/nonexistent"), QStringLiteral("--no-create-home"),
                    kPasswordUser},
                   &out) != 0) {
        if (error) {
            *error = QStringLiteral("useradd failed: ") + out;
        }
        return false;
    }
    QFile file(store);
    QString pw;
    if (exists && file.open(QIODevice::ReadOnly)) {
        pw = QString::fromUtf8(file.readAll()).trimmed();
        file.close();
    }
    if (pw.isEmpty()) {
        pw = QStringLiteral("Fd-%1-%2")
                 .arg(QRandomGenerator::system()->generate64(), 0, 36)
                 .arg(QRandomGenerator::system()->generate(), 0, 36);
        if (runProgram(QStringLiteral("chpasswd"), {}, &out,
                       (kPasswordUser + QLatin1Char(':') + pw + QLatin1Char('\n')).toUtf8()) != 0) {
            if (error) {
                *error = QStringLiteral("chpasswd failed: ") + out;
            }
            return false;
        }
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            if (error) {
                *error = QStringLiteral("cannot write %1").arg(store);
            }
            return false;
        }
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        file.write(pw.toUtf8());
    }
    *user = kPasswordUser;
    *password = pw;
    return true;
}

bool SshdFixture::ensureShellAccount(const QString &shell, QString *user, QString *error)
{
    if (getuid() != 0) {
        *error = QStringLiteral("login-shell tests create local test accounts, which needs root: run `sudo make "
                                "test` (CI runs as root).");
        return false;
    }
    if (!QFile::exists(shell)) {
        *error = QStringLiteral("%1 is not installed (scripts/bootstrap installs fish, tcsh and zsh)").arg(shell);
        return false;
    }
    const QString dir = QStringLiteral("/var/lib/flashdeck-tests");
    QDir().mkpath(dir);
    QLockFile lock(dir + QStringLiteral("/accounts.lock"));
    if (!lock.tryLock(60000)) {
        *error = QStringLiteral("cannot lock %1/accounts.lock").arg(dir);
        return false;
    }
    const QString name = QStringLiteral("fd-") + QFileInfo(shell).fileName();
    QString out;
    if (runProgram(QStringLiteral("id"), {name}, &out) != 0 &&
        runProgram(QStringLiteral("useradd"),
                   {QStringLiteral("--shell"), shell, QStringLiteral("--create-home"), QStringLiteral("--home-dir"),
                    QStringLiteral("/home/") + name, name},
                   &out) != 0) {
        *error = QStringLiteral("useradd failed: ") + out;
        return false;
    }
    // The account's shell stays what the test asked for, whatever an earlier run left; its
    // password field is "*" (no password, not locked): without PAM, sshd refuses every method,
    // keys included, to a locked ("!") account, as useradd leaves it.
    if (runProgram(QStringLiteral("usermod"),
                   {QStringLiteral("--shell"), shell, QStringLiteral("--password"), QStringLiteral("*"), name},
                   &out) != 0) {
        *error = QStringLiteral("usermod failed: ") + out;
        return false;
    }
    *user = name;
    return true;
}

} // namespace flashdeck::test

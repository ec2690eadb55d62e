#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace flashdeck::ssh {

/** What ~/.ssh/config says about one host alias (first value wins, as in ssh_config(5)). */
struct SshConfigHost
{
    QString alias;
    QString hostName;
    QString user;
    quint16 port = 0;
    QStringList identityFiles;
    QString proxyJump;
};

/**
 * A reader for OpenSSH client config files, for importing hosts and for finding the
 * IdentityFile entries of an alias. libssh applies the config to the session itself; this
 * reader only answers the questions libssh's API does not (which aliases exist, which
 * identities to offer). Supports Host patterns (*, ?, !negation), Include, and skips Match
 * blocks (they depend on run-time conditions we cannot evaluate honestly).
 */
class SshConfig final
{
public:
    static SshConfig load(const QString &path);
    static SshConfig parse(const QByteArray &text, const QString &baseDir);
    static QString defaultPath();

    /** Aliases from Host lines without wildcards or negation, in file order. */
    QStringList aliases() const;
    SshConfigHost resolve(const QString &alias) const;

    static bool patternMatches(const QString &pattern, const QString &host);

private:
    struct Entry
    {
        QStringList patterns; // empty: applies to all (before any Host line)
        bool isMatchBlock = false;
        QList<QPair<QString, QString>> options; // lower-case keyword, value
    };
    void parseInto(const QByteArray &text, const QString &baseDir, int depth);

    std::vector<Entry> m_entries;
};

/** `~` or `~/…` as ssh reads it in a configuration or on its command line: the user's home. */
[[nodiscard]] QString expandHome(const QString &path);

} // namespace flashdeck::ssh

#include "backend/ssh/sshconfig.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace flashdeck::ssh {

QString expandHome(const QString &path)
{
    if (path == QStringLiteral("~") || path.startsWith(QStringLiteral("~/"))) {
        return QDir::homePath() + path.mid(1);
    }
    return path;
}

namespace {

// Splits "Keyword value", "Keyword=value" and quoted values.
QStringList tokens(const QString &line)
{
    QStringList out;
    QString current;
    bool quoted = false;
    bool have = false;
    for (const QChar c : line) {
        if (c == QLatin1Char('"')) {
            quoted = !quoted;
            have = true;
        } else if (!quoted && (c.isSpace() || (c == QLatin1Char('=') && out.isEmpty()))) {
            if (have) {
                out.append(current);
                current.clear();
                have = false;
            }
        } else {
            current.append(c);
            have = true;
        }
    }
    if (have) {
        out.append(current);
    }
    return out;
}

} // namespace

QString SshConfig::defaultPath()
{
    return QDir::homePath() + QStringLiteral("/.ssh/config");
}

SshConfig SshConfig::load(const QString &path)
{
    QFile file(path);
    SshConfig config;
    if (file.open(QIODevice::ReadOnly)) {
        config.parseInto(file.readAll(), QFileInfo(path).absolutePath(), 0);
    }
    return config;
}

SshConfig SshConfig::parse(const QByteArray &text, const QString &baseDir)
{
    SshConfig config;
    config.parseInto(text, baseDir, 0);
    return config;
}

void SshConfig::parseInto(const QByteArray &text, const QString &baseDir, int depth)
{
    if (depth > 8) {
        return; // Include loops
    }
    if (m_entries.empty()) {
        m_entries.push_back(Entry{});
    }
    for (const QByteArray &rawLine : text.split('\n')) {
        const QString line = QString::fromUtf8(rawLine).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) {
            continue;
        }
        const QStringList parts = tokens(line);
        if (parts.isEmpty()) {
            continue;
        }
        const QString keyword = parts.first().toLower();
        const QStringList values = parts.mid(1);
        if (keyword == QStringLiteral("host")) {
            m_entries.push_back(Entry{values, false, {}});
        } else if (keyword == QStringLiteral("match")) {
            m_entries.push_back(Entry{{}, true, {}});
        } else if (keyword == QStringLiteral("include")) {
            for (const QString &pattern : values) {
                QString full = expandHome(pattern);
                if (QFileInfo(full).isRelative()) {
                    full = QDir(baseDir).filePath(full);
                }
                const QFileInfo info(full);
                const QStringList matches =
                    QDir(info.absolutePath()).entryList({info.fileName()}, QDir::Files, QDir::Name);
                for (const QString &m : matches) {
                    QFile inc(QDir(info.absolutePath()).filePath(m));
                    if (inc.open(QIODevice::ReadOnly)) {
                        parseInto(inc.readAll(), baseDir, depth + 1);
                    }
                }
            }
        } else if (!values.isEmpty()) {
            m_entries.back().options.append({keyword, values.join(QLatin1Char(' '))});
        }
    }
}

bool SshConfig::patternMatches(const QString &pattern, const QString &host)
{
    const QRegularExpression re(QRegularExpression::anchoredPattern(QRegularExpression::wildcardToRegularExpression(
                                    pattern, QRegularExpression::UnanchoredWildcardConversion)),
                                QRegularExpression::CaseInsensitiveOption);
    return re.match(host).hasMatch();
}

QStringList SshConfig::aliases() const
{
    QStringList out;
    for (const Entry &e : m_entries) {
        for (const QString &p : e.patterns) {
            if (!p.contains(QLatin1Char('*')) && !p.contains(QLatin1Char('?')) && !p.startsWith(QLatin1Char('!')) &&
                !out.contains(p)) {
                out.append(p);
            }
        }
    }
    return out;
}

SshConfigHost SshConfig::resolve(const QString &alias) const
{
    SshConfigHost host;
    host.alias = alias;
    for (const Entry &e : m_entries) {
        if (e.isMatchBlock) {
            continue;
        }
        bool applies = e.patterns.isEmpty();
        bool negated = false;
        for (const QString &p : e.patterns) {
            if (p.startsWith(QLatin1Char('!'))) {
                negated = negated || patternMatches(p.mid(1), alias);
            } else if (patternMatches(p, alias)) {
                applies = true;
            }
        }
        if (!applies || negated) {
            continue;
        }
        for (const auto &[key, value] : e.options) {
            if (key == QStringLiteral("hostname") && host.hostName.isEmpty()) {
                host.hostName = QString(value).replace(QStringLiteral("%h"), alias);
            } else if (key == QStringLiteral("user") && host.user.isEmpty()) {
                host.user = value;
            } else if (key == QStringLiteral("port") && host.port == 0) {
                host.port = static_cast<quint16>(value.toUShort());
            } else if (key == QStringLiteral("identityfile")) {
                // IdentityFile accumulates, unlike most keywords.
                const QString path = expandHome(value);
                if (!host.identityFiles.contains(path)) {
                    host.identityFiles.append(path);
                }
            } else if (key == QStringLiteral("proxyjump") && host.proxyJump.isEmpty()) {
                host.proxyJump = value;
            }
        }
    }
    return host;
}

} // namespace flashdeck::ssh

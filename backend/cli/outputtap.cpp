#include "backend/cli/outputtap.h"

#include "backend/cli/exitcodes.h"

#include <QRegularExpression>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>

namespace flashdeck::cli {

OutputTap::OutputTap(FILE *file, bool keep, QObject *parent)
    : QIODevice(parent)
    , m_file(file)
    , m_keep(keep)
{
    open(QIODevice::WriteOnly | QIODevice::Unbuffered);
}

qint64 OutputTap::readData(char *, qint64)
{
    return -1;
}

qint64 OutputTap::writeData(const char *data, qint64 size)
{
    const size_t done = std::fwrite(data, 1, size_t(size), m_file);
    std::fflush(m_file);
    m_written += qint64(done);
    if (m_keep) {
        m_kept.append(data, qsizetype(done));
        if (m_other != nullptr && m_other->written() != m_otherSeen) {
            m_otherSeen = m_other->written();
            m_keptSince.clear();
        }
        m_keptSince.append(data, qsizetype(done));
    }
    keepLastLine(QByteArrayView(data, qsizetype(done)));
    return qint64(done);
}

void OutputTap::keepLastLine(QByteArrayView chunk)
{
    // Only the last line is held: a follow may print for hours. Looked for from the chunk's end,
    // not byte by byte (`logs --file` writes a megabyte at a time: appending each byte to the
    // line being written cost four times what the command's own work did, bench_logtriage).
    const qsizetype lastEnd = chunk.lastIndexOf('\n');
    if (lastEnd < 0) {
        m_line.append(chunk);
        return;
    }
    const auto blank = [](QByteArrayView line) {
        // QByteArray::trimmed()'s whitespace, whatever the locale: " \t\n\v\f\r".
        return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); });
    };
    // The lines this chunk ends, the last first: the last that is not blank is the last line.
    for (qsizetype end = lastEnd;;) {
        const qsizetype start = end > 0 ? chunk.lastIndexOf('\n', end - 1) + 1 : 0;
        const QByteArrayView line = chunk.sliced(start, end - start);
        if (start == 0) { // the first line ended here began in an earlier write
            if (!blank(m_line) || !blank(line)) {
                m_lastLine = m_line + line;
            }
            break;
        }
        if (!blank(line)) {
            m_lastLine = line.toByteArray();
            break;
        }
        end = start - 1;
    }
    m_line = chunk.sliced(lastEnd + 1).toByteArray();
}

const char *exitCodeName(int code)
{
    switch (code) {
    case ExitOk:
        return "ok";
    case ExitCheckFailed:
        return "failed";
    case ExitUsage:
        return "usage";
    case ExitHostKeyUnknown:
        return "host-key-unknown";
    case ExitHostKeyRefused:
        return "host-key-refused";
    case ExitAuthFailed:
        return "auth-failed";
    case ExitUnreachable:
        return "unreachable";
    default:
        return "failed";
    }
}

QByteArray jsonErrorFor(int exitCode, const QString &said)
{
    // A usage error is its reason and then the command's usage: the reason is the message.
    QString text = said;
    const qsizetype usage = text.indexOf(QRegularExpression(QStringLiteral("(^|\\n)(Usage|用法)[:：]")));
    if (usage >= 0) {
        text.truncate(usage);
    }
    QStringList lines;
    static const QRegularExpression prefix(QStringLiteral("^flashdeck( [a-z]+)?: "));
    for (QString line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        lines << line.remove(prefix).trimmed();
    }
    const nlohmann::json j{
        {"error", {{"code", exitCodeName(exitCode)}, {"message", lines.join(QLatin1Char(' ')).toStdString()}}},
        {"exit_code", exitCode}};
    return QByteArray::fromStdString(j.dump()) + '\n';
}

QByteArray jsonClosingError(int exitCode, const QByteArray &lastLine, const QString &saidSince)
{
    if (exitCode == ExitOk || saidSince.trimmed().isEmpty()) {
        return {};
    }
    const auto last = nlohmann::json::parse(lastLine.toStdString(), nullptr, false);
    if (last.is_object() &&
        (last.contains("error") || last.value("type", "") == "error" || last.value("status", "") == "fail")) {
        return {};
    }
    // A follower says its failure twice (as it happens, and as its end): once is enough.
    QStringList lines;
    for (const QString &line : saidSince.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        static const QRegularExpression prefix(QStringLiteral("^flashdeck( [a-z]+)?: "));
        const QString bare = QString(line).remove(prefix).trimmed();
        if (!lines.contains(bare)) {
            lines << bare;
        }
    }
    return jsonErrorFor(exitCode, lines.join(QLatin1Char('\n')));
}

} // namespace flashdeck::cli

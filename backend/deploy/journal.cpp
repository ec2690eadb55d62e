#include "backend/deploy/journal.h"

#include "backend/security/redactor.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace flashdeck::deploy {

Journal::Journal(QString path, const security::Redactor &redactor)
    : m_path(std::move(path))
    , m_redactor(redactor)
{ }

recipe::StepRecord Journal::redacted(const recipe::StepRecord &record) const
{
    recipe::StepRecord clean = record;
    for (QString *field : {&clean.title, &clean.why, &clean.command, &clean.expected, &clean.seen, &clean.fix}) {
        *field = m_redactor.redact(*field);
    }
    return clean;
}

Status Journal::append(const recipe::StepRecord &record)
{
    const recipe::StepRecord clean = redacted(record);
    const QByteArray line = QByteArray::fromStdString(nlohmann::json(clean).dump()) + '\n';
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    // O_APPEND and one write(): concurrent readers never see half a line, except after a crash.
    const int fd = ::open(QFile::encodeName(m_path).constData(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        return Status::failure(QCoreApplication::translate("Deploy", "Cannot open the journal %1: %2.")
                                   .arg(m_path, QString::fromLocal8Bit(std::strerror(errno))));
    }
    // A line cut short by a crash (SIGKILL, power) is the file's tail with no newline: drop it
    // before appending, or the next record would be glued to it and the journal would read as
    // damaged in the middle (read() already skips it and says so).
    off_t end = ::lseek(fd, 0, SEEK_END);
    if (end > 0) {
        char last = '\n';
        if (::pread(fd, &last, 1, end - 1) == 1 && last != '\n') {
            QFile whole(m_path);
            if (whole.open(QIODevice::ReadOnly)) {
                end = off_t(whole.readAll().lastIndexOf('\n') + 1);
                if (::ftruncate(fd, end) != 0) {
                    end = ::lseek(fd, 0, SEEK_END);
                }
            }
        }
    }
    const ssize_t written = ::write(fd, line.constData(), size_t(line.size()));
    const int writeErrno = errno;
    bool tornTail = false;
    if (written != line.size() && written > 0) {
        // A full disk can take part of the line: take it back, so the journal ends with the last
        // whole record and stays readable (issue 9: disk full while writing the journal).
        // If even that fails, the torn tail is cut before the next append (above) and read()
        // skips it, so the journal stays readable either way. (The result must be used: the
        // package build's _FORTIFY_SOURCE makes an ignored ftruncate() an error.)
        tornTail = ::ftruncate(fd, end) != 0;
    }
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    if (written != line.size() || !synced) {
        return Status::failure(
            QCoreApplication::translate("Deploy",
                                        "Cannot write the journal %1: %2. Free some disk space and run again "
                                        "with --resume.")
                .arg(m_path, QString::fromLocal8Bit(std::strerror(written < 0 ? writeErrno : ENOSPC))) +
            (tornTail ? QCoreApplication::translate("Deploy",
                                                    " (The journal's last line is cut short; it is skipped when read.)")
                      : QString()));
    }
    return Status::ok();
}

Result<QList<recipe::StepRecord>> Journal::read(QString *warning) const
{
    QFile file(m_path);
    if (!file.exists()) {
        return QList<recipe::StepRecord>{};
    }
    if (!file.open(QIODevice::ReadOnly)) {
        return Status::failure(
            QCoreApplication::translate("Deploy", "Cannot read the journal %1: %2.").arg(m_path, file.errorString()));
    }
    QList<recipe::StepRecord> records;
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines.at(i).trimmed().isEmpty()) {
            continue;
        }
        const auto j = nlohmann::json::parse(lines.at(i).constData(), lines.at(i).constData() + lines.at(i).size(),
                                             nullptr, false);
        if (!j.is_object()) {
            if (i >= lines.size() - 2) { // the last line: a write cut short by a crash
                if (warning) {
                    *warning = QCoreApplication::translate(
                        "Deploy",
                        "The journal's last line was cut short (a crash while writing); it was "
                        "skipped.");
                }
                continue;
            }
            return Status::failure(QCoreApplication::translate(
                                       "Deploy", "The journal %1 is damaged at line %2. Move it aside to start over.")
                                       .arg(m_path)
                                       .arg(i + 1));
        }
        records.append(j.get<recipe::StepRecord>());
    }
    return records;
}

Result<QList<recipe::StepRecord>> Journal::latest() const
{
    Result<QList<recipe::StepRecord>> all = read();
    if (!all) {
        return all;
    }
    QList<recipe::StepRecord> out;
    for (const recipe::StepRecord &r : all.value()) {
        auto it = std::find_if(out.begin(), out.end(), [&r](const recipe::StepRecord &o) { return o.step == r.step; });
        if (it == out.end()) {
            out.append(r);
        } else {
            *it = r;
        }
    }
    return out;
}

} // namespace flashdeck::deploy

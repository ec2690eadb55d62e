#pragma once

#include <QByteArrayView>
#include <QIODevice>
#include <QString>

#include <cstdio>

namespace flashdeck::cli {

/**
 * A command's stdout or stderr: writes through to `file` at once (a follow or a progress line is
 * seen as it comes) and remembers how much went by, and with `keep` the text itself. Under
 * `--json` the dispatcher uses it to turn an error a command said in words into one JSON object.
 */
class OutputTap : public QIODevice
{
    Q_OBJECT
public:
    OutputTap(FILE *file, bool keep, QObject *parent = nullptr);

    [[nodiscard]] qint64 written() const { return m_written; }
    [[nodiscard]] QString kept() const { return QString::fromUtf8(m_kept); }
    /** The last whole line written (without its newline): a JSON-lines command's last object. */
    [[nodiscard]] QByteArray lastLine() const { return m_lastLine; }
    /**
     * Keep apart what is written after `other` last wrote: the words a command said once its
     * output had stopped (a follow cut off), read by keptSinceOther().
     */
    void watch(const OutputTap *other) { m_other = other; }
    [[nodiscard]] QString keptSinceOther() const { return QString::fromUtf8(m_keptSince); }
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *data, qint64 size) override;

private:
    void keepLastLine(QByteArrayView chunk);

    FILE *m_file;
    bool m_keep;
    qint64 m_written = 0;
    QByteArray m_kept;
    QByteArray m_line; // the line being written
    QByteArray m_lastLine; // the last one ended
    const OutputTap *m_other = nullptr;
    qint64 m_otherSeen = 0;
    QByteArray m_keptSince;
};

/** The words a script reads for an exit code (`usage`, `unreachable`, …): never renamed. */
[[nodiscard]] const char *exitCodeName(int code);

/**
 * The one object `--json` prints for an error a command reported only in words:
 * `{"error":{"code":NAME,"message":TEXT},"exit_code":N}`, the message being what it said on
 * stderr without its "flashdeck CMD: " prefix and usage text.
 */
[[nodiscard]] QByteArray jsonErrorFor(int exitCode, const QString &said);

/**
 * The object that closes a `--json` run which printed its lines and then failed in words only
 * (`logs --follow` cut off): jsonErrorFor() what it said after its last line, so a script reading
 * one object per line learns why it stopped. Empty when none is due: the run succeeded, said
 * nothing more, or its last line already is the error (`{"error":…}`, `{"type":"error"}`, a step
 * `"status":"fail"`).
 */
[[nodiscard]] QByteArray jsonClosingError(int exitCode, const QByteArray &lastLine, const QString &saidSince);

} // namespace flashdeck::cli

#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

namespace flashdeck::deploy {

/**
 * A model folder on the host, as one listing command saw it: used for an offline copy (F27)
 * and for a ModelScope mirror (F28), which are accepted only after their files are verified.
 * The host needs a POSIX shell and coreutils (find, stat, head, tail, od, wc; sha256sum for
 * checksums), nothing else: the parsing and every judgement happen here.
 */
class WeightsFolder final
{
public:
    struct Header
    {
        qint64 declared = 0; // the 8-byte little-endian header length at the start of the file
        QByteArray json; // the header bytes that were there (fewer than declared: truncated)
    };

    /** The one remote command: lists `dir` (sizes, hf download metadata, headers, checksums). */
    static QByteArray listingCommand(const QString &dir, bool checksums);
    /** Parses its output; false with `error` on output it does not recognise. */
    [[nodiscard]] bool parse(const QByteArray &output, QString *error);

    bool exists() const { return m_exists; }
    QString resolvedPath() const { return m_resolved; }
    /** Relative path → size, for every file outside `.cache/`. */
    const QHash<QString, qint64> &sizes() const { return m_sizes; }
    /** Relative path → commit recorded by `hf download` (the .metadata files under .cache/huggingface/download). */
    const QHash<QString, QString> &metadataCommits() const { return m_commits; }
    const QHash<QString, QByteArray> &contents() const { return m_contents; }
    const QHash<QString, Header> &headers() const { return m_headers; }
    const QHash<QString, QString> &sha256() const { return m_sha256; }

    /** The outcome of a verification: problems make it fail, notes are shown. */
    struct Verdict
    {
        QStringList problems;
        QStringList notes;
        QString revision; // the one commit the hf metadata names; empty: unknown or mixed
        int shards = 0;
        qint64 bytes = 0; // every file's size
        bool ok() const { return problems.isEmpty(); }
    };

    /**
     * The files SGLang needs (F27, F29): config.json, the index and every shard it names, each
     * shard a complete safetensors file (header length, header and data offsets match the file
     * size), the DSpark draft in `draftSubfolder` (F18), and one revision in the metadata.
     */
    Verdict verify(const QString &draftSubfolder) const;
    /**
     * F28: every file of the pinned revision (the Hub's recursive tree, JSON) present with the
     * same size, and with the same sha256 when checksums were listed. Files the Hub does not
     * have are notes (ModelScope adds configuration.json).
     */
    void compareWithTree(const QByteArray &treeJson, Verdict *verdict) const;

    /**
     * F27: what to run on a connected machine, then to copy the folder to the host (rsync
     * resumes an interrupted copy; `hf download` resumes a download, F29).
     */
    static QStringList offlineCommands(const QString &repo, const QString &revision, const QString &hostDir,
                                       const QString &destination);
    /** F28: the ModelScope download of the mirror. */
    static QString modelscopeCommand(const QString &mirror, const QString &hostDir);

private:
    void checkSafetensors(const QString &path, QStringList *problems) const;

    bool m_exists = false;
    QString m_resolved;
    QHash<QString, qint64> m_sizes;
    QHash<QString, QString> m_commits;
    QHash<QString, QString> m_etags; // sha256 for LFS files, git blob sha1 for the others
    QHash<QString, QByteArray> m_contents;
    QHash<QString, Header> m_headers;
    QHash<QString, QString> m_sha256;
};

} // namespace flashdeck::deploy

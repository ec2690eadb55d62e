#pragma once

#include "backend/core/result.h"

#include <QList>
#include <QString>

#include <optional>

namespace flashdeck {

namespace recipe {
class LicenseTerms;
} // namespace recipe

} // namespace flashdeck

namespace flashdeck::deploy {

/** One operator's acknowledgement of a licence for one host (F40). */
struct Acknowledgement
{
    QString host;
    QString license; // LicenseTerms::id()
    QString version;
    QString use; // noncommercial, commercial, commercial-authorized
    QString user; // the OS user who acknowledged
    QString at; // ISO 8601, UTC
    QString summarySha256; // LicenseTerms::summaryHash() of the text shown
    QString via; // "gui" or "cli"
    QString language; // the language of the text shown: "en", "zh_CN" (empty in records before it)
};

/**
 * acknowledgements.json in the configuration directory: who acknowledged which licence text
 * for which host, when. The GUI's licence page and `flashdeck deploy --accept-license` write
 * the same records; an acknowledgement counts only for the exact text shown (its hash).
 */
class Acknowledgements final
{
public:
    explicit Acknowledgements(QString file);

    /**
     * The acknowledgement of `terms`, as shown now (in any of its shipped languages), for `host`;
     * none when the text changed.
     */
    [[nodiscard]] Result<std::optional<Acknowledgement>> find(const QString &host,
                                                              const recipe::LicenseTerms &terms) const;
    /**
     * Adds or replaces the host's acknowledgement of that licence, in the file as it is now (under
     * its lock, written atomically): other processes' records stay. A file that does not parse is
     * never overwritten; a copy is kept aside.
     */
    [[nodiscard]] Status record(const Acknowledgement &ack);
    /** A new acknowledgement of `terms` by the current OS user, now. */
    static Acknowledgement make(const QString &host, const recipe::LicenseTerms &terms, const QString &use,
                                const QString &via);
    /** The OS user running Flashdeck (getpwuid, then $USER). */
    static QString currentUser();

    QString fileName() const { return m_file; }

private:
    [[nodiscard]] Result<QList<Acknowledgement>> load() const;
    [[nodiscard]] Result<QList<Acknowledgement>> parse(const QByteArray &data) const;

    QString m_file;
};

} // namespace flashdeck::deploy

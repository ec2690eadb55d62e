#pragma once

#include "backend/core/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace flashdeck::recipe {

/**
 * The licence summary an operator acknowledges before pin and pull (F40): our own plain-words
 * text (resources/license/ in JSON), the kinds of use to choose from, and the confirmations to
 * tick. Its hash identifies exactly the text shown, so a changed text asks again.
 */
class LicenseTerms final
{
public:
    struct Use
    {
        QString id; // noncommercial, commercial, commercial-authorized (the CLI's --accept-license values)
        QString label;
    };

    [[nodiscard]] static Result<LicenseTerms> fromJson(const QByteArray &json, const QString &source);
    /** The terms shipped with Flashdeck (compiled in), in the language Flashdeck speaks now. */
    [[nodiscard]] static Result<LicenseTerms> builtIn();
    /** The shipped terms in `language` ("en", "zh_CN"); English when there is no such translation. */
    [[nodiscard]] static Result<LicenseTerms> builtIn(const QString &language);

    QString id() const { return m_id; }
    QString version() const { return m_version; }
    QString name() const { return m_name; }
    QString fullTextUrl() const { return m_url; }
    /** The language of the text shown ("en", "zh_CN"): what an acknowledgement records. */
    QString language() const { return m_language; }
    const QStringList &summary() const { return m_summary; }
    const QList<Use> &uses() const { return m_uses; }
    const QStringList &confirmations() const { return m_confirmations; }
    const Use *use(const QString &id) const;

    /** Everything shown, in order, one item per line: what the hash covers. */
    QString shownText() const;
    /** SHA-256 of shownText() in UTF-8, lowercase hex. */
    QString summaryHash() const;
    /**
     * summaryHash() and the hashes of the same version's other shipped translations: one text in
     * two languages is one acknowledgement, so switching the language does not ask again; a
     * changed text in any language does.
     */
    const QStringList &equivalentHashes() const { return m_equivalentHashes; }

private:
    QString m_id;
    QString m_version;
    QString m_name;
    QString m_url;
    QString m_language;
    QStringList m_summary;
    QStringList m_equivalentHashes;
    QList<Use> m_uses;
    QStringList m_confirmations;
};

} // namespace flashdeck::recipe

#include "backend/recipe/licenseterms.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>

#include <nlohmann/json.hpp>

namespace flashdeck::recipe {

Result<LicenseTerms> LicenseTerms::fromJson(const QByteArray &json, const QString &source)
{
    const nlohmann::json j = nlohmann::json::parse(json.constData(), json.constData() + json.size(), nullptr, false);
    if (!j.is_object()) {
        return Status::failure(QCoreApplication::translate("Recipe", "%1: not a JSON object").arg(source));
    }
    auto bad = [&source](const QString &why) { return Status::failure(QStringLiteral("%1: %2").arg(source, why)); };
    auto str = [&j](const char *key) {
        const nlohmann::json v = j.value(key, nlohmann::json());
        return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString();
    };
    auto strings = [&j](const char *key, QStringList &out) {
        const nlohmann::json v = j.value(key, nlohmann::json());
        if (!v.is_array() || v.empty()) {
            return false;
        }
        for (const nlohmann::json &s : v) {
            if (!s.is_string() || s.get<std::string>().empty()) {
                return false;
            }
            out.append(QString::fromStdString(s.get<std::string>()));
        }
        return true;
    };
    LicenseTerms t;
    t.m_id = str("id");
    t.m_version = str("version");
    t.m_name = str("name");
    t.m_url = str("full_text_url");
    t.m_language = str("language").isEmpty() ? QStringLiteral("en") : str("language");
    if (t.m_id.isEmpty() || t.m_version.isEmpty() || t.m_name.isEmpty()) {
        return bad(QCoreApplication::translate("Recipe", "\"id\", \"version\" and \"name\" must be non-empty strings"));
    }
    if (!t.m_url.startsWith(QLatin1String("https://"))) {
        return bad(
            QCoreApplication::translate("Recipe", "\"full_text_url\" must be an https:// link to the full licence"));
    }
    if (!strings("summary", t.m_summary)) {
        return bad(QCoreApplication::translate("Recipe", "\"summary\" must be a non-empty array of paragraphs"));
    }
    if (!strings("confirmations", t.m_confirmations)) {
        return bad(QCoreApplication::translate("Recipe", "\"confirmations\" must be a non-empty array of sentences"));
    }
    const nlohmann::json uses = j.value("uses", nlohmann::json());
    if (!uses.is_array() || uses.empty()) {
        return bad(QCoreApplication::translate("Recipe", "\"uses\" must be a non-empty array"));
    }
    for (const nlohmann::json &u : uses) {
        if (!u.is_object() || !u.value("id", nlohmann::json()).is_string() ||
            !u.value("label", nlohmann::json()).is_string()) {
            return bad(QCoreApplication::translate("Recipe", "each use needs an \"id\" and a \"label\""));
        }
        t.m_uses.append({QString::fromStdString(u["id"].get<std::string>()),
                         QString::fromStdString(u["label"].get<std::string>())});
    }
    t.m_equivalentHashes = {t.summaryHash()};
    return t;
}

namespace {

// One file per language beside the English one: minimax-community-license.<language>.json.
const QString kLicenseFile = QStringLiteral(":/license/minimax-community-license%1.json");
const QStringList kLanguages = {QStringLiteral("en"), QStringLiteral("zh_CN")};

Result<LicenseTerms> readBuiltIn(const QString &language)
{
    QFile f(kLicenseFile.arg(language == QLatin1String("en") ? QString() : QLatin1Char('.') + language));
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(
            QCoreApplication::translate("Recipe", "The built-in licence summary is missing from this build."));
    }
    return LicenseTerms::fromJson(f.readAll(), f.fileName());
}

} // namespace

Result<LicenseTerms> LicenseTerms::builtIn()
{
    // The translation names the language it speaks: a translator renders this code as its own
    // ("zh_CN"), so the summary shown is always in the window's and the CLI's language.
    return builtIn(
        QCoreApplication::translate("LicenseTerms", "en", "The language code of the licence summary to show: zh_CN"));
}

Result<LicenseTerms> LicenseTerms::builtIn(const QString &language)
{
    Result<LicenseTerms> t = readBuiltIn(kLanguages.contains(language) ? language : QStringLiteral("en"));
    if (!t) {
        return t;
    }
    LicenseTerms terms = t.value();
    for (const QString &other : kLanguages) {
        if (other == terms.m_language) {
            continue;
        }
        if (const Result<LicenseTerms> o = readBuiltIn(other);
            o && o.value().m_id == terms.m_id && o.value().m_version == terms.m_version) {
            terms.m_equivalentHashes.append(o.value().summaryHash());
        }
    }
    return terms;
}

const LicenseTerms::Use *LicenseTerms::use(const QString &id) const
{
    for (const Use &u : m_uses) {
        if (u.id == id) {
            return &u;
        }
    }
    return nullptr;
}

QString LicenseTerms::shownText() const
{
    QStringList lines{m_name};
    lines += m_summary;
    lines.append(m_url);
    for (const Use &u : m_uses) {
        lines.append(u.label);
    }
    lines += m_confirmations;
    return lines.join(QLatin1Char('\n'));
}

QString LicenseTerms::summaryHash() const
{
    return QString::fromLatin1(QCryptographicHash::hash(shownText().toUtf8(), QCryptographicHash::Sha256).toHex());
}

} // namespace flashdeck::recipe

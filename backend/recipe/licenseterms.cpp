#include "backend/recipe/licenseterms.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>

#include <nlohmann/json.hpp>

namespace flashdeck {

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
    return t;
}

Result<LicenseTerms> LicenseTerms::builtIn()
{
    QFile f(QStringLiteral(":/license/minimax-community-license.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(
            QCoreApplication::translate("Recipe", "The built-in licence summary is missing from this build."));
    }
    return fromJson(f.readAll(), f.fileName());
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

} // namespace flashdeck

#include "backend/logs/logrules.h"

#include <QFile>

#include <nlohmann/json.hpp>

#include <string_view>

namespace flashdeck::logs {

Result<LogRules> LogRules::fromJson(const QByteArray &text, const QString &source)
{
    const nlohmann::json j = nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
    if (!j.is_object() || !j.contains("rules") || !j["rules"].is_array()) {
        return Status::failure(QStringLiteral("%1: expected an object with a \"rules\" array").arg(source));
    }
    LogRules out;
    int n = 0;
    for (const nlohmann::json &r : j["rules"]) {
        ++n;
        auto bad = [&](const QString &why) {
            return Status::failure(QStringLiteral("%1: rule %2: %3").arg(source).arg(n).arg(why));
        };
        if (!r.is_object() || !r.value("id", nlohmann::json()).is_string()) {
            return bad(QStringLiteral("\"id\" must be a string"));
        }
        LogRule rule;
        rule.id = QString::fromStdString(r["id"].get<std::string>());
        rule.severity = QString::fromStdString(r.value("severity", std::string()));
        if (rule.severity != QLatin1String("ok") && rule.severity != QLatin1String("info") &&
            rule.severity != QLatin1String("warn") && rule.severity != QLatin1String("error")) {
            return bad(QStringLiteral("\"severity\" of %1 must be ok, info, warn or error").arg(rule.id));
        }
        const nlohmann::json match = r.value("match", nlohmann::json());
        if (!match.is_array() || match.empty()) {
            return bad(QStringLiteral("\"match\" of %1 must be a non-empty array of strings").arg(rule.id));
        }
        for (const nlohmann::json &m : match) {
            if (!m.is_string() || m.get<std::string>().empty()) {
                return bad(
                    QStringLiteral("\"match\" of %1 holds something that is not a non-empty string").arg(rule.id));
            }
            rule.match.append(QByteArray::fromStdString(m.get<std::string>()));
        }
        rule.meaning = QString::fromStdString(r.value("meaning", std::string()));
        rule.fix = QString::fromStdString(r.value("fix", std::string()));
        if (out.rule(rule.id)) {
            return bad(QStringLiteral("the id %1 is used twice").arg(rule.id));
        }
        out.m_rules.append(rule);
    }
    return out;
}

Result<LogRules> LogRules::builtIn()
{
    QFile f(QStringLiteral(":/logrules/log-rules.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(QStringLiteral("The built-in log rules are missing from this build."));
    }
    return fromJson(f.readAll(), QStringLiteral("log-rules.json"));
}

const LogRule *LogRules::rule(const QString &id) const
{
    for (const LogRule &r : m_rules) {
        if (r.id == id) {
            return &r;
        }
    }
    return nullptr;
}

int LogRules::classify(QByteArrayView line) const
{
    const std::string_view text(line.data(), size_t(line.size()));
    for (int i = 0; i < m_rules.size(); ++i) {
        for (const QByteArray &m : m_rules[i].match) {
            if (text.find(std::string_view(m.constData(), size_t(m.size()))) != std::string_view::npos) {
                return i;
            }
        }
    }
    return -1;
}

} // namespace flashdeck::logs

#include "backend/deploy/acknowledgements.h"

#include "backend/core/lockedfile.h"
#include "backend/recipe/licenseterms.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>

#include <nlohmann/json.hpp>

#include <pwd.h>
#include <unistd.h>

namespace flashdeck::deploy {

namespace {

nlohmann::json toJson(const Acknowledgement &a)
{
    return {{"host", a.host.toStdString()},
            {"license", a.license.toStdString()},
            {"version", a.version.toStdString()},
            {"use", a.use.toStdString()},
            {"user", a.user.toStdString()},
            {"at", a.at.toStdString()},
            {"summary_sha256", a.summarySha256.toStdString()},
            {"via", a.via.toStdString()},
            {"language", a.language.toStdString()}};
}

} // namespace

Acknowledgements::Acknowledgements(QString file)
    : m_file(std::move(file))
{ }

QString Acknowledgements::currentUser()
{
    if (const passwd *pw = getpwuid(getuid()); pw && pw->pw_name) {
        return QString::fromLocal8Bit(pw->pw_name);
    }
    return qEnvironmentVariable("USER", QStringLiteral("uid %1").arg(getuid()));
}

Acknowledgement Acknowledgements::make(const QString &host, const recipe::LicenseTerms &terms, const QString &use,
                                       const QString &via)
{
    Acknowledgement a;
    a.host = host;
    a.license = terms.id();
    a.version = terms.version();
    a.use = use;
    a.user = currentUser();
    a.at = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    a.summarySha256 = terms.summaryHash();
    a.via = via;
    a.language = terms.language();
    return a;
}

Result<QList<Acknowledgement>> Acknowledgements::load() const
{
    QFile f(m_file);
    if (!f.exists()) {
        return QList<Acknowledgement>();
    }
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(
            QCoreApplication::translate("Deploy", "Cannot read %1: %2.").arg(m_file, f.errorString()));
    }
    return parse(f.readAll());
}

Result<QList<Acknowledgement>> Acknowledgements::parse(const QByteArray &data) const
{
    QList<Acknowledgement> out;
    const nlohmann::json j = nlohmann::json::parse(data.constData(), data.constData() + data.size(), nullptr, false);
    const nlohmann::json list = j.is_object() ? j.value("acknowledgements", nlohmann::json()) : nlohmann::json();
    if (!list.is_array()) {
        return Status::failure(
            QCoreApplication::translate("Deploy",
                                        "%1 is not a Flashdeck acknowledgements file (expected an object with an "
                                        "\"acknowledgements\" array). Move it aside and acknowledge again.")
                .arg(m_file));
    }
    for (const nlohmann::json &e : list) {
        if (!e.is_object()) {
            continue;
        }
        auto s = [&e](const char *k) {
            const nlohmann::json v = e.value(k, nlohmann::json());
            return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString();
        };
        out.append({s("host"), s("license"), s("version"), s("use"), s("user"), s("at"), s("summary_sha256"), s("via"),
                    s("language")});
    }
    return out;
}

Result<std::optional<Acknowledgement>> Acknowledgements::find(const QString &host,
                                                              const recipe::LicenseTerms &terms) const
{
    const auto all = load();
    if (!all) {
        return Status::failure(all.message());
    }
    for (const Acknowledgement &a : all.value()) {
        if (a.host == host && a.license == terms.id() && a.version == terms.version() &&
            terms.equivalentHashes().contains(a.summarySha256) && terms.use(a.use)) {
            return std::optional<Acknowledgement>(a);
        }
    }
    return std::optional<Acknowledgement>();
}

Status Acknowledgements::record(const Acknowledgement &ack)
{
    // Added to the file as it is now, under its lock: another host's acknowledgement, recorded by
    // another process meanwhile (the window and `flashdeck deploy --accept-license`), stays.
    const Status s = LockedFile(m_file).update([this, &ack](const std::optional<QByteArray> &current) {
        QList<Acknowledgement> list;
        if (current) {
            auto all = parse(*current);
            if (!all) {
                return LockedFile::Edit::corrupt(all.status());
            }
            list = std::move(all).value();
        }
        list.removeIf([&ack](const Acknowledgement &a) { return a.host == ack.host && a.license == ack.license; });
        list.append(ack);
        nlohmann::json arr = nlohmann::json::array();
        for (const Acknowledgement &a : list) {
            arr.push_back(toJson(a));
        }
        return LockedFile::Edit::replaceWith(
            QByteArray::fromStdString(nlohmann::json{{"acknowledgements", arr}}.dump(2)) + '\n');
    });
    if (!s) {
        return Status::failure(
            QCoreApplication::translate("Deploy", "Cannot record the licence acknowledgement. %1").arg(s.message()),
            s.detail());
    }
    return Status::ok();
}

} // namespace flashdeck::deploy

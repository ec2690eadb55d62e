#include "backend/fleet/inventory.h"

#include "backend/core/atomicfile.h"
#include "backend/core/jsonread.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace flashdeck {

namespace {
constexpr int kFormatVersion = 1;
}

Inventory::Inventory(QString path)
    : m_path(std::move(path))
{ }

Status Inventory::load()
{
    m_hosts.clear();
    QFile file(m_path);
    if (!file.exists()) {
        return Status::ok();
    }
    if (!file.open(QIODevice::ReadOnly)) {
        return Status::failure(QCoreApplication::translate("Fleet", "Cannot read the host inventory %1: %2.")
                                   .arg(m_path, file.errorString()));
    }
    auto hosts = parse(file.readAll(), m_path);
    if (!hosts) {
        return hosts.status();
    }
    m_hosts = std::move(hosts).value();
    return Status::ok();
}

Result<QList<HostEntry>> Inventory::parse(const QByteArray &data, const QString &source)
{
    try {
        const nlohmann::json j = nlohmann::json::parse(data.constData(), data.constData() + data.size());
        const auto readVersion = jsonread::integer(j, "version", 0, 1 << 20);
        if (j.is_object() && j.contains("version") && !readVersion) {
            throw nlohmann::json::type_error::create(302, "\"version\" is not a format number", &j);
        }
        const int version = int(readVersion.value_or(kFormatVersion));
        if (version > kFormatVersion) {
            return Status::failure(
                QCoreApplication::translate("Fleet",
                                            "The host inventory %1 was written by a newer Flashdeck (format %2). "
                                            "Update Flashdeck; the file was left as it is.")
                    .arg(source)
                    .arg(version));
        }
        QList<HostEntry> hosts;
        for (const nlohmann::json &item : j.at("hosts")) {
            HostEntry h = item.get<HostEntry>();
            if (Status s = HostEntry::validateName(h.name); !s) {
                return Status::failure(
                    QCoreApplication::translate("Fleet", "The host inventory %1 has an invalid entry: %2")
                        .arg(source, s.message()));
            }
            hosts.append(std::move(h));
        }
        return hosts;
    } catch (const nlohmann::json::exception &e) {
        return Status::failure(
            QCoreApplication::translate("Fleet",
                                        "The host inventory %1 is not valid JSON of the expected shape, so it "
                                        "was not loaded and will not be overwritten. Fix or move the file. (%2)")
                .arg(source, QString::fromUtf8(e.what())),
            QString::fromUtf8(e.what()));
    }
}

Status Inventory::save() const
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    nlohmann::json j;
    j["version"] = kFormatVersion;
    j["hosts"] = nlohmann::json::array();
    for (const HostEntry &h : m_hosts) {
        j["hosts"].push_back(h);
    }
    const std::string text = j.dump(2) + "\n";
    if (const Status s =
            writeFileAtomically(m_path, QByteArray::fromStdString(text), QFile::ReadOwner | QFile::WriteOwner);
        !s) {
        return Status::failure(
            QCoreApplication::translate("Fleet",
                                        "Could not save the host inventory %1 (%2); the previous version is "
                                        "unchanged. Check free disk space.")
                .arg(m_path, s.message()));
    }
    return Status::ok();
}

std::optional<HostEntry> Inventory::find(const QString &name) const
{
    for (const HostEntry &h : m_hosts) {
        if (h.name == name) {
            return h;
        }
    }
    return std::nullopt;
}

Status Inventory::add(const HostEntry &host)
{
    if (Status s = HostEntry::validateName(host.name); !s) {
        return s;
    }
    if (find(host.name)) {
        return Status::failure(
            QCoreApplication::translate("Fleet",
                                        "A host named \"%1\" is already in the inventory. Remove it first or "
                                        "choose another name.")
                .arg(host.name));
    }
    m_hosts.append(host);
    return Status::ok();
}

Status Inventory::update(const HostEntry &host)
{
    for (HostEntry &h : m_hosts) {
        if (h.name == host.name) {
            h = host;
            return Status::ok();
        }
    }
    return Status::failure(
        QCoreApplication::translate("Fleet", "No host named \"%1\" in the inventory.").arg(host.name));
}

Status Inventory::remove(const QString &name)
{
    for (qsizetype i = 0; i < m_hosts.size(); ++i) {
        if (m_hosts.at(i).name == name) {
            m_hosts.removeAt(i);
            return Status::ok();
        }
    }
    return Status::failure(
        QCoreApplication::translate("Fleet", "No host named \"%1\" in the inventory (see 'flashdeck hosts list').")
            .arg(name));
}

} // namespace flashdeck

#include "backend/fleet/inventory.h"

#include "backend/core/jsonread.h"

#include <QCoreApplication>
#include <QFile>

#include <nlohmann/json.hpp>

namespace flashdeck::fleet {

namespace {
constexpr int kFormatVersion = 1;
}

Inventory::Inventory(QString path)
    : m_path(std::move(path))
{ }

Status Inventory::load()
{
    m_hosts.clear();
    auto hosts = read();
    if (!hosts) {
        return hosts.status();
    }
    m_hosts = std::move(hosts).value();
    return Status::ok();
}

Result<bool> Inventory::reload()
{
    auto hosts = read();
    if (!hosts) {
        return hosts.status();
    }
    const bool changed = serialize(hosts.value()) != serialize(m_hosts);
    m_hosts = std::move(hosts).value();
    return changed;
}

Result<QList<HostEntry>> Inventory::read() const
{
    QFile file(m_path);
    if (!file.exists()) {
        return QList<HostEntry>();
    }
    if (!file.open(QIODevice::ReadOnly)) {
        return Status::failure(QCoreApplication::translate("Fleet", "Cannot read the host inventory %1: %2.")
                                   .arg(m_path, file.errorString()));
    }
    return parse(file.readAll(), m_path);
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

QByteArray Inventory::serialize(const QList<HostEntry> &hosts)
{
    nlohmann::json j;
    j["version"] = kFormatVersion;
    j["hosts"] = nlohmann::json::array();
    for (const HostEntry &h : hosts) {
        j["hosts"].push_back(h);
    }
    return QByteArray::fromStdString(j.dump(2) + "\n");
}

LockedFile Inventory::file() const
{
    return LockedFile(m_path, QFile::ReadOwner | QFile::WriteOwner);
}

Status Inventory::save() const
{
    const QByteArray bytes = serialize(m_hosts);
    return file().update([this, &bytes](const std::optional<QByteArray> &current) {
        if (current) {
            if (auto hosts = parse(*current, m_path); !hosts) {
                return LockedFile::Edit::corrupt(hosts.status());
            }
        }
        return LockedFile::Edit::replaceWith(bytes);
    });
}

Result<QList<HostEntry>> Inventory::change(const Edit &edit)
{
    std::optional<QList<HostEntry>> found; // the file's hosts, once read
    QList<HostEntry> changed;
    const Status s = file().update([&](const std::optional<QByteArray> &current) {
        QList<HostEntry> hosts;
        if (current) {
            auto parsed = parse(*current, m_path);
            if (!parsed) {
                return LockedFile::Edit::corrupt(parsed.status());
            }
            hosts = std::move(parsed).value();
        }
        found = hosts;
        if (Status refused = edit(hosts); !refused) {
            return LockedFile::Edit::refuse(refused);
        }
        changed = hosts;
        return LockedFile::Edit::replaceWith(serialize(hosts));
    });
    if (found) {
        m_hosts = s ? changed : *found;
    }
    if (!s) {
        return s;
    }
    return changed;
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

Result<QList<HostEntry>> Inventory::add(const HostEntry &host)
{
    if (Status s = HostEntry::validateName(host.name); !s) {
        return s;
    }
    return change([&host](QList<HostEntry> &hosts) {
        for (const HostEntry &h : hosts) {
            if (h.name == host.name) {
                return Status::failure(
                    QCoreApplication::translate("Fleet",
                                                "A host named \"%1\" is already in the inventory. Remove it first or "
                                                "choose another name.")
                        .arg(host.name));
            }
        }
        hosts.append(host);
        return Status::ok();
    });
}

Result<QList<HostEntry>> Inventory::update(const HostEntry &host)
{
    return change([&host](QList<HostEntry> &hosts) {
        for (HostEntry &h : hosts) {
            if (h.name == host.name) {
                h = host;
                return Status::ok();
            }
        }
        return Status::failure(
            QCoreApplication::translate("Fleet", "No host named \"%1\" in the inventory.").arg(host.name));
    });
}

Result<QList<HostEntry>> Inventory::remove(const QString &name)
{
    return change([&name](QList<HostEntry> &hosts) {
        for (qsizetype i = 0; i < hosts.size(); ++i) {
            if (hosts.at(i).name == name) {
                hosts.removeAt(i);
                return Status::ok();
            }
        }
        return Status::failure(
            QCoreApplication::translate("Fleet", "No host named \"%1\" in the inventory (see 'flashdeck hosts list').")
                .arg(name));
    });
}

} // namespace flashdeck::fleet

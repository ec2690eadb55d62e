#include "backend/fleet/hostentry.h"

#include "backend/core/jsonread.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

namespace flashdeck::fleet {

namespace {

QString str(const nlohmann::json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

} // namespace

ssh::SshTarget HostEntry::toTarget() const
{
    ssh::SshTarget t;
    t.host = address;
    t.port = port;
    t.user = user;
    t.identityFile = identityFile;
    t.knownHostsFile = knownHostsFile;
    return t;
}

QString HostEntry::sshSpec() const
{
    QString host = address.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(address) : address;
    QString spec = user.isEmpty() ? host : user + QLatin1Char('@') + host;
    if (port != 0) {
        spec += QLatin1Char(':') + QString::number(port);
    }
    return spec;
}

Status HostEntry::validateName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    if (!re.match(name).hasMatch()) {
        return Status::failure(
            QCoreApplication::translate("Fleet",
                                        "\"%1\" is not a valid host name for the inventory: use 1 to 64 "
                                        "letters, digits, '.', '_' or '-', starting with a letter or digit.")
                .arg(name));
    }
    return Status::ok();
}

Result<HostEntry> HostEntry::fromSshSpec(const QString &name, const QString &spec)
{
    if (Status s = validateName(name); !s) {
        return s;
    }
    HostEntry h;
    h.name = name;
    QString rest = spec.trimmed();
    const qsizetype at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        h.user = rest.left(at);
        rest = rest.mid(at + 1);
    }
    QString portText;
    if (rest.startsWith(QLatin1Char('['))) {
        const qsizetype close = rest.indexOf(QLatin1Char(']'));
        if (close < 0) {
            return Status::failure(
                QCoreApplication::translate("Fleet", "\"%1\": missing ']' after an IPv6 address.").arg(spec));
        }
        h.address = rest.mid(1, close - 1);
        const QString after = rest.mid(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(QLatin1Char(':'))) {
                return Status::failure(
                    QCoreApplication::translate("Fleet", "\"%1\": expected ':PORT' after ']'.").arg(spec));
            }
            portText = after.mid(1);
        }
    } else if (rest.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = rest.indexOf(QLatin1Char(':'));
        h.address = rest.left(colon);
        portText = rest.mid(colon + 1);
    } else {
        h.address = rest; // a bare IPv6 address has several colons and no port
    }
    static const QRegularExpression badChars(QStringLiteral("[\\s/\\\\'\"`$;]"));
    if (h.address.isEmpty() || h.address.contains(badChars) || h.user.contains(badChars)) {
        return Status::failure(
            QCoreApplication::translate("Fleet",
                                        "\"%1\" is not of the form [USER@]HOST[:PORT] (e.g. ops@b300-a.example:22).")
                .arg(spec));
    }
    if (!portText.isEmpty()) {
        bool ok = false;
        const uint port = portText.toUInt(&ok);
        if (!ok || port == 0 || port > 65535) {
            return Status::failure(
                QCoreApplication::translate("Fleet", "\"%1\": the port must be a number from 1 to 65535.")
                    .arg(portText));
        }
        h.port = static_cast<quint16>(port);
    }
    return h;
}

void to_json(nlohmann::json &j, const HostEntry &h)
{
    j = nlohmann::json{{"name", h.name.toStdString()}, {"address", h.address.toStdString()}};
    if (!h.user.isEmpty()) {
        j["user"] = h.user.toStdString();
    }
    if (h.port != 0) {
        j["port"] = h.port;
    }
    if (!h.identityFile.isEmpty()) {
        j["identity_file"] = h.identityFile.toStdString();
    }
    if (!h.knownHostsFile.isEmpty()) {
        j["known_hosts_file"] = h.knownHostsFile.toStdString();
    }
    if (!h.vendorHint.isEmpty()) {
        j["vendor_hint"] = h.vendorHint.toStdString();
    }
    if (!h.notes.isEmpty()) {
        j["notes"] = h.notes.toStdString();
    }
    if (h.simulated) {
        j["simulated"] = true;
    }
}

void from_json(const nlohmann::json &j, HostEntry &h)
{
    h.name = QString::fromStdString(j.at("name").get<std::string>());
    h.address = QString::fromStdString(j.at("address").get<std::string>());
    h.user = str(j, "user");
    // Typed and range-checked: a number beyond quint16 converted by nlohmann is undefined
    // behaviour (found by fuzz_configfiles: "port": 2.2e54).
    const bool whole = j.contains("port") && j.at("port").is_number_integer(); // 22.5 is no port
    const auto port = whole ? jsonread::integer(j, "port", 0, 65535) : std::nullopt;
    if (j.contains("port") && !port) {
        throw nlohmann::json::type_error::create(302, "\"port\" is not a TCP port number (0 to 65535)", &j);
    }
    h.port = quint16(port.value_or(0));
    h.identityFile = str(j, "identity_file");
    h.knownHostsFile = str(j, "known_hosts_file");
    h.vendorHint = str(j, "vendor_hint");
    h.notes = str(j, "notes");
    h.simulated = j.value("simulated", false);
}

} // namespace flashdeck::fleet

#include "backend/expose/gatewayrecord.h"

#include "backend/core/apppaths.h"
#include "backend/core/jsonread.h"
#include "backend/core/lockedfile.h"

#include <QCoreApplication>
#include <QFile>
#include <QHostAddress>

#include <nlohmann/json.hpp>

namespace flashdeck::expose {

namespace {

std::string stdString(const QString &v)
{
    return v.toStdString();
}

QString recordString(const nlohmann::json &j, const char *key)
{
    return QString::fromStdString(jsonread::string(j, key));
}

nlohmann::json recordList(const QStringList &items)
{
    nlohmann::json out = nlohmann::json::array();
    for (const QString &i : items) {
        out.push_back(i.toStdString());
    }
    return out;
}

QStringList listOf(const nlohmann::json &j, const char *key)
{
    QStringList out;
    const auto it = j.find(key);
    if (it != j.end() && it->is_array()) {
        for (const nlohmann::json &v : *it) {
            if (v.is_string()) {
                out.append(QString::fromStdString(v.get<std::string>()));
            }
        }
    }
    return out;
}

} // namespace

QString GatewayRecord::url() const
{
    const QHostAddress a(address);
    const bool v6 = a.protocol() == QAbstractSocket::IPv6Protocol;
    return QStringLiteral("https://%1:%2")
        .arg(v6 ? QLatin1Char('[') + a.toString() + QLatin1Char(']') : address)
        .arg(port);
}

QString GatewayRecord::curlLine() const
{
    // A self-signed certificate chains to no CA curl trusts: --insecure skips that check and the
    // pin replaces it (curl checks --pinnedpubkey with --insecure too).
    return QStringLiteral(
               "curl %1--pinnedpubkey 'sha256//%2' -H \"Authorization: Bearer $SGLANG_API_KEY\" %3/v1/models")
        .arg(selfSigned ? QStringLiteral("--insecure ") : QString(), publicKeySha256, url());
}

nlohmann::json GatewayRecord::statusJson() const
{
    return {{"url", stdString(url())}, {"sha256", stdString(publicKeySha256)}, {"allow", recordList(allow)}};
}

QString GatewayRecord::file(const AppPaths &paths, const QString &host)
{
    return paths.dataDir() + QStringLiteral("/deployments/") + host + QStringLiteral("/gateway.json");
}

QByteArray GatewayRecord::toJson() const
{
    const nlohmann::json j{{"host", stdString(host)},
                           {"address", stdString(address)},
                           {"port", port},
                           {"listen_address", stdString(listenAddress)},
                           {"upstream_port", upstreamPort},
                           {"allow", recordList(allow)},
                           {"public_key_sha256", stdString(publicKeySha256)},
                           {"certificate_sha256", stdString(certificateSha256)},
                           {"certificate_expires", stdString(certificateExpires)},
                           {"self_signed", selfSigned},
                           {"image", stdString(image)},
                           {"container", stdString(containerName)},
                           {"host_dir", stdString(hostDir)},
                           {"rate", stdString(rate)},
                           {"burst", burst},
                           {"max_concurrent", maxConcurrent},
                           {"max_body_bytes", maxBodyBytes},
                           {"client_timeout_seconds", clientTimeoutSeconds},
                           {"upstream_timeout_seconds", upstreamTimeoutSeconds},
                           {"media_allow", recordList(mediaAllow)},
                           {"exposed_at", stdString(exposedAt)}};
    return QByteArray::fromStdString(j.dump(2)) + '\n';
}

Result<GatewayRecord> GatewayRecord::fromJson(const QByteArray &bytes)
{
    const nlohmann::json j = nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    if (!j.is_object()) {
        return Status::failure(QStringLiteral("not a JSON object"));
    }
    GatewayRecord r;
    r.host = recordString(j, "host");
    r.address = recordString(j, "address");
    r.port = int(jsonread::integer(j, "port", 1, 65535).value_or(0));
    r.listenAddress = recordString(j, "listen_address");
    r.upstreamPort = int(jsonread::integer(j, "upstream_port", 1, 65535).value_or(0));
    r.allow = listOf(j, "allow");
    r.publicKeySha256 = recordString(j, "public_key_sha256");
    r.certificateSha256 = recordString(j, "certificate_sha256");
    r.certificateExpires = recordString(j, "certificate_expires");
    r.selfSigned = j.value("self_signed", false);
    r.image = recordString(j, "image");
    r.containerName = recordString(j, "container");
    r.hostDir = recordString(j, "host_dir");
    r.rate = recordString(j, "rate");
    r.burst = int(jsonread::integer(j, "burst", 0, 1 << 30).value_or(0));
    r.maxConcurrent = int(jsonread::integer(j, "max_concurrent", 0, 1 << 30).value_or(0));
    r.maxBodyBytes = jsonread::integer(j, "max_body_bytes", 0, qint64(1) << 50).value_or(0);
    r.clientTimeoutSeconds = int(jsonread::integer(j, "client_timeout_seconds", 0, 1 << 30).value_or(0));
    r.upstreamTimeoutSeconds = int(jsonread::integer(j, "upstream_timeout_seconds", 0, 1 << 30).value_or(0));
    r.mediaAllow = listOf(j, "media_allow");
    r.exposedAt = recordString(j, "exposed_at");
    if (r.port == 0 || r.address.isEmpty()) {
        return Status::failure(QStringLiteral("no address or port"));
    }
    return r;
}

Result<std::optional<GatewayRecord>> GatewayRecord::read(const AppPaths &paths, const QString &host)
{
    QFile f(file(paths, host));
    if (!f.exists()) {
        return std::optional<GatewayRecord>();
    }
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(
            QCoreApplication::translate("Expose", "Cannot read %1: %2").arg(f.fileName(), f.errorString()));
    }
    auto r = fromJson(f.readAll());
    if (!r) {
        return Status::failure(QCoreApplication::translate("Expose", "The gateway record %1 is damaged (%2).")
                                   .arg(f.fileName(), r.message()));
    }
    return std::optional<GatewayRecord>(r.value());
}

Status GatewayRecord::write(const AppPaths &paths) const
{
    const QByteArray bytes = toJson();
    return LockedFile(file(paths, host), QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        .update([&bytes](const std::optional<QByteArray> &) { return LockedFile::Edit::replaceWith(bytes); });
}

Status GatewayRecord::remove(const AppPaths &paths, const QString &host)
{
    // Under the lock its writers take, so a removal never crosses a write of the same record.
    const QString path = file(paths, host);
    if (!QFile::exists(path)) {
        return Status::ok();
    }
    Status removed = Status::ok();
    const Status locked = LockedFile(path).whileLocked([&path, &removed] {
        QFile f(path);
        if (f.exists() && !f.remove()) {
            removed = Status::failure(
                QCoreApplication::translate("Expose", "Cannot remove %1: %2").arg(f.fileName(), f.errorString()));
        }
    });
    return locked ? removed : locked;
}

} // namespace flashdeck::expose

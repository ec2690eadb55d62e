#pragma once

#include "backend/core/result.h"
#include "backend/ssh/sshtypes.h"

#include <nlohmann/json_fwd.hpp>

namespace flashdeck::fleet {

/** One host of the inventory. Never holds a secret. */
struct HostEntry
{
    QString name;
    QString address;
    QString user;
    quint16 port = 0;
    QString identityFile;
    QString knownHostsFile;
    /** "nvidia", "amd" or empty: a hint until the probe has looked. */
    QString vendorHint;
    QString notes;
    /** A simulated host (the demo): shown with a SIMULATED badge everywhere. */
    bool simulated = false;

    ssh::SshTarget toTarget() const;
    /** "user@address:port" with the parts that are set. */
    QString sshSpec() const;

    /** Letters, digits, '.', '_' and '-', 1–64 characters, starting with a letter or digit. */
    static Status validateName(const QString &name);
    /** Parses `[USER@]HOST[:PORT]`, with `[v6addr]:PORT` for IPv6. */
    static Result<HostEntry> fromSshSpec(const QString &name, const QString &spec);
};

void to_json(nlohmann::json &j, const HostEntry &h);
void from_json(const nlohmann::json &j, HostEntry &h);

} // namespace flashdeck::fleet

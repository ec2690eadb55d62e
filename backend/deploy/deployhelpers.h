#pragma once

#include "backend/docker/dockerclient.h"

#include <QString>

#include <nlohmann/json.hpp>

// Small words the deploy runner's files share (deployrunner.cpp, deploypreflight.cpp).
namespace flashdeck::deploy::helpers {

/** dockerd's own words for a failed call, attributed; a transport failure as it is. */
inline QString dockerSaid(const docker::DockerResponse &r)
{
    return r.transportError.isEmpty() ? QStringLiteral("dockerd: ") + r.message() : r.message();
}

/** A string member of a JSON object; empty when absent or not a string. */
inline QString str(const nlohmann::json &j, const char *key)
{
    return j.is_object() && j.contains(key) && j[key].is_string() ? QString::fromStdString(j[key].get<std::string>())
                                                                  : QString();
}

} // namespace flashdeck::deploy::helpers

#pragma once

#include "backend/docker/dockerclient.h"

#include <QString>

#include <nlohmann/json.hpp>

// Small words the deploy runner's files share (deployrunner.cpp, deploypreflight.cpp).
namespace flashdeck::deployhelpers {

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

/**
 * nvidia-smi -q -x / amd-smi take seconds even on 8 GPUs; a tool that hangs or never stops
 * printing is stopped here with a clear step error instead of holding the deployment.
 */
constexpr int kGpuProbeTimeoutMs = 30000;

} // namespace flashdeck::deployhelpers

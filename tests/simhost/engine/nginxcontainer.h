#pragma once

#include <string>
#include <vector>

namespace flashdeck::sim {

/** How a container of the official nginx image starts here: the program and its arguments, or why not. */
struct NginxLaunch
{
    std::vector<std::string> exec;
    /** Set when the container must fail at once: a shell line printing nginx's own words, exit 1. */
    bool failed = false;
};

/**
 * A container of Docker Hub's `nginx` image runs the machine's own Debian nginx (nginx-light and
 * libnginx-mod-http-js, installed by scripts/bootstrap) with the configuration the container
 * would read, inside the host's network namespace like every simulated container.
 *
 * A container has a file system of its own; this one is a process of the machine. So the
 * configuration `-c` names is read through the container's bind mounts, and every path in it
 * that lives in a bind (or in the image's /var/cache/nginx) is rewritten to where it is on the
 * machine: the bound folder's own path, and `privateDir` for the image's cache. nginx then runs
 * with that copy (`-p privateDir`), so two hosts' gateways never share a pid file or a
 * temporary folder. A configuration outside every bind cannot be read here: the container fails
 * with nginx's words for a missing file (the real image would serve its default page instead).
 */
NginxLaunch nginxLaunch(const std::vector<std::string> &argv, const std::vector<std::string> &binds,
                        const std::string &nginxBinary, const std::string &privateDir);

} // namespace flashdeck::sim

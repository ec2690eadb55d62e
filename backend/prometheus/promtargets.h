#pragma once

#include "backend/recipe/deployment.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace flashdeck::prom {

/** Where a scrape of a deployment's server comes from: the servers listen on the host's loopback. */
enum class ScrapeFrom {
    Network, // a central Prometheus scrapes ADDRESS:PORT (the port opened to it, with a firewall rule)
    OnHost, // an agent on each host scrapes 127.0.0.1:PORT and remote-writes
};

/** A deployment as a scrape target: its host's address and the inventory's name for it. */
struct TargetHost
{
    QString name;
    QString address;
    recipe::Deployment deployment;
};

/**
 * Prometheus file_sd JSON (https://prometheus.io/docs/prometheus/latest/configuration/
 * configuration/#file_sd_config) for every deployment Flashdeck made: one target group each, its
 * server's port, and labels `host`, `flashdeck_deployment`, `flashdeck_profile`,
 * `flashdeck_image_digest`, `flashdeck_model_revision`, `flashdeck_image`.
 */
QByteArray fileSdTargets(const QList<TargetHost> &deployments, ScrapeFrom from);

} // namespace flashdeck::prom

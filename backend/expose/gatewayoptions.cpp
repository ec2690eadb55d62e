#include "backend/expose/gatewayoptions.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

namespace flashdeck::expose {

namespace {

constexpr qint64 kMinBody = 1024;
// The gateway holds a request's body in memory to read its messages (client_body_buffer_size is
// the body limit, so njs sees the whole body: https://nginx.org/en/docs/njs/reference.html#r_request_text).
constexpr qint64 kMaxBody = 256LL * 1024 * 1024;
constexpr int kMaxSeconds = 24 * 3600;

Status portProblem(const QString &name, int port)
{
    if (port >= 1 && port <= 65535) {
        return Status::ok();
    }
    return Status::failure(
        QCoreApplication::translate("Expose", "%1 %2 is not a TCP port: give a number from 1 to 65535.")
            .arg(name)
            .arg(port));
}

QString rateTooLow(Wording wording)
{
    return QCoreApplication::translate("Expose",
                                       "%1 must let at least one request through (1/s or 1/m and up); a rate of 0 "
                                       "would refuse every request.")
        .arg(settingName(GatewaySetting::Rate, wording));
}

Status listenProblem(const GatewayOptions &o)
{
    QHostAddress address;
    if (o.listenAddress.contains(QLatin1Char('%')) || !address.setAddress(o.listenAddress)) {
        return Status::failure(
            QCoreApplication::translate("Expose",
                                        "%1 %2 is not an address of the host: give one of its IP addresses, or "
                                        "0.0.0.0 for all of them.")
                .arg(o.nameOf(GatewaySetting::Listen), o.listenAddress));
    }
    if (Status s = portProblem(o.nameOf(GatewaySetting::Port), o.listenPort); !s) {
        return s;
    }
    if (Status s = portProblem(o.nameOf(GatewaySetting::UpstreamPort), o.upstreamPort); !s) {
        return s;
    }
    if (o.listenPort == o.upstreamPort) {
        return Status::failure(
            QCoreApplication::translate("Expose",
                                        "The gateway cannot listen on port %1: the server itself uses it on the "
                                        "host's loopback. Choose another %2.")
                .arg(o.listenPort)
                .arg(o.nameOf(GatewaySetting::Port)));
    }
    return Status::ok();
}

Status limitsProblem(const GatewayOptions &o)
{
    if (o.rate.count < 1 || o.rate.count > 1'000'000) {
        return Status::failure(rateTooLow(o.wording));
    }
    if (o.burst < 0 || o.burst > 100'000) {
        return Status::failure(QCoreApplication::translate("Expose", "%1 takes a number from 0 to 100000.")
                                   .arg(o.nameOf(GatewaySetting::Burst)));
    }
    if (o.maxConcurrent < 1 || o.maxConcurrent > 100'000) {
        return Status::failure(QCoreApplication::translate("Expose", "%1 takes a number from 1 to 100000.")
                                   .arg(o.nameOf(GatewaySetting::MaxConcurrent)));
    }
    if (o.maxBodyBytes < kMinBody || o.maxBodyBytes > kMaxBody) {
        return Status::failure(QCoreApplication::translate("Expose",
                                                           "%1 must be between 1k and 256m: the gateway holds each "
                                                           "request in memory while it checks the messages' media.")
                                   .arg(o.nameOf(GatewaySetting::MaxBody)));
    }
    if (o.clientTimeoutSeconds < 1 || o.clientTimeoutSeconds > kMaxSeconds || o.upstreamTimeoutSeconds < 1 ||
        o.upstreamTimeoutSeconds > kMaxSeconds) {
        return Status::failure(
            QCoreApplication::translate("Expose", "Timeouts must be between 1 second and 24 hours."));
    }
    return Status::ok();
}

} // namespace

Status GatewayOptions::validate() const
{
    if (Status s = listenProblem(*this); !s) {
        return s;
    }
    if (allow.isEmpty() && wording == Wording::Window) {
        // F31, as the panel asks for the networks.
        return Status::failure(QCoreApplication::translate(
            "Expose",
            "Name the networks your colleagues and services connect from (as 10.20.0.0/16): the gateway lets only "
            "them in. The deployment page asks for the source networks to be restricted before a model server is "
            "reachable beyond its host."));
    }
    if (allow.isEmpty()) {
        // F31: the page asks for source networks to be restricted before the server is exposed.
        return Status::failure(QCoreApplication::translate(
            "Expose",
            "Say who may connect with --allow CIDR (repeat it for each network, e.g. --allow 10.20.0.0/16). "
            "The deployment page asks for the source networks to be restricted before a model server is "
            "opened beyond its host: the API key alone should not be the only thing between the internet "
            "and your GPUs."));
    }
    if (Status s = limitsProblem(*this); !s) {
        return s;
    }
    for (const QString &host : mediaAllow) {
        const Result<QString> parsed = parseMediaHost(host, wording);
        if (!parsed) {
            return parsed.status();
        }
        if (parsed.value() != host) {
            return Status::failure(
                QCoreApplication::translate("Expose", "%1 %2 is not in the form the gateway compares (%3).")
                    .arg(nameOf(GatewaySetting::MediaAllow), host, parsed.value()));
        }
    }
    return Status::ok();
}

QString settingName(GatewaySetting setting, Wording wording)
{
    if (wording == Wording::CommandLine) {
        switch (setting) {
        case GatewaySetting::Listen:
            return QStringLiteral("--listen");
        case GatewaySetting::Port:
            return QStringLiteral("--port");
        case GatewaySetting::UpstreamPort:
            return QStringLiteral("--upstream-port");
        case GatewaySetting::Rate:
            return QStringLiteral("--rate");
        case GatewaySetting::Burst:
            return QStringLiteral("--burst");
        case GatewaySetting::MaxConcurrent:
            return QStringLiteral("--max-concurrent");
        case GatewaySetting::MaxBody:
            return QStringLiteral("--max-body");
        case GatewaySetting::MediaAllow:
            return QStringLiteral("--media-allow");
        }
    }
    // The window's fields, as the "Open to the team" panel labels them, inside a sentence.
    switch (setting) {
    case GatewaySetting::Listen:
        return QCoreApplication::translate("Expose", "the listen address");
    case GatewaySetting::Port:
        return QCoreApplication::translate("Expose", "port");
    case GatewaySetting::UpstreamPort:
        return QCoreApplication::translate("Expose", "the server's port");
    case GatewaySetting::Rate:
        return QCoreApplication::translate("Expose", "the rate per client");
    case GatewaySetting::Burst:
        return QCoreApplication::translate("Expose", "the burst");
    case GatewaySetting::MaxConcurrent:
        return QCoreApplication::translate("Expose", "in flight at most");
    case GatewaySetting::MaxBody:
        return QCoreApplication::translate("Expose", "the largest body");
    case GatewaySetting::MediaAllow:
        return QCoreApplication::translate("Expose", "the media host");
    }
    return {};
}

Result<RequestRate> RequestRate::parse(const QString &input, Wording wording)
{
    static const QRegularExpression form(QStringLiteral("^([0-9]{1,7})\\s*(?:r)?\\s*/\\s*(s|sec|second|m|min|minute)$"),
                                         QRegularExpression::CaseInsensitiveOption);
    const auto match = form.match(input.trimmed());
    if (!match.hasMatch()) {
        return Status::failure(
            QCoreApplication::translate(
                "Expose", "%1 %2 is not a rate: write requests per second or per minute, as 10/s or 600/m.")
                .arg(settingName(GatewaySetting::Rate, wording), input));
    }
    RequestRate rate;
    rate.count = match.captured(1).toInt();
    rate.per = match.captured(2).startsWith(QLatin1Char('m'), Qt::CaseInsensitive) ? Per::Minute : Per::Second;
    if (rate.count < 1) {
        return Status::failure(rateTooLow(wording));
    }
    return rate;
}

QString RequestRate::toString() const
{
    return QStringLiteral("%1/%2").arg(count).arg(per == Per::Second ? QLatin1Char('s') : QLatin1Char('m'));
}

QString RequestRate::toNginx() const
{
    return QStringLiteral("%1r/%2").arg(count).arg(per == Per::Second ? QLatin1Char('s') : QLatin1Char('m'));
}

Result<qint64> GatewayOptions::parseSize(const QString &input, const QString &option)
{
    static const QRegularExpression form(QStringLiteral("^([0-9]{1,12})\\s*(|b|k|kb|kib|m|mb|mib|g|gb|gib)$"),
                                         QRegularExpression::CaseInsensitiveOption);
    const auto match = form.match(input.trimmed());
    if (!match.hasMatch()) {
        return Status::failure(
            QCoreApplication::translate("Expose",
                                        "%1 %2 is not a size: write a number with k, m or g (binary units, as nginx "
                                        "reads them), e.g. 32m or 512k.")
                .arg(option, input));
    }
    const QChar unit = match.captured(2).isEmpty() ? QLatin1Char('b') : match.captured(2).at(0).toLower();
    const int shift = unit == QLatin1Char('k') ? 10 : unit == QLatin1Char('m') ? 20 : unit == QLatin1Char('g') ? 30 : 0;
    const qint64 number = match.captured(1).toLongLong();
    if (number > (qint64(1) << (62 - shift))) {
        return Status::failure(QCoreApplication::translate("Expose", "%1 %2 is far too large.").arg(option, input));
    }
    return number << shift;
}

Result<int> GatewayOptions::parseSeconds(const QString &input, const QString &option)
{
    static const QRegularExpression form(QStringLiteral("^([0-9]{1,6})\\s*(|s|m|h)$"),
                                         QRegularExpression::CaseInsensitiveOption);
    const auto match = form.match(input.trimmed());
    if (!match.hasMatch()) {
        return Status::failure(
            QCoreApplication::translate(
                "Expose", "%1 %2 is not a duration: write seconds, or a number with s, m or h, e.g. 60s or 10m.")
                .arg(option, input));
    }
    const QString unit = match.captured(2).toLower();
    const qint64 factor = unit == QLatin1String("h") ? 3600 : unit == QLatin1String("m") ? 60 : 1;
    const qint64 seconds = match.captured(1).toLongLong() * factor;
    if (seconds < 1 || seconds > kMaxSeconds) {
        return Status::failure(
            QCoreApplication::translate("Expose", "Timeouts must be between 1 second and 24 hours."));
    }
    return int(seconds);
}

Result<int> GatewayOptions::parseCount(const QString &input, const QString &option, int min, int max)
{
    bool ok = false;
    const int value = input.trimmed().toInt(&ok);
    if (!ok || value < min || value > max) {
        return Status::failure(QCoreApplication::translate("Expose", "%1 %2: give a whole number from %3 to %4.")
                                   .arg(option, input)
                                   .arg(min)
                                   .arg(max));
    }
    return value;
}

} // namespace flashdeck::expose

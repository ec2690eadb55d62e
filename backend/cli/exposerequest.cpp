#include "backend/cli/exposerequest.h"

#include "backend/cli/exitcodes.h"
#include "backend/cli/hostscommand.h"
#include "backend/core/apppaths.h"
#include "backend/expose/cidr.h"
#include "backend/expose/gatewaycertificate.h"
#include "backend/fleet/inventory.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QHostAddress>
#include <QTextStream>

namespace flashdeck::cli {

namespace {

struct Opts
{
    QCommandLineOption allow{QStringLiteral("allow"),
                             QCoreApplication::translate("Cli", "A source network let in (repeat it)."),
                             QStringLiteral("CIDR")};
    QCommandLineOption listen{QStringLiteral("listen"),
                              QCoreApplication::translate("Cli", "The host's address to listen on (default 0.0.0.0)."),
                              QStringLiteral("ADDR")};
    QCommandLineOption port{QStringLiteral("port"),
                            QCoreApplication::translate("Cli", "The port to listen on (default 8443)."),
                            QStringLiteral("N")};
    QCommandLineOption rate{QStringLiteral("rate"),
                            QCoreApplication::translate("Cli", "Requests per client address (default 10/s)."),
                            QStringLiteral("N/s")};
    QCommandLineOption burst{QStringLiteral("burst"),
                             QCoreApplication::translate("Cli", "Requests past the rate served at once (default 20)."),
                             QStringLiteral("N")};
    QCommandLineOption maxConcurrent{QStringLiteral("max-concurrent"),
                                     QCoreApplication::translate("Cli", "Requests in flight (default 64)."),
                                     QStringLiteral("N")};
    QCommandLineOption maxBody{QStringLiteral("max-body"),
                               QCoreApplication::translate("Cli", "The largest request (default 32m)."),
                               QStringLiteral("SIZE")};
    QCommandLineOption clientTimeout{
        QStringLiteral("client-timeout"),
        QCoreApplication::translate("Cli", "The longest pause between two reads from a client (default 60s)."),
        QStringLiteral("SECONDS")};
    QCommandLineOption upstreamTimeout{
        QStringLiteral("upstream-timeout"),
        QCoreApplication::translate("Cli",
                                    "The longest wait for the server between two reads (default 600s: an answer "
                                    "without streaming can think for minutes)."),
        QStringLiteral("SECONDS")};
    QCommandLineOption mediaAllow{QStringLiteral("media-allow"),
                                  QCoreApplication::translate("Cli", "An image host remote URLs may name (repeat it)."),
                                  QStringLiteral("DOMAIN")};
    QCommandLineOption selfSigned{QStringLiteral("self-signed"),
                                  QCoreApplication::translate("Cli", "Make a certificate on the host (the default).")};
    QCommandLineOption tlsCert{QStringLiteral("tls-cert"),
                               QCoreApplication::translate("Cli", "Your certificate (PEM)."), QStringLiteral("FILE")};
    QCommandLineOption tlsKey{QStringLiteral("tls-key"),
                              QCoreApplication::translate("Cli", "Its private key (PEM, no passphrase)."),
                              QStringLiteral("FILE")};
    QCommandLineOption preview{QStringLiteral("preview"),
                               QCoreApplication::translate("Cli", "Print what would be placed; change nothing.")};
    QCommandLineOption json{QStringLiteral("json"), QCoreApplication::translate("Cli", "Print JSON.")};
    QCommandLineOption check{QStringLiteral("check"),
                             QCoreApplication::translate("Cli", "Check the placed gateway from this machine.")};
    QCommandLineOption connect{
        QStringLiteral("connect"),
        QCoreApplication::translate("Cli", "With --check: reach the gateway here (a NAT, a tunnel)."),
        QStringLiteral("ADDR:PORT")};
};

/** "10.0.0.5:8443", "[2001:db8::5]:8443", "gpu.example.org:8443". */
bool readConnect(const QString &text, ExposeRequest &r)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    bool ok = false;
    const int port = colon > 0 ? text.mid(colon + 1).toInt(&ok) : 0;
    QString host = colon > 0 ? text.left(colon) : QString();
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']'))) {
        host = host.mid(1, host.size() - 2);
    }
    r.connectHost = host;
    r.connectPort = port;
    return ok && port > 0 && port < 65536 && !host.isEmpty();
}

/** The numbers and sizes; the first that does not parse, as words. */
Status readLimits(const QCommandLineParser &p, const Opts &o, expose::GatewayOptions &g)
{
    using expose::GatewayOptions;
    if (p.isSet(o.port)) {
        const auto v = GatewayOptions::parseCount(p.value(o.port), QStringLiteral("--port"), 1, 65535);
        if (!v) {
            return v.status();
        }
        g.listenPort = v.value();
    }
    if (p.isSet(o.rate)) {
        const auto v = expose::RequestRate::parse(p.value(o.rate));
        if (!v) {
            return v.status();
        }
        g.rate = v.value();
    }
    const std::pair<const QCommandLineOption *, int *> counts[] = {{&o.burst, &g.burst},
                                                                   {&o.maxConcurrent, &g.maxConcurrent}};
    for (const auto &[option, field] : counts) {
        if (p.isSet(*option)) {
            const auto v = GatewayOptions::parseCount(p.value(*option), QStringLiteral("--") + option->names().first(),
                                                      0, 1000000);
            if (!v) {
                return v.status();
            }
            *field = v.value();
        }
    }
    if (p.isSet(o.maxBody)) {
        const auto v = GatewayOptions::parseSize(p.value(o.maxBody), QStringLiteral("--max-body"));
        if (!v) {
            return v.status();
        }
        g.maxBodyBytes = v.value();
    }
    const std::pair<const QCommandLineOption *, int *> timeouts[] = {{&o.clientTimeout, &g.clientTimeoutSeconds},
                                                                     {&o.upstreamTimeout, &g.upstreamTimeoutSeconds}};
    for (const auto &[option, field] : timeouts) {
        if (p.isSet(*option)) {
            const auto v =
                GatewayOptions::parseSeconds(p.value(*option), QStringLiteral("--") + option->names().first());
            if (!v) {
                return v.status();
            }
            *field = v.value();
        }
    }
    return Status::ok();
}

/** --allow, --listen, --media-allow and the certificate's choice. */
Status readNetworks(const QCommandLineParser &p, const Opts &o, expose::GatewayOptions &g)
{
    for (const QString &text : p.values(o.allow)) {
        const auto cidr = expose::Cidr::parse(text);
        if (!cidr) {
            return cidr.status();
        }
        g.allow.append(cidr.value());
    }
    if (p.isSet(o.listen)) {
        g.listenAddress = p.value(o.listen);
    }
    for (const QString &text : p.values(o.mediaAllow)) {
        const auto host = expose::GatewayOptions::parseMediaHost(text);
        if (!host) {
            return host.status();
        }
        g.mediaAllow.append(host.value());
    }
    if (p.isSet(o.selfSigned) && (p.isSet(o.tlsCert) || p.isSet(o.tlsKey))) {
        return Status::failure(QCoreApplication::translate(
            "Cli", "--self-signed and --tls-cert/--tls-key exclude each other: choose one."));
    }
    if (p.isSet(o.tlsCert) != p.isSet(o.tlsKey)) {
        return Status::failure(
            QCoreApplication::translate("Cli", "--tls-cert and --tls-key go together: the certificate and its key."));
    }
    g.tls = p.isSet(o.tlsCert) ? expose::TlsMode::OperatorCertificate : expose::TlsMode::SelfSigned;
    return g.validate();
}

/** Reads a file the operator named; false (said) when it cannot be read. */
bool readFile(const QString &path, QByteArray *bytes, CliContext &c)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        c.err << QCoreApplication::translate("Cli", "Cannot read %1: %2.\n").arg(path, f.errorString());
        return false;
    }
    *bytes = f.readAll();
    return true;
}

/**
 * The operator's certificate must name the address the gateway's URL uses (the listen address,
 * or the host's when it listens on all): else clients that check the name refuse it. A warning,
 * not a refusal: a name the inventory does not know may still be the right one.
 */
void warnNameMismatch(const ExposeRequest &r, CliContext &c)
{
    const auto cert = expose::GatewayCertificate::fromPem(r.certificatePem, r.certificateFile);
    if (!cert) {
        return; // refused with its words before anything connects
    }
    QString address = r.options.listenAddress;
    const QHostAddress listen(address);
    if (listen == QHostAddress(QHostAddress::AnyIPv4) || listen == QHostAddress(QHostAddress::AnyIPv6)) {
        fleet::Inventory inventory(c.paths.inventoryFile());
        const std::optional<fleet::HostEntry> entry = inventory.load() ? inventory.find(r.host) : std::nullopt;
        if (!entry) {
            return; // an unknown host is refused next, in words
        }
        address = entry->address;
    }
    if (const QString words = cert.value().nameMismatch(address); !words.isEmpty()) {
        c.err << words << '\n';
        c.err.flush();
    }
}

} // namespace

QString ExposeRequest::usage()
{
    return QStringLiteral(
        "Usage: flashdeck expose HOST --allow CIDR… [--listen ADDR] [--port N] [--rate N/s] "
        "[--burst N] [--max-concurrent N] [--max-body SIZE] [--client-timeout S] [--upstream-timeout S] "
        "[--media-allow DOMAIN…] "
        "[--self-signed | --tls-cert FILE --tls-key FILE] [--preview] [--json]\n"
        "       flashdeck expose HOST --check [--connect ADDR:PORT] [--json]\n");
}

std::variant<ExposeRequest, int> ExposeRequest::read(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const Opts o;
    p.addOptions({o.allow, o.listen, o.port, o.rate, o.burst, o.maxConcurrent, o.maxBody, o.clientTimeout,
                  o.upstreamTimeout, o.mediaAllow, o.selfSigned, o.tlsCert, o.tlsKey, o.preview, o.json, o.check,
                  o.connect});
    if (!p.parse(args) || p.positionalArguments().size() != 2) {
        c.err << "flashdeck expose: "
              << (p.errorText().isEmpty() ? QCoreApplication::translate("Cli", "needs HOST.") : p.errorText()) << '\n'
              << usage();
        return ExitUsage;
    }
    ExposeRequest r;
    r.host = p.positionalArguments().at(1);
    r.preview = p.isSet(o.preview);
    r.json = p.isSet(o.json);
    r.check = p.isSet(o.check);
    if (r.check) {
        // The record says what was placed; placement options would mean nothing here.
        if (p.isSet(o.connect) && !readConnect(p.value(o.connect), r)) {
            c.err << "flashdeck expose: "
                  << QCoreApplication::translate("Cli", "--connect takes ADDR:PORT, as 10.0.0.5:8443.") << '\n'
                  << usage();
            return ExitUsage;
        }
        return r;
    }
    Status s = readLimits(p, o, r.options);
    if (s) {
        s = readNetworks(p, o, r.options);
    }
    if (!s) {
        c.err << "flashdeck expose: " << s.message() << '\n' << usage();
        return ExitUsage;
    }
    if (r.options.tls == expose::TlsMode::OperatorCertificate) {
        r.certificateFile = p.value(o.tlsCert);
        r.keyFile = p.value(o.tlsKey);
        if (!readFile(r.certificateFile, &r.certificatePem, c) || !readFile(r.keyFile, &r.keyPem, c)) {
            return ExitUsage;
        }
        warnNameMismatch(r, c);
    }
    return r;
}

} // namespace flashdeck::cli

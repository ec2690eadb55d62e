#include "backend/expose/gatewayplacement.h"

#include "backend/core/jsonread.h"
#include "backend/core/shellquote.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/logframes.h"
#include "backend/docker/pullprogress.h"
#include "backend/expose/gatewayconfig.h"
#include "backend/expose/gatewaycontainer.h"
#include "backend/expose/gatewayimage.h"
#include "backend/ssh/commandreply.h"
#include "backend/ssh/transport.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHostAddress>
#include <QNetworkReply>
#include <QTimer>

#include <nlohmann/json.hpp>

namespace flashdeck::expose {

namespace {

/** How long a started gateway has to listen: nginx binds in milliseconds; a pull is not in it. */
constexpr int kConfirmAttempts = 60;
constexpr int kConfirmIntervalMs = 250;

bool isWildcardAddress(const QString &address)
{
    const QHostAddress a(address);
    return a == QHostAddress(QHostAddress::AnyIPv4) || a == QHostAddress(QHostAddress::AnyIPv6);
}

} // namespace

QString GatewayPlacement::failureOf(const ssh::CommandResult &r)
{
    if (r.error.isError()) {
        return r.error.message;
    }
    const QString said = QString::fromUtf8(r.stderrData).trimmed();
    return said.isEmpty() ? QCoreApplication::translate("Expose", "exit code %1").arg(r.exitCode.value_or(-1)) : said;
}

GatewayPlacement::GatewayPlacement(ssh::Transport &transport, docker::DockerClient &docker, GatewayPlan plan,
                                   QObject *parent)
    : QObject(parent)
    , m_transport(transport)
    , m_docker(docker)
    , m_plan(std::move(plan))
{ }

GatewayPlacement::~GatewayPlacement()
{
    m_plan.keyPem.fill('\0'); // a secret: not left in freed memory
}

void GatewayPlacement::start(Done done)
{
    m_done = std::move(done);
    if (m_plan.options.tls == TlsMode::OperatorCertificate) {
        auto certificate = GatewayCertificate::fromPem(m_plan.certificatePem,
                                                       QCoreApplication::translate("Expose", "the certificate file"));
        if (!certificate) {
            refuse(certificate.message());
            return;
        }
        m_certificate = certificate.value();
    }
    probe();
}

void GatewayPlacement::run(const QByteArray &commandLine, const QByteArray &input, const Then &then)
{
    ssh::RemoteCommand command;
    command.commandLine = commandLine;
    command.capture = true;
    command.streamLines = false;
    command.timeoutMs = 120000;
    command.stdinData = input;
    ssh::CommandReply *reply = m_transport.execute(command, this);
    connect(reply, &ssh::CommandReply::finished, this, [reply, then](const ssh::CommandResult &result) {
        reply->abandon();
        then(result);
    });
}

void GatewayPlacement::refuse(const QString &why)
{
    if (std::exchange(m_ended, true)) {
        return;
    }
    m_done(Status::failure(why));
}

QByteArray GatewayPlacement::dirArg() const
{
    return shellQuote(m_dir);
}

QString GatewayPlacement::clientAddress() const
{
    return isWildcardAddress(m_plan.options.listenAddress) ? m_plan.hostAddress : m_plan.options.listenAddress;
}

void GatewayPlacement::probe()
{
    Q_EMIT progress(QCoreApplication::translate("Expose", "Looking at the host: its home, openssl, the ports in use"));
    run(GatewayHostFacts::probeCommand(), {}, [this](const ssh::CommandResult &r) {
        m_facts = GatewayHostFacts::parse(r.stdoutData);
        if (r.error.isError() || m_facts.home().isEmpty()) {
            refuse(QCoreApplication::translate("Expose", "Could not look at the host: %1").arg(failureOf(r)));
            return;
        }
        m_dir = GatewayContainer::hostDir(m_facts.home());
        findExisting();
    });
}

void GatewayPlacement::findExisting()
{
    if (stopIfCancelled()) {
        return;
    }
    m_docker.call(
        "GET", QStringLiteral("/containers/json?all=1&filters=") + docker::DockerClient::q(GatewayContainer::filter()),
        {}, [this](const docker::DockerResponse &list) {
            if (!list.ok()) {
                refuse(QCoreApplication::translate("Expose", "The host's Docker did not list its containers: %1")
                           .arg(list.message()));
                return;
            }
            const nlohmann::json j = list.json();
            if (j.is_array() && !j.empty()) {
                refuse(QCoreApplication::translate(
                           "Expose",
                           "A gateway is already placed on this host. Run 'flashdeck unexpose %1' first, "
                           "then expose with the options you want.")
                           .arg(m_plan.host));
                return;
            }
            checkFacts();
        });
}

void GatewayPlacement::checkFacts()
{
    if (stopIfCancelled()) {
        return;
    }
    const GatewayOptions &o = m_plan.options;
    if (!m_facts.hasSocketList()) {
        refuse(QCoreApplication::translate(
                   "Expose",
                   "The host has no 'ss' (iproute2), so Flashdeck cannot see whether port %1 is free. Install "
                   "iproute2 on the host and expose again.")
                   .arg(o.listenPort));
        return;
    }
    if (const auto held = m_facts.taking(o.listenAddress, o.listenPort)) {
        refuse(QCoreApplication::translate(
                   "Expose",
                   "Port %1 is taken on the host (%2 is listening there): the gateway could not listen on %3:%1. "
                   "Choose another %4, or free it. Nothing was changed.")
                   .arg(o.listenPort)
                   .arg(*held, o.listenAddress, o.nameOf(GatewaySetting::Port)));
        return;
    }
    if (!m_facts.hasOpenssl()) {
        refuse(QCoreApplication::translate(
            "Expose",
            "The host has no openssl, which makes the self-signed certificate and checks your key. Install "
            "it (apt-get install openssl) and expose again. Nothing was changed."));
        return;
    }
    checkKey();
}

void GatewayPlacement::checkKey()
{
    if (stopIfCancelled()) {
        return;
    }
    if (m_plan.options.tls != TlsMode::OperatorCertificate) {
        pull();
        return;
    }
    Q_EMIT progress(
        QCoreApplication::translate("Expose", "Checking that the key matches the certificate (the host's openssl)"));
    // The key goes through stdin and stays in a variable of that shell: nothing is written.
    // Only its public half is printed, hashed as curl hashes a pin.
    const QByteArray check = "k=$(openssl pkey -passin pass: -pubout 2>&1) || { printf '%s\\n' \"$k\" | "
                             "grep -v -e '^-----' >&2; exit 3; }; printf '%s\\n' \"$k\" | openssl pkey -pubin "
                             "-outform DER | openssl dgst -sha256 -binary | openssl base64 -A";
    run(check, m_plan.keyPem, [this](const ssh::CommandResult &r) {
        if (!r.succeeded()) {
            refuse(QCoreApplication::translate(
                       "Expose",
                       "The key file cannot be read as an unencrypted private key (%1). nginx needs it without "
                       "a passphrase. Nothing was changed.")
                       .arg(failureOf(r)));
            return;
        }
        if (QString::fromLatin1(r.stdoutData).trimmed() != m_certificate->publicKeySha256()) {
            refuse(QCoreApplication::translate(
                "Expose",
                "The key does not match the certificate: its public key is not the certificate's. Give the "
                "key the certificate was issued for. Nothing was changed."));
            return;
        }
        pull();
    });
}

void GatewayPlacement::pull()
{
    if (stopIfCancelled()) {
        return;
    }
    m_docker.call("GET", QStringLiteral("/images/%1/json").arg(GatewayImage::pinned()), {},
                  [this](const docker::DockerResponse &present) {
                      if (present.ok()) {
                          writeFiles();
                          return;
                      }
                      streamPull();
                  });
}

void GatewayPlacement::streamPull()
{
    if (stopIfCancelled()) {
        return;
    }
    Q_EMIT progress(QCoreApplication::translate("Expose", "Pulling %1:%2 by its digest %3")
                        .arg(GatewayImage::repository(), GatewayImage::tag(), GatewayImage::digest()));
    auto pulled = std::make_shared<docker::PullProgress>();
    QNetworkReply *reply = m_docker.stream("POST",
                                           QStringLiteral("/images/create?fromImage=%1&tag=%2")
                                               .arg(docker::DockerClient::q(GatewayImage::qualifiedName()),
                                                    docker::DockerClient::q(GatewayImage::digest())));
    m_pull = reply;
    const auto streaming = [reply] {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        return status >= 200 && status < 300;
    };
    connect(reply, &QNetworkReply::readyRead, this, [reply, pulled, streaming] {
        if (streaming()) {
            pulled->feed(reply->readAll());
        }
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, pulled, streaming] {
        if (streaming()) {
            pulled->feed(reply->readAll() + '\n');
        }
        const docker::DockerResponse res = docker::DockerClient::responseOf(reply);
        reply->deleteLater();
        if (stopIfCancelled()) {
            return;
        }
        if (!res.ok() || !pulled->error().isEmpty() || pulled->digest().isEmpty()) {
            const QString said = !pulled->error().isEmpty() ? pulled->error()
                : !res.ok()                                 ? res.message()
                                                            : reply->errorString();
            refuse(QCoreApplication::translate(
                       "Expose",
                       "The host's Docker could not pull %1: %2. Check its access to Docker Hub ('docker pull %1' "
                       "on the host shows the same). Nothing else was changed.")
                       .arg(GatewayImage::pinned(), said));
            return;
        }
        writeFiles();
    });
}

void GatewayPlacement::writeFiles()
{
    if (stopIfCancelled()) {
        return;
    }
    m_changed = true;
    Q_EMIT progress(QCoreApplication::translate("Expose", "Writing the configuration to %1 on the host").arg(m_dir));
    const auto config = GatewayConfig::generate(m_plan.options);
    if (!config) {
        refuse(config.message());
        return;
    }
    // Left by an attempt that failed before its container started: replaced whole.
    const QByteArray conf =
        "umask 077 && rm -rf " + dirArg() + " && mkdir -p " + dirArg() + "/tls && cat > " + dirArg() + "/nginx.conf";
    const QByteArray script = config.value().script().toUtf8();
    run(conf, config.value().nginxConf().toUtf8(), [this, script](const ssh::CommandResult &r) {
        if (!r.succeeded()) {
            undo(QCoreApplication::translate("Expose", "Could not write the configuration on the host: %1")
                     .arg(failureOf(r)));
            return;
        }
        run("umask 077 && cat > " + dirArg() + "/gateway.js", script, [this](const ssh::CommandResult &w) {
            if (!w.succeeded()) {
                undo(QCoreApplication::translate("Expose", "Could not write the media check on the host: %1")
                         .arg(failureOf(w)));
                return;
            }
            m_plan.options.tls == TlsMode::SelfSigned ? makeCertificate() : writeCertificate();
        });
    });
}

void GatewayPlacement::writeCertificate()
{
    if (stopIfCancelled()) {
        return;
    }
    run("umask 077 && cat > " + dirArg() + "/tls/cert.pem", m_plan.certificatePem, [this](const ssh::CommandResult &c) {
        if (!c.succeeded()) {
            undo(QCoreApplication::translate("Expose", "Could not copy the certificate to the host: %1")
                     .arg(failureOf(c)));
            return;
        }
        // umask 077: the key file is 0600 from its first byte.
        run("umask 077 && cat > " + dirArg() + "/tls/key.pem", m_plan.keyPem, [this](const ssh::CommandResult &k) {
            m_plan.keyPem.fill('\0');
            if (!k.succeeded()) {
                undo(QCoreApplication::translate("Expose", "Could not copy the key to the host: %1").arg(failureOf(k)));
                return;
            }
            createContainer();
        });
    });
}

void GatewayPlacement::makeCertificate()
{
    if (stopIfCancelled()) {
        return;
    }
    Q_EMIT progress(QCoreApplication::translate(
        "Expose", "Making a self-signed certificate on the host (its key never leaves it)"));
    // openssl's stderr stays: when it fails, its words are the error (failureOf).
    const QByteArray make = GatewayCertificate::selfSignedCommand(dirArg(), clientAddress());
    run(make, {}, [this](const ssh::CommandResult &r) {
        auto certificate = GatewayCertificate::fromPem(
            r.stdoutData, QCoreApplication::translate("Expose", "the host's new certificate"));
        if (!r.succeeded() || !certificate) {
            undo(QCoreApplication::translate("Expose", "The host's openssl could not make a certificate: %1")
                     .arg(r.succeeded() ? certificate.message() : failureOf(r)));
            return;
        }
        m_certificate = certificate.value();
        createContainer();
    });
}

void GatewayPlacement::createContainer()
{
    if (stopIfCancelled()) {
        return;
    }
    Q_EMIT progress(QCoreApplication::translate("Expose", "Starting the gateway container %1")
                        .arg(GatewayContainer::name(m_plan.host)));
    m_docker.call("POST",
                  QStringLiteral("/containers/create?name=") +
                      docker::DockerClient::q(GatewayContainer::name(m_plan.host)),
                  GatewayContainer::createBody(m_plan.host, m_dir), [this](const docker::DockerResponse &created) {
                      if (!created.ok()) {
                          undo(QCoreApplication::translate("Expose", "dockerd did not create the gateway: %1")
                                   .arg(created.message()));
                          return;
                      }
                      m_containerId = QString::fromStdString(jsonread::string(created.json(), "Id"));
                      startContainer();
                  });
}

void GatewayPlacement::startContainer()
{
    if (stopIfCancelled()) {
        return;
    }
    m_docker.call("POST", QStringLiteral("/containers/%1/start").arg(m_containerId), {},
                  [this](const docker::DockerResponse &started) {
                      if (!started.ok() && started.status != 304) {
                          undo(QCoreApplication::translate("Expose", "dockerd did not start the gateway: %1")
                                   .arg(started.message()));
                          return;
                      }
                      confirm(0);
                  });
}

void GatewayPlacement::confirm(int attempt)
{
    if (stopIfCancelled()) {
        return;
    }
    m_docker.call("GET", QStringLiteral("/containers/%1/json").arg(m_containerId), {},
                  [this, attempt](const docker::DockerResponse &inspected) {
                      const nlohmann::json j = inspected.json();
                      const nlohmann::json state =
                          j.is_object() && j.contains("State") ? j["State"] : nlohmann::json::object();
                      const bool running = state.is_object() && state.contains("Running") &&
                          state["Running"].is_boolean() && state["Running"].get<bool>();
                      if (!inspected.ok() || !running) {
                          explainExit(QString::fromStdString(jsonread::string(state, "Status")));
                          return;
                      }
                      run("ss -Htln | awk '{print \"listen \" $4}'", {}, [this, attempt](const ssh::CommandResult &r) {
                          const GatewayHostFacts now = GatewayHostFacts::parse(r.stdoutData + "\nss yes\n");
                          if (now.taking(m_plan.options.listenAddress, m_plan.options.listenPort)) {
                              succeed();
                          } else if (attempt + 1 >= kConfirmAttempts) {
                              undo(QCoreApplication::translate(
                                       "Expose", "The gateway started but did not listen on port %1 within %2 s.")
                                       .arg(m_plan.options.listenPort)
                                       .arg(kConfirmAttempts * kConfirmIntervalMs / 1000));
                          } else {
                              QTimer::singleShot(kConfirmIntervalMs, this, [this, attempt] { confirm(attempt + 1); });
                          }
                      });
                  });
}

void GatewayPlacement::explainExit(const QString &state)
{
    // nginx's own words (a bind that failed, a certificate it refused) are in the container's log.
    m_docker.call("GET", QStringLiteral("/containers/%1/logs?stdout=1&stderr=1&tail=20").arg(m_containerId), {},
                  [this, state](const docker::DockerResponse &logs) {
                      docker::LogFrameDecoder decoder;
                      QStringList lines;
                      for (const docker::LogLine &l : decoder.feed(logs.body) + decoder.finish()) {
                          lines.append(QString::fromUtf8(l.text).trimmed());
                      }
                      undo(QCoreApplication::translate(
                               "Expose", "The gateway stopped right after it started (%1). nginx said:\n%2")
                               .arg(state.isEmpty() ? QCoreApplication::translate("Expose", "gone") : state,
                                    lines.join(QLatin1Char('\n'))));
                  });
}

void GatewayPlacement::succeed()
{
    if (stopIfCancelled()) {
        return;
    }
    const GatewayOptions &o = m_plan.options;
    GatewayRecord r;
    r.host = m_plan.host;
    r.address = clientAddress();
    r.port = o.listenPort;
    r.listenAddress = o.listenAddress;
    r.upstreamPort = o.upstreamPort;
    for (const Cidr &c : o.allow) {
        r.allow.append(c.toString());
    }
    r.publicKeySha256 = m_certificate->publicKeySha256();
    r.certificateSha256 = m_certificate->fingerprint();
    r.certificateExpires = m_certificate->expires().toUTC().toString(Qt::ISODate);
    r.selfSigned = o.tls == TlsMode::SelfSigned;
    r.image = GatewayImage::pinned();
    r.containerName = GatewayContainer::name(m_plan.host);
    r.hostDir = m_dir;
    r.rate = o.rate.toString();
    r.burst = o.burst;
    r.maxConcurrent = o.maxConcurrent;
    r.maxBodyBytes = o.maxBodyBytes;
    r.clientTimeoutSeconds = o.clientTimeoutSeconds;
    r.upstreamTimeoutSeconds = o.upstreamTimeoutSeconds;
    r.mediaAllow = o.mediaAllow;
    r.exposedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    m_ended = true;
    m_done(r);
}

} // namespace flashdeck::expose

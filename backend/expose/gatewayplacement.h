#pragma once

#include "backend/core/result.h"
#include "backend/expose/gatewaycertificate.h"
#include "backend/expose/gatewayhostfacts.h"
#include "backend/expose/gatewayoptions.h"
#include "backend/expose/gatewayrecord.h"

#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

class QNetworkReply;

namespace flashdeck::ssh {
class Transport;
struct CommandResult;
} // namespace flashdeck::ssh

namespace flashdeck::docker {
class DockerClient;
struct DockerResponse;
} // namespace flashdeck::docker

namespace flashdeck::expose {

/** What to place on which host. */
struct GatewayPlan
{
    QString host; // the inventory's name
    /** The address colleagues reach the host at, used when the gateway listens on every address. */
    QString hostAddress;
    GatewayOptions options; // validated
    /** The operator's certificate and key (TlsMode::OperatorCertificate); the key is a secret. */
    QByteArray certificatePem;
    QByteArray keyPem;
};

/**
 * Places the gateway on a host, over its one SSH connection and its Docker endpoint.
 *
 * Everything that can refuse is asked before anything changes: no gateway there already, the
 * port free (`ss`), openssl on the host, the operator's key matching the certificate. Then: the
 * pinned nginx image (pulled by digest when absent), the folder ~/.flashdeck/gateway (0700;
 * files 0600, written through the command's stdin, the key never on a command line or in a log),
 * the self-signed certificate made there by the host's openssl, the container (host network,
 * the folder read-only), started and watched until it listens. A failure after the folder was
 * written removes the container and the folder again; the image stays, as a deploy's does.
 *
 * cancel() stops it between two steps (a pull in flight is aborted): what was placed is removed
 * again the same way, and the result says what was undone, or what could not be.
 */
class GatewayPlacement final : public QObject
{
    Q_OBJECT

public:
    using Done = std::function<void(const Result<GatewayRecord> &)>;

    GatewayPlacement(ssh::Transport &transport, docker::DockerClient &docker, GatewayPlan plan,
                     QObject *parent = nullptr);
    ~GatewayPlacement() override;

    void start(Done done);
    /**
     * Stops at the next step and removes what was placed (the container, the folder): the result
     * is then a failure saying it was cancelled and what was undone. Nothing once it has ended.
     */
    void cancel();
    bool isCancelled() const { return m_cancelled; }

Q_SIGNALS:
    /** One line for the operator: what is being done now. */
    void progress(const QString &words);

private:
    using Then = std::function<void(const ssh::CommandResult &)>;
    /** What a command that failed said: the transport's words, else its stderr, else its exit code. */
    static QString failureOf(const ssh::CommandResult &r);
    void run(const QByteArray &commandLine, const QByteArray &input, const Then &then);
    void probe();
    void findExisting();
    void checkFacts();
    void checkKey();
    void pull();
    void streamPull();
    void writeFiles();
    void writeCertificate();
    void makeCertificate();
    void createContainer();
    void startContainer();
    void confirm(int attempt);
    void explainExit(const QString &state);
    void succeed();
    void refuse(const QString &why);
    void undo(const QString &why);
    /** Removes the folder once the container is gone (`containerProblem`: why it is not, or empty). */
    void undoFolder(const QString &why, const QString &containerProblem);
    /** True (the undo started) when cancel() was called: each step asks before it changes anything. */
    bool stopIfCancelled();
    QByteArray dirArg() const;
    QString clientAddress() const;

    ssh::Transport &m_transport;
    docker::DockerClient &m_docker;
    GatewayPlan m_plan;
    Done m_done;
    GatewayHostFacts m_facts;
    QString m_dir;
    QString m_containerId;
    std::optional<GatewayCertificate> m_certificate;
    QPointer<QNetworkReply> m_pull;
    bool m_cancelled = false;
    bool m_changed = false; // the folder was (being) written: undo has something to remove
    bool m_ended = false;
};

} // namespace flashdeck::expose

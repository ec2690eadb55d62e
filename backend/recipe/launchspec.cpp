#include "backend/recipe/launchspec.h"

#include "backend/core/shellquote.h"
#include "backend/recipe/recipe.h"

#include <QCoreApplication>
#include <QRandomGenerator>

namespace flashdeck::recipe {

namespace {

using nlohmann::json;

std::string s(const QString &v)
{
    return v.toStdString();
}

QString expandHome(const QString &path, const QString &home)
{
    return path.startsWith(QLatin1String("~/")) ? home + path.mid(1) : path;
}

/** "32g" → bytes, as the docker CLI parses --shm-size (binary units). */
qint64 parseSize(const QString &text)
{
    static const QString units = QStringLiteral("bkmgt");
    const QString t = text.trimmed().toLower();
    const int unit = t.isEmpty() ? -1 : int(units.indexOf(t.back()));
    bool ok = false;
    const qint64 n = (unit >= 0 ? t.chopped(1) : t).toLongLong(&ok);
    return ok ? n << (10 * std::max(unit, 0)) : -1;
}

/** The rules that hold before anything runs (see buildLaunch): the first one broken, else ok. */
Status checkLaunchable(const RecipeProfile &profile, const LaunchInputs &in)
{
    if (profile.generatorOnly() && !in.imported) {
        return Status::failure(QCoreApplication::translate("Recipe", "%1 has no launch in this recipe. %2")
                                   .arg(profile.title, profile.note));
    }
    if (profile.operatorFlagsRequired && in.operatorFlags.isEmpty() && !in.imported) {
        return Status::failure(QCoreApplication::translate(
                                   "Recipe", "%1 needs its extra flags, which the deployment page does not give. %2")
                                   .arg(profile.title, profile.note));
    }
    if (profile.vendor == probe::GpuVendor::Amd && profile.tp > 4) {
        return Status::failure(
            QCoreApplication::translate("Recipe",
                                        "TP %1 with the NVFP4 checkpoint on ROCm is refused: it runs only at "
                                        "TP 4 or lower. Use two TP 4 services behind the Router.")
                .arg(profile.tp));
    }
    if (in.exposePublicly && in.apiKey.isEmpty()) {
        return Status::failure(
            QCoreApplication::translate("Recipe", "Exposing the port beyond loopback needs an API key."));
    }
    if (!in.apiKey.isEmpty() && in.apiKey.size() < 43) { // 32 bytes in base64url at the least
        return Status::failure(
            QCoreApplication::translate("Recipe", "The API key is too short: use at least 32 random bytes."));
    }
    if (!in.imageDigest.startsWith(QLatin1String("sha256:")) || in.imageDigest.size() != 71) {
        return Status::failure(
            QCoreApplication::translate("Recipe", "The image is not pinned to a digest: run the pin step first."));
    }
    if (in.offlineModelDir.isEmpty() && in.modelSha.size() != 40) {
        return Status::failure(
            QCoreApplication::translate("Recipe",
                                        "The model revision is not pinned to a commit: run the pin step "
                                        "first."));
    }
    return Status::ok();
}

/** What every container of a launch shares: the pinned image, where it publishes, the host's caches. */
struct LaunchCommon
{
    QString image;
    QString bindIp;
    QString hfCache;
    QString minfer;
    bool nvidia = false;
};

/** One server container's parts: both the `docker run` line and the Engine API body are made of them. */
struct ServerParts
{
    QString name;
    quint16 port = 0;
    QStringList gpuIds;
    QStringList cmd;
    QStringList env;
    QStringList binds;
};

json stringArray(const QStringList &list)
{
    json out = json::array();
    for (const QString &item : list) {
        out.push_back(s(item));
    }
    return out;
}

/** The server's command: the generator's arguments or the profile's, with Flashdeck's own flags. */
QStringList serverCommand(const Recipe &recipe, const RecipeProfile &profile, const LaunchInputs &in,
                          const RecipeReplica &replica)
{
    QStringList cmd = in.imported
        ? in.imported->command.entrypoint().split(QLatin1Char(' '))
        : QStringList{QStringLiteral("python3"), QStringLiteral("-m"), QStringLiteral("sglang.launch_server")};
    if (in.offlineModelDir.isEmpty()) {
        cmd << QStringLiteral("--model-path") << recipe.modelRepo << QStringLiteral("--revision") << in.modelSha;
    } else {
        // Clients keep asking for the repo's name whichever folder the weights came from.
        cmd << QStringLiteral("--model-path")
            << QStringLiteral("/models/") + recipe.modelRepo.section(QLatin1Char('/'), -1)
            << QStringLiteral("--served-model-name") << recipe.modelRepo;
    }
    if (in.imported) {
        // The generator's arguments as given: none of the B300 baseline's (the page: do not
        // substitute them into it). Flashdeck's own flags only.
        cmd << QStringLiteral("--host") << QStringLiteral("0.0.0.0") << QStringLiteral("--port")
            << QString::number(replica.port);
        cmd += in.imported->serverArgs;
        if (!in.imported->serverArgs.contains(QStringLiteral("--enable-metrics"))) {
            cmd << QStringLiteral("--enable-metrics");
        }
    } else {
        cmd << QStringLiteral("--tp") << QString::number(profile.tp) << QStringLiteral("--host")
            << QStringLiteral("0.0.0.0") << QStringLiteral("--port") << QString::number(replica.port)
            << QStringLiteral("--mem-fraction-static") << QString::number(profile.memFractionStatic);
        cmd += profile.serverArgs;
        cmd += in.operatorFlags;
    }
    if (in.hicacheGbPerRank) {
        cmd << QStringLiteral("--enable-hierarchical-cache") << QStringLiteral("--hicache-size")
            << QString::number(*in.hicacheGbPerRank);
    }
    return cmd;
}

/** The parts of replica `r`'s server: its command, its environment and its mounts. */
ServerParts serverParts(const Recipe &recipe, const RecipeProfile &profile, const LaunchInputs &in,
                        const LaunchCommon &common, int r)
{
    const RecipeReplica &replica = profile.replicas.at(r);
    ServerParts server;
    server.port = replica.port;
    server.name = QStringLiteral("flashdeck-%1-%2").arg(in.deploymentId).arg(r);
    for (const int g : replica.gpus) {
        server.gpuIds.append(QString::number(g));
    }
    server.cmd = serverCommand(recipe, profile, in, replica);
    for (auto it = profile.env.begin(); it != profile.env.end() && !in.imported; ++it) {
        server.env.append(it.key() + QLatin1Char('=') + it.value());
    }
    if (in.imported) {
        server.env += in.imported->env;
    }
    server.binds = QStringList{common.hfCache + QStringLiteral(":/root/.cache/huggingface"),
                               common.minfer + QStringLiteral(":/root/.cache/minfer")};
    if (!in.offlineModelDir.isEmpty()) {
        server.env.append(QStringLiteral("HF_HUB_OFFLINE=1"));
        server.binds.append(in.offlineModelDir + QStringLiteral(":/models/") +
                            recipe.modelRepo.section(QLatin1Char('/'), -1) + QStringLiteral(":ro"));
    }
    if (!common.nvidia) {
        server.env.append(QStringLiteral("HIP_VISIBLE_DEVICES=") + server.gpuIds.join(QLatin1Char(',')));
    }
    return server;
}

/** docker run, argument for argument the same container. */
QStringList serverRunArgs(const RecipeProfile &profile, const LaunchInputs &in, const LaunchCommon &common,
                          const ServerParts &server)
{
    QStringList run{QStringLiteral("run"),     QStringLiteral("-d"),
                    QStringLiteral("--name"),  server.name,
                    QStringLiteral("--label"), QStringLiteral("io.flashdeck.deployment=") + in.deploymentId};
    if (common.nvidia) {
        run << QStringLiteral("--gpus") << QStringLiteral("\"device=%1\"").arg(server.gpuIds.join(QLatin1Char(',')));
    } else {
        run << QStringLiteral("--device=/dev/kfd") << QStringLiteral("--device=/dev/dri")
            << QStringLiteral("--group-add") << QStringLiteral("video");
    }
    run << QStringLiteral("--shm-size") << profile.shmSize << QStringLiteral("--ipc=") + profile.ipc
        << QStringLiteral("-p") << QStringLiteral("%1:%2:%2").arg(common.bindIp).arg(server.port);
    for (const QString &b : server.binds) {
        run << QStringLiteral("-v") << b;
    }
    for (const QString &e : server.env) {
        run << QStringLiteral("-e") << e;
    }
    if (!in.hfToken.isEmpty()) {
        run << QStringLiteral("-e") << QStringLiteral("HF_TOKEN"); // taken from the caller's environment
    }
    run << common.image;
    run += server.cmd;
    if (!in.apiKey.isEmpty()) {
        run << QStringLiteral("--api-key") << QStringLiteral("$FLASHDECK_API_KEY");
    }
    return run;
}

/** The Engine API's HostConfig of a server: mounts, the loopback (or public) port, shm, the GPUs. */
json serverHostConfig(const RecipeProfile &profile, const LaunchCommon &common, const ServerParts &server,
                      const std::string &portKey)
{
    json host = {
        {"Binds", stringArray(server.binds)},
        {"PortBindings", {{portKey, {{{"HostIp", s(common.bindIp)}, {"HostPort", std::to_string(server.port)}}}}}},
        {"ShmSize", parseSize(profile.shmSize)},
        {"IpcMode", s(profile.ipc)},
        {"NetworkMode", "bridge"},
        {"RestartPolicy", {{"Name", "no"}}}};
    if (common.nvidia) {
        host["DeviceRequests"] = {
            {{"Driver", ""}, {"Count", 0}, {"DeviceIDs", stringArray(server.gpuIds)}, {"Capabilities", {{"gpu"}}}}};
    } else {
        host["Devices"] = {{{"PathOnHost", "/dev/kfd"}, {"PathInContainer", "/dev/kfd"}, {"CgroupPermissions", "rwm"}},
                           {{"PathOnHost", "/dev/dri"}, {"PathInContainer", "/dev/dri"}, {"CgroupPermissions", "rwm"}}};
        host["GroupAdd"] = {"video"};
    }
    return host;
}

/** The Engine API body, as the docker CLI would send it for that command. */
json serverCreateBody(const RecipeProfile &profile, const LaunchInputs &in, const LaunchCommon &common,
                      const ServerParts &server)
{
    json cmdJson = stringArray(server.cmd);
    if (!in.apiKey.isEmpty()) {
        cmdJson.push_back("--api-key");
        cmdJson.push_back(s(in.apiKey));
    }
    json envJson = stringArray(server.env);
    if (!in.hfToken.isEmpty()) {
        envJson.push_back(s(QStringLiteral("HF_TOKEN=") + in.hfToken));
    }
    const std::string portKey = std::to_string(server.port) + "/tcp";
    return {{"Image", s(common.image)},
            {"Cmd", cmdJson},
            {"Env", envJson},
            {"Labels", {{"io.flashdeck.deployment", s(in.deploymentId)}, {"io.flashdeck.role", "server"}}},
            {"ExposedPorts", {{portKey, json::object()}}},
            {"Tty", false},
            {"AttachStdout", false},
            {"AttachStderr", false},
            {"HostConfig", serverHostConfig(profile, common, server, portKey)}};
}

ContainerSpec serverSpec(const Recipe &recipe, const RecipeProfile &profile, const LaunchInputs &in,
                         const LaunchCommon &common, int r)
{
    const ServerParts server = serverParts(recipe, profile, in, common, r);
    ContainerSpec spec;
    spec.role = QStringLiteral("server");
    spec.hostPort = server.port;
    spec.name = server.name;
    spec.dockerRunArgs = serverRunArgs(profile, in, common, server);
    spec.createBody = serverCreateBody(profile, in, common, server);
    return spec;
}

/**
 * The SGLang Router in front of the services (F37), on the host network so it reaches
 * their loopback ports; it listens on loopback itself (F16).
 */
ContainerSpec routerSpec(const RecipeProfile &profile, const LaunchInputs &in, const LaunchCommon &common)
{
    ContainerSpec router;
    router.role = QStringLiteral("router");
    router.hostPort = profile.routerPort;
    router.name = QStringLiteral("flashdeck-%1-router").arg(in.deploymentId);
    QStringList cmd{QStringLiteral("python3"), QStringLiteral("-m"), QStringLiteral("sglang_router.launch_router"),
                    QStringLiteral("--worker-urls")};
    for (const RecipeReplica &replica : profile.replicas) {
        cmd.append(QStringLiteral("http://127.0.0.1:%1").arg(replica.port));
    }
    cmd << QStringLiteral("--policy") << profile.routerPolicy << QStringLiteral("--host") << common.bindIp
        << QStringLiteral("--port") << QString::number(profile.routerPort);
    router.dockerRunArgs = QStringList{QStringLiteral("run"),
                                       QStringLiteral("-d"),
                                       QStringLiteral("--name"),
                                       router.name,
                                       QStringLiteral("--label"),
                                       QStringLiteral("io.flashdeck.deployment=") + in.deploymentId,
                                       QStringLiteral("--network"),
                                       QStringLiteral("host"),
                                       common.image} +
        cmd;
    router.createBody = {{"Image", s(common.image)},
                         {"Cmd", stringArray(cmd)},
                         {"Labels", {{"io.flashdeck.deployment", s(in.deploymentId)}, {"io.flashdeck.role", "router"}}},
                         {"Tty", false},
                         {"HostConfig", {{"NetworkMode", "host"}, {"RestartPolicy", {{"Name", "no"}}}}}};
    return router;
}

} // namespace

QString generateApiKey()
{
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), bytes.size() / 4);
    return QStringLiteral("sk-fd-") +
        QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString ContainerSpec::dockerRunLine() const
{
    QStringList words{QStringLiteral("docker")};
    for (const QString &a : dockerRunArgs) {
        // The key stays a variable expansion in double quotes; everything else is quoted.
        words.append(a.contains(QLatin1String("$FLASHDECK_API_KEY")) ? QStringLiteral("\"%1\"").arg(a)
                                                                     : QString::fromUtf8(shellQuote(a)));
    }
    return words.join(QLatin1Char(' '));
}

Result<QList<ContainerSpec>> buildLaunch(const Recipe &recipe, const RecipeProfile &profile, const LaunchInputs &in)
{
    if (const Status refused = checkLaunchable(profile, in); !refused) {
        return refused;
    }
    LaunchCommon common;
    common.image = recipe.imageOf(profile).reference() + QLatin1Char('@') + in.imageDigest;
    common.bindIp = in.exposePublicly ? QStringLiteral("0.0.0.0") : QStringLiteral("127.0.0.1");
    common.hfCache = expandHome(recipe.hfCache, in.hostHome);
    common.minfer = expandHome(recipe.minferCache, in.hostHome);
    common.nvidia = profile.vendor == probe::GpuVendor::Nvidia;

    QList<ContainerSpec> specs;
    for (int r = 0; r < profile.replicas.size(); ++r) {
        const RecipeReplica &replica = profile.replicas.at(r);
        if (replica.gpus.size() != profile.tp) {
            return Status::failure(
                QCoreApplication::translate("Recipe", "Replica %1 lists %2 GPUs for TP %3: give one GPU per rank.")
                    .arg(r)
                    .arg(replica.gpus.size())
                    .arg(profile.tp));
        }
        specs.append(serverSpec(recipe, profile, in, common, r));
    }
    if (profile.routerPort) {
        specs.append(routerSpec(profile, in, common));
    }
    return specs;
}

} // namespace flashdeck::recipe

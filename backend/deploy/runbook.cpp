#include "backend/deploy/runbook.h"

#include "backend/core/shellquote.h"
#include "backend/logs/logrules.h"
#include "backend/recipe/launchspec.h"
#include "backend/recipe/profilechoice.h"
#include "backend/recipe/recipe.h"

#include <QDateTime>

namespace flashdeck::deploy {

namespace {
QString q(const QString &s)
{
    return QString::fromUtf8(shellQuote(s));
}

/** `-e 'literal' …` for grep -F: the log rules' own strings, so the script sees what Flashdeck sees. */
QString greps(const logs::LogRules &rules, std::initializer_list<const char *> ids)
{
    QStringList out;
    for (const char *id : ids) {
        if (const logs::LogRule *rule = rules.rule(QLatin1String(id))) {
            for (const QByteArray &m : rule->match) {
                out << QStringLiteral("-e") << q(QString::fromUtf8(m));
            }
        }
    }
    return out.join(QLatin1Char(' '));
}

/** What the script says when its start prints no qmul4 line: never a guess at why (issue 41). */
QString qmul4NotPrinted(const std::optional<recipe::KernelVerdict> &earlier)
{
    if (!earlier) {
        return QStringLiteral("unknown: not printed by this start");
    }
    const QString date = QDateTime::fromString(earlier->seenAt, Qt::ISODate).date().toString(Qt::ISODate);
    return QStringLiteral("not printed by this start; %1 seen on %2 at the first start of this image and revision")
        .arg(earlier->fastPath() ? QStringLiteral("qmul4") : QStringLiteral("backend=") + earlier->backend, date);
}

/** The launch of the runbook's pins, as buildLaunch takes it (with the generator's command, if any). */
Result<recipe::LaunchInputs> launchInputs(const recipe::Recipe &recipe, const recipe::RecipeProfile &profile,
                                          const RunbookInputs &in)
{
    recipe::LaunchInputs launch;
    launch.deploymentId = in.deploymentId;
    launch.imageDigest = in.imageDigest;
    launch.modelSha = in.modelSha;
    launch.apiKey = recipe::generateApiKey(); // only to pass the checks: the script uses $FLASHDECK_API_KEY
    launch.hostHome = in.hostHome;
    launch.offlineModelDir = in.modelDir;
    if (!in.launchCommand.isEmpty()) {
        recipe::ImportContext context;
        context.vendor = profile.vendor;
        context.gpusPerService = int(profile.replicas.first().gpus.size());
        context.gpusFrom = QStringLiteral("the deployment");
        context.port = profile.replicas.first().port;
        context.offline = !in.modelDir.isEmpty();
        const Result<recipe::ImportedLaunch> imported = recipe::ImportedLaunch::make(in.launchCommand, recipe, context);
        if (!imported) {
            return imported.status();
        }
        launch.imported = imported.value();
    }
    return launch;
}

/** The launch with the pins as the script's variables, so an upgrade runs the same line with others. */
QString pinnedRunLine(const recipe::ContainerSpec &spec, const recipe::Recipe &recipe,
                      const recipe::RecipeProfile &profile, const RunbookInputs &in)
{
    QString line = spec.dockerRunLine();
    line.replace(QLatin1Char(' ') + q(recipe.imageOf(profile).reference() + QLatin1Char('@') + in.imageDigest) +
                     QLatin1Char(' '),
                 QStringLiteral(" \"$IMAGE\" "));
    if (!in.modelSha.isEmpty()) {
        line.replace(QStringLiteral(" --revision ") + q(in.modelSha) + QLatin1Char(' '),
                     QStringLiteral(" --revision \"$REVISION\" "));
    }
    return line;
}

/** The comments that say what the script is, its pins and how to run it. */
void appendHeader(QStringList &s, const recipe::Recipe &recipe, const recipe::RecipeProfile &profile,
                  const RunbookInputs &in)
{
    s << QStringLiteral("#!/bin/sh")
      << QStringLiteral("# Flashdeck runbook: %1, profile %2 (%3), host %4.")
             .arg(recipe.title, profile.id, profile.status, in.hostName)
      << QStringLiteral("# Generated %1. Reproduces the deployment without Flashdeck; run it on the GPU host.")
             .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate))
      << QStringLiteral(
             "# The API key comes from FLASHDECK_API_KEY (at least 32 random bytes) and is never written here.")
      << QStringLiteral("# Licence: %1. Read it before production or commercial use.").arg(recipe.licenseName)
      << QStringLiteral("#")
      << QStringLiteral("# Pins (what 'flashdeck pins %1' prints): image %2, model revision %3, profile %4.")
             .arg(in.hostName, recipe.imageOf(profile).reference() + QLatin1Char('@') + in.imageDigest,
                  in.modelSha.isEmpty() ? QStringLiteral("(the folder's)") : in.modelSha, profile.id)
      << QStringLiteral(
             "#   sh runbook.sh                            deploy these pins (again: it replaces the server)")
      << QStringLiteral(
             "#   sh runbook.sh upgrade sha256:D [COMMIT]  the same steps with a new image digest (and model")
      << QStringLiteral(
             "#                                            commit); any failed step rolls back to these pins")
      << QStringLiteral(
             "#   sh runbook.sh rollback                   these pins again, verified (after a failed upgrade)")
      << QStringLiteral("# The old image stays on the host for the rollback: 'docker image rm' it once you are sure.");
}

/** The pins as variables, the mode (deploy, upgrade, rollback) and the step and fail functions. */
void appendSetup(QStringList &s, const RunbookInputs &in, const QString &image, const QString &name, quint16 port)
{
    const bool offline = !in.modelDir.isEmpty();
    s << QStringLiteral("set -eu")
      << QStringLiteral(
             ": \"${FLASHDECK_API_KEY:?set FLASHDECK_API_KEY to the server key (e.g. openssl rand -base64 32)}\"")
      << QStringLiteral("IMAGE=%1").arg(q(image)) << QStringLiteral("REVISION=%1").arg(q(in.modelSha))
      << (offline ? QStringLiteral("MODEL_DIR=%1").arg(q(in.modelDir)) : QString())
      << QStringLiteral("NAME=%1").arg(q(name)) << QStringLiteral("PORT=%1").arg(port) << QString()
      << QStringLiteral("MODE=${1:-deploy}") << QStringLiteral("case \"$MODE\" in")
      << QStringLiteral("deploy | rollback) ;;") << QStringLiteral("upgrade)")
      << QStringLiteral("  [ $# -ge 2 ] || { echo \"usage: sh $0 upgrade sha256:DIGEST [COMMIT]\" >&2; exit 2; }")
      << QStringLiteral("  IMAGE=\"${IMAGE%@*}@$2\"; REVISION=${3:-$REVISION} ;;")
      << QStringLiteral("*) echo \"usage: sh $0 [deploy | upgrade sha256:DIGEST [COMMIT] | rollback]\" >&2; exit 2 ;;")
      << QStringLiteral("esac") << QString() << QStringLiteral("step() { printf '\\n== %s\\n' \"$1\"; }")
      << QStringLiteral("# In an upgrade, a failed step runs this script again with its own pins: the rollback.")
      << QStringLiteral("fail() {") << QStringLiteral("  printf 'FAIL: %s\\n' \"$1\" >&2")
      << QStringLiteral("  [ \"$MODE\" = upgrade ] || exit 1")
      << QStringLiteral("  printf '\\n== rollback to %s\\n' %1").arg(q(image))
      << QStringLiteral("  if sh \"$0\" rollback; then echo 'The upgrade failed; the host runs the old pins again, "
                        "verified.' >&2; else echo 'The upgrade failed and so did the rollback.' >&2; fi")
      << QStringLiteral("  exit 1") << QStringLiteral("}") << QString();
}

/** preflight.driver and preflight.disk. */
void appendPreflight(QStringList &s, const recipe::Recipe &recipe, bool offline)
{
    const qint64 needBytes = (offline ? 0 : recipe.weightsBytes) + recipe.imageApproxBytes;
    s << QStringLiteral("step 'preflight.driver: the driver supports CUDA %1 or newer'").arg(recipe.cudaRuntime)
      << QStringLiteral(
             "cuda=$(nvidia-smi -q -x | sed -n 's:.*<cuda_version>\\(.*\\)</cuda_version>.*:\\1:p' | head -n 1)")
      << QStringLiteral("echo \"driver CUDA: $cuda (expected >= %1)\"").arg(recipe.cudaRuntime)
      << QStringLiteral(
             "echo \"$cuda\" | awk -F. '{ exit !($1 > %1 || ($1 == %1 && $2 >= %2)) }' || fail \"CUDA $cuda is older "
             "than %3: update the driver\"")
             .arg(recipe.cudaRuntime.section(QLatin1Char('.'), 0, 0),
                  recipe.cudaRuntime.section(QLatin1Char('.'), 1, 1), recipe.cudaRuntime)
      << QString();
    s << (offline ? QStringLiteral("step 'preflight.disk: at least %1 bytes free for the image (the weights are in "
                                   "the model folder)'")
                  : QStringLiteral("step 'preflight.disk: at least %1 bytes free for the weights and the image'"))
             .arg(needBytes)
      << QStringLiteral("mkdir -p \"$HOME/.cache/huggingface\" \"$HOME/.cache/minfer\"")
      << QStringLiteral(
             "avail=$(df -B1 --output=avail,target \"$HOME/.cache/huggingface\" | tail -n 1 | awk '{ print $1 }')")
      << QStringLiteral("echo \"free: $avail bytes\"")
      << QStringLiteral("[ \"$avail\" -ge %1 ] || fail \"not enough free disk\"").arg(needBytes) << QString();
}

/** pin.model: the offline folder's files and revision, or the revision on the Hub. */
void appendModelPin(QStringList &s, const recipe::Recipe &recipe, const RunbookInputs &in)
{
    if (!in.modelDir.isEmpty()) {
        // F27: the folder is the pin; hf download recorded the commit of every file it wrote.
        s << QStringLiteral("step 'pin.model: %1 holds revision %2 and the %3/ draft'")
                 .arg(QStringLiteral("the model folder"), in.modelSha, recipe.draftSubfolder)
          << QStringLiteral("[ -f \"$MODEL_DIR/config.json\" ] || fail \"no config.json in $MODEL_DIR\"")
          << QStringLiteral(
                 "[ -f \"$MODEL_DIR/model.safetensors.index.json\" ] || fail \"no shard index in $MODEL_DIR\"")
          << QStringLiteral("[ -f \"$MODEL_DIR/%1/config.json\" ] || fail 'no DSpark draft in the folder'")
                 .arg(recipe.draftSubfolder);
        if (!in.modelSha.isEmpty()) {
            s << QStringLiteral("[ \"$(head -n 1 \"$MODEL_DIR/.cache/huggingface/download/config.json.metadata\")\" = "
                                "\"$REVISION\" ] || fail \"the folder does not hold revision $REVISION\"");
        }
        s << QString();
    } else {
        s << QStringLiteral("step \"pin.model: the revision is $REVISION\"")
          << QStringLiteral(
                 "curl -fsS \"${HF_ENDPOINT:-https://huggingface.co}/api/models/%1/revision/$REVISION\" | grep -q "
                 "\"\\\"sha\\\":\\\"$REVISION\\\"\" || fail \"the Hub does not know revision $REVISION\"")
                 .arg(recipe.modelRepo)
          << QString();
    }
}

/** pull, verify.gpus, launch and ready: the pinned image runs and answers. */
void appendLaunch(QStringList &s, const recipe::RecipeProfile &profile, const QString &runLine)
{
    QStringList gpuIds;
    for (const int g : profile.replicas.first().gpus) {
        gpuIds.append(QString::number(g));
    }
    s << QStringLiteral("step 'pull: the pinned image; RepoDigests must hold the digest'")
      << QStringLiteral("docker pull \"$IMAGE\"")
      << QStringLiteral(
             "docker image inspect --format '{{json .RepoDigests}}' \"$IMAGE\" | grep -qF \"${IMAGE#*@}\" || fail "
             "\"RepoDigests lacks the pin\"")
      << QString();
    s << QStringLiteral("step 'verify.gpus: the image sees %1 x %2'").arg(profile.tp).arg(profile.gpuModel)
      << QStringLiteral("n=$(docker run --rm --gpus %1 \"$IMAGE\" nvidia-smi -L | grep -c %2 || true)")
             .arg(q(QStringLiteral("\"device=%1\"").arg(gpuIds.join(QLatin1Char(',')))), q(profile.gpuModel))
      << QStringLiteral("[ \"$n\" -eq %1 ] || fail \"the image sees $n %2 GPUs\"").arg(profile.tp).arg(profile.gpuModel)
      << QString();
    s << QStringLiteral("step 'launch: loopback only, the key from the environment'")
      << QStringLiteral("docker rm -f \"$NAME\" >/dev/null 2>&1 || true") << runLine << QString();
    s << QStringLiteral("step 'ready: /health answers 200 (a first start can take long)'") << QStringLiteral("i=0")
      << QStringLiteral(
             "until [ \"$(curl -s -o /dev/null -w '%{http_code}' \"http://127.0.0.1:$PORT/health\")\" = 200 ]; do")
      << QStringLiteral(
             "  [ \"$(docker inspect -f '{{.State.Running}}' \"$NAME\")\" = true ] || { docker logs --tail 20 "
             "\"$NAME\"; fail 'the server exited'; }")
      << QStringLiteral("  i=$((i + 1)); [ \"$i\" -lt 4800 ] || fail 'not ready after 40 minutes'; sleep 0.5")
      << QStringLiteral("done") << QString();
}

/** check.qmul4, check.dspark and check.kvpool: the log lines Flashdeck's own checks read. */
void appendLogChecks(QStringList &s, const logs::LogRules &rules, const recipe::RecipeProfile &profile,
                     const RunbookInputs &in)
{
    s << QStringLiteral("step 'check.qmul4: expected nvfp4_to_fp8 backend=qmul4'")
      << QStringLiteral("docker logs \"$NAME\" 2>&1 | grep -F %1 || echo %2")
             .arg(greps(rules, {"qmul4-ok", "qmul4-fallback"}), q(qmul4NotPrinted(in.qmul4Seen)))
      << QStringLiteral("step 'check.dspark: expected a DSpark draft line'")
      << QStringLiteral("docker logs \"$NAME\" 2>&1 | grep -F %1 || echo 'WARN: no DSpark line'")
             .arg(greps(rules, {"dspark-ok"}))
      << QStringLiteral("step 'check.kvpool: expected about %1 tokens'").arg(profile.kvTokensExpected)
      << QStringLiteral("docker logs \"$NAME\" 2>&1 | grep -F %1 || echo 'unknown: no KV pool line'")
             .arg(greps(rules, {"kv-pool"}))
      << QString();
}

/** verify.text and verify.thinking: the chat API answers with the key, thinking on and off. */
void appendVerify(QStringList &s, const recipe::Recipe &recipe)
{
    // A reasoning model thinks first: a budget it finishes its thought in (64 ended inside it).
    const QString body = QStringLiteral(
        R"({"model":"%1","messages":[{"role":"user","content":"Reply with one short sentence."}],"max_tokens":2048%2})");
    s << QStringLiteral("step 'verify.text: a non-empty content'")
      << QStringLiteral(
             "curl -fsS \"http://127.0.0.1:$PORT/v1/chat/completions\" -H \"Authorization: Bearer "
             "$FLASHDECK_API_KEY\" -H 'Content-Type: application/json' -d %1 | grep -q '\"content\":\"[^\"]' || "
             "fail 'no content'")
             .arg(q(body.arg(recipe.modelRepo, QString())))
      << QStringLiteral("step 'verify.thinking: thinking off gives content and no reasoning_content'")
      << QStringLiteral("out=$(curl -fsS \"http://127.0.0.1:$PORT/v1/chat/completions\" -H \"Authorization: Bearer "
                        "$FLASHDECK_API_KEY\" -H 'Content-Type: application/json' -d %1)")
             .arg(q(
                 body.arg(recipe.modelRepo, QStringLiteral(R"(,"chat_template_kwargs":{"thinking_mode":"disabled"})"))))
      << QStringLiteral("echo \"$out\" | grep -q '\"content\":\"[^\"]' || fail 'no content'")
      << QStringLiteral(
             "echo \"$out\" | grep -q '\"reasoning_content\":\"[^\"]' && fail 'reasoning_content with thinking off'")
      << QStringLiteral("printf '\\nDeployed: %s on 127.0.0.1:%s\\n' \"$IMAGE\" \"$PORT\"");
}

} // namespace

Result<QString> buildRunbook(const recipe::Recipe &recipe, const recipe::RecipeProfile &profile,
                             const RunbookInputs &in)
{
    const Result<logs::LogRules> rules = logs::LogRules::builtIn();
    if (!rules) {
        return rules.status();
    }
    if (profile.vendor != probe::GpuVendor::Nvidia || profile.replicas.size() != 1) {
        return Status::failure(
            QStringLiteral("The runbook covers single-service NVIDIA profiles; %1 is not one yet.").arg(profile.id));
    }
    const Result<recipe::LaunchInputs> launch = launchInputs(recipe, profile, in);
    if (!launch) {
        return launch.status();
    }
    const Result<QList<recipe::ContainerSpec>> specs = recipe::buildLaunch(recipe, profile, launch.value());
    if (!specs) {
        return specs.status();
    }
    const recipe::ContainerSpec &spec = specs.value().first();
    const QString image = recipe.imageOf(profile).name + QLatin1Char('@') + in.imageDigest;
    QStringList s;
    appendHeader(s, recipe, profile, in);
    appendSetup(s, in, image, spec.name, profile.replicas.first().port);
    appendPreflight(s, recipe, !in.modelDir.isEmpty());
    appendModelPin(s, recipe, in);
    appendLaunch(s, profile, pinnedRunLine(spec, recipe, profile, in));
    appendLogChecks(s, rules.value(), profile, in);
    appendVerify(s, recipe);
    return QString(s.join(QLatin1Char('\n')) + QLatin1Char('\n'));
}

Result<QString> runbookFromManifest(const recipe::Recipe &recipe, const QString &hostName,
                                    const Result<recipe::Deployment> &deployment, const QString &profileId)
{
    const recipe::Deployment d = deployment ? deployment.value() : recipe::Deployment();
    // An offline folder without hf download metadata has no sha (pin.model warned): it is the pin.
    if (d.imageDigest.isEmpty() || (d.modelSha.isEmpty() && d.modelDir.isEmpty()) || d.hostHome.isEmpty()) {
        return Status::failure(QStringLiteral("No pinned deployment of %1 yet: deploy it first (the runbook "
                                              "reproduces its pins).")
                                   .arg(hostName));
    }
    const Result<recipe::RecipeProfile> ran = recipe::ProfileChoice::asDeployed(recipe, d, profileId);
    if (!ran) {
        return ran.status();
    }
    return buildRunbook(recipe, ran.value(),
                        {hostName, recipe::DeploymentId(hostName, ran.value().id).toString(), d.imageDigest, d.modelSha,
                         d.hostHome, d.modelDir, d.launchCommand, d.qmul4VerdictOf(d.imageDigest, d.modelSha)});
}

} // namespace flashdeck::deploy

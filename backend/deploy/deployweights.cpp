// The weights: where they come from (the Hub, an offline folder F27, a ModelScope folder F28),
// the folder's verification, and the model pin. Part of DeployRunner (deployrunner.h).

#include "backend/core/format.h"
#include "backend/core/jsonread.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/weightsfolder.h"
#include "backend/ssh/hostconnection.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

namespace flashdeck::deploy {

namespace {

using nlohmann::json;

constexpr int kListingTimeoutMs = 5 * 60 * 1000;
// sha256 of 252 GB at the ~1 GB/s one core hashes: minutes, and slower on network storage.
constexpr int kChecksumTimeoutMs = 4 * 60 * 60 * 1000;

} // namespace

QString DeployRunner::wantedRevision() const
{
    return m_options.modelRevision.isEmpty() ? m_recipe.modelRevision : m_options.modelRevision;
}

QString DeployRunner::modelFolder() const
{
    return m_folder && m_options.modelSource != QLatin1String("hub") ? m_folder->resolvedPath() : QString();
}

QString DeployRunner::hostDestination() const
{
    const ssh::SshTarget &t = m_conn.target();
    return t.user.isEmpty() ? t.host : t.user + QLatin1Char('@') + t.host;
}

void DeployRunner::preflightWeights()
{
    if (m_options.modelSource == QLatin1String("hub")) {
        skip(QCoreApplication::translate(
            "Deploy",
            "The weights come from the Hub at the pinned revision: the server downloads them into "
            "~/.cache/huggingface."));
        return;
    }
    const bool modelscope = m_options.modelSource == QLatin1String("modelscope");
    const QByteArray cmd = WeightsFolder::listingCommand(m_options.modelDir, m_options.verifyChecksums);
    begin(
        modelscope
            ? QCoreApplication::translate("Deploy", "A ModelScope copy is used only after its files are verified")
            : QCoreApplication::translate("Deploy", "SGLang loads every shard and the dspark/ draft from this folder"),
        QString::fromUtf8(cmd));
    if (m_options.modelDir.isEmpty()) {
        fail(QCoreApplication::translate("Deploy", "no folder was given"),
             QCoreApplication::translate("Deploy", "Name the folder on the host with --model-dir."));
        return;
    }
    runCommand(
        cmd,
        [this, modelscope](const ssh::CommandResult &res) {
            auto folder = std::make_unique<WeightsFolder>();
            QString error;
            if (!res.succeeded() || !folder->parse(res.stdoutData, &error)) {
                fail(error.isEmpty() ? commandProblem(res) : error,
                     QCoreApplication::translate(
                         "Deploy",
                         "Check that the folder is readable by the SSH user and not being written, then "
                         "run again."));
                return;
            }
            const WeightsFolder::Verdict v = folder->verify(m_recipe.draftSubfolder);
            recipe::StepRecord r = m_current;
            r.expected = QCoreApplication::translate(
                             "Deploy",
                             "config.json, every shard model.safetensors.index.json names, complete, and "
                             "the %1/ draft")
                             .arg(m_recipe.draftSubfolder);
            if (!folder->exists()) {
                r.status = recipe::StepStatus::Fail;
                r.seen = QCoreApplication::translate("Deploy", "%1: there is no folder there (or it cannot be entered)")
                             .arg(m_options.modelDir);
            } else if (!v.ok()) {
                r.status = recipe::StepStatus::Fail;
                r.seen = QStringLiteral("%1: %2").arg(folder->resolvedPath(), v.problems.join(QStringLiteral("; ")));
            } else {
                r.status = recipe::StepStatus::Pass;
                QStringList seen{
                    QCoreApplication::translate("Deploy", "%1: %2 shards and the %3/ draft, complete; %4 in %5 files")
                        .arg(folder->resolvedPath())
                        .arg(v.shards)
                        .arg(m_recipe.draftSubfolder, fmt::bytes(v.bytes))
                        .arg(folder->sizes().size())};
                if (!v.revision.isEmpty()) {
                    seen.append(
                        QCoreApplication::translate("Deploy", "hf download recorded revision %1").arg(v.revision));
                }
                QStringList notes = v.notes;
                if (modelscope) { // a ModelScope download never has hf metadata: pin.model checks it instead
                    notes.removeIf([](const QString &n) { return n.contains(QLatin1String("hf download metadata")); });
                }
                seen += notes;
                r.seen = seen.join(QStringLiteral("; "));
            }
            if (r.status == recipe::StepStatus::Fail) {
                const QStringList commands = modelscope
                    ? QStringList{WeightsFolder::modelscopeCommand(m_recipe.modelscopeMirror, m_options.modelDir)}
                    : WeightsFolder::offlineCommands(m_recipe.modelRepo,
                                                     v.revision.isEmpty() ? wantedRevision() : v.revision,
                                                     m_options.modelDir, hostDestination());
                r.fix = QCoreApplication::translate(
                            "Deploy",
                            "Check free disk on the host, then download the revision again into the same "
                            "folder: an interrupted download resumes. On a connected machine: %1")
                            .arg(commands.join(QStringLiteral("  then  ")));
            }
            m_folder = std::move(folder);
            finish(r);
        },
        m_options.verifyChecksums ? kChecksumTimeoutMs : kListingTimeoutMs);
}

void DeployRunner::pinModel()
{
    if (m_options.modelSource == QLatin1String("offline")) {
        pinModelFromFolder();
        return;
    }
    const bool modelscope = m_options.modelSource == QLatin1String("modelscope");
    const QByteArray base =
        "curl -fsS \"${HF_ENDPOINT:-https://huggingface.co}/api/models/" + m_recipe.modelRepo.toUtf8();
    const QByteArray cmd = base + "/revision/" + wantedRevision().toUtf8() + '"';
    begin(modelscope ? QCoreApplication::translate(
                           "Deploy", "Pin the revision, then check the ModelScope copy against it file by file")
                     : QString(),
          QString::fromUtf8(cmd));
    runCommand(cmd, [this, modelscope, base](const ssh::CommandResult &res) {
        const json answer =
            jsonread::parse(res.stdoutData.constData(), res.stdoutData.constData() + res.stdoutData.size());
        const QString sha = answer.is_object() && answer.value("sha", json()).is_string()
            ? QString::fromStdString(answer["sha"].get<std::string>())
            : QString();
        if (refusedPin(res, sha, modelscope)) {
            return;
        }
        m_modelSha = sha;
        if (!modelscope) {
            recipe::StepRecord r = m_current;
            r.status = recipe::StepStatus::Pass;
            r.expected = QCoreApplication::translate("Deploy", "a 40-hex commit");
            r.seen = QStringLiteral("%1@%2 → %3").arg(m_recipe.modelRepo, wantedRevision(), sha);
            finish(r);
            return;
        }
        compareModelScope(base, sha);
    });
}

bool DeployRunner::refusedPin(const ssh::CommandResult &res, const QString &sha, bool modelscope)
{
    const bool chosen = !m_options.modelRevision.isEmpty();
    if (res.succeeded() && sha.size() == 40 && chosen && sha != m_options.modelRevision) {
        fail(QCoreApplication::translate("Deploy", "the Hub answered revision %1 with commit %2")
                 .arg(m_options.modelRevision, sha),
             QCoreApplication::translate(
                 "Deploy", "Give the full 40-character commit id ('flashdeck pins HOST' shows what a host runs)."),
             QStringLiteral("commit %1").arg(m_options.modelRevision));
        return true;
    }
    if (chosen && !res.error.isError() && res.exitCode == 22) {
        // curl -f: the Hub answered an error status; for a commit it does not know, 404.
        fail(QCoreApplication::translate("Deploy", "the Hub has no revision %1 of %2 (%3)")
                 .arg(m_options.modelRevision, m_recipe.modelRepo, commandProblem(res)),
             QCoreApplication::translate(
                 "Deploy",
                 "Check the commit id ('flashdeck pins HOST' shows what a host runs; the model's "
                 "history on the Hub lists the others)."),
             QStringLiteral("commit %1").arg(m_options.modelRevision));
        return true;
    }
    if (!res.succeeded() || sha.size() != 40) {
        fail(QStringLiteral("curl exited with %1: %2").arg(res.exitCode.value_or(-1)).arg(commandProblem(res)),
             modelscope
                 ? QCoreApplication::translate("Deploy",
                                               "A ModelScope copy is accepted only after comparing it with the pinned "
                                               "Hugging Face revision, which needs the Hub's file list: give the "
                                               "host access to the Hub (or HF_ENDPOINT to a mirror), or deploy offline "
                                               "from an hf download folder.")
                 : QCoreApplication::translate(
                       "Deploy",
                       "Check the host's access to the Hugging Face Hub, or deploy offline from a "
                       "pre-downloaded revision."));
        return true;
    }
    return false;
}

void DeployRunner::compareModelScope(const QByteArray &base, const QString &sha)
{
    // F28: the mirror is not published under the Hub's commit id; its files must match it.
    const QByteArray tree = base + "/tree/" + sha.toUtf8() + "?recursive=true\"";
    m_current.command += QLatin1Char('\n') + QString::fromUtf8(tree);
    runCommand(tree, [this, sha](const ssh::CommandResult &listing) {
        recipe::StepRecord r = m_current;
        r.expected =
            QCoreApplication::translate("Deploy", "every file of %1@%2 in the ModelScope folder, same size%3")
                .arg(m_recipe.modelRepo, sha,
                     m_options.verifyChecksums ? QCoreApplication::translate("Deploy", " and sha256") : QString());
        if (!listing.succeeded() || !m_folder) {
            fail(QCoreApplication::translate("Deploy", "the Hub's file list could not be read: %1")
                     .arg(commandProblem(listing)),
                 QCoreApplication::translate(
                     "Deploy",
                     "Give the host access to the Hub (checking a ModelScope copy needs the pinned "
                     "revision's file list), then run again."),
                 r.expected);
            return;
        }
        WeightsFolder::Verdict v;
        m_folder->compareWithTree(listing.stdoutData, &v);
        r.status = v.ok() ? recipe::StepStatus::Pass : recipe::StepStatus::Fail;
        r.seen = QStringLiteral("%1 → %2; %3")
                     .arg(wantedRevision(), sha, (v.ok() ? v.notes : v.problems).join(QStringLiteral("; ")));
        if (!v.ok()) {
            r.fix =
                QCoreApplication::translate("Deploy",
                                            "The ModelScope copy is not the pinned revision: deploy from the Hub, or "
                                            "from an offline folder of revision %1: %2")
                    .arg(sha,
                         WeightsFolder::offlineCommands(m_recipe.modelRepo, sha, m_options.modelDir, hostDestination())
                             .mid(1)
                             .join(QStringLiteral("  then  ")));
        }
        finish(r);
    });
}

void DeployRunner::pinModelFromFolder()
{
    begin(QCoreApplication::translate("Deploy", "The offline folder is the pin; hf download records its commit"),
          QStringLiteral("head -n 1 .cache/huggingface/download/*.metadata (in the folder)"));
    recipe::StepRecord r = m_current;
    const WeightsFolder::Verdict v = m_folder ? m_folder->verify(m_recipe.draftSubfolder) : WeightsFolder::Verdict{};
    const bool pinnedSha = wantedRevision().size() == 40;
    r.expected = pinnedSha ? QStringLiteral("revision %1").arg(wantedRevision())
                           : QCoreApplication::translate("Deploy", "one 40-hex commit recorded by hf download");
    if (v.revision.isEmpty()) {
        r.status = recipe::StepStatus::Warn;
        r.seen = QCoreApplication::translate(
            "Deploy", "the folder does not record which revision it holds (no hf download metadata)");
        r.fix = QCoreApplication::translate("Deploy", "To pin it, download with the revision into the folder: %1")
                    .arg(WeightsFolder::offlineCommands(m_recipe.modelRepo, wantedRevision(), m_options.modelDir,
                                                        hostDestination())
                             .at(1));
    } else if (pinnedSha && v.revision != wantedRevision()) {
        r.status = recipe::StepStatus::Fail;
        r.seen = QCoreApplication::translate("Deploy", "the folder holds revision %1").arg(v.revision);
        r.fix = QCoreApplication::translate("Deploy", "Download revision %1 into the folder.").arg(wantedRevision());
    } else {
        m_modelSha = v.revision;
        r.status = recipe::StepStatus::Pass;
        r.seen = QCoreApplication::translate("Deploy", "%1 holds %2@%3 (hf download metadata)")
                     .arg(m_folder->resolvedPath(), m_recipe.modelRepo, v.revision);
    }
    finish(r);
}

} // namespace flashdeck::deploy

#include "backend/deploy/checks.h"

#include "backend/core/format.h"
#include "backend/probe/hostfacts.h"
#include "backend/probe/nvidiasmi.h"
#include "backend/recipe/recipe.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace flashdeck::deploy::checks {

namespace {

QString gib(qint64 mib)
{
    return fmt::gibExact(double(mib));
}

/** Whose the processes on the GPUs are, for preflight.gpumemory (see gpuMemory in checks.h). */
struct ProcessOwners
{
    const QHash<qint64, QString> &owners;
    const QString &deploymentId;
    const QList<probe::RocmSmiProcess> &unplaced;
    const QSet<int> &ownGpus;
};

/** What preflight.gpumemory finds, GPU by GPU. */
struct MemoryFindings
{
    QStringList tight; // the GPUs short of memory, with what holds it
    QStringList flashdeck; // Flashdeck's other deployments in the way
    bool foreign = false; // a process that is not Flashdeck's in the way
    qint64 needed = 0;
    QStringList somewhere; // the processes rocm-smi names on no GPU (unplacedHolders)
    QStringList unlistedOwn; // GPUs whose memory only our own running server can hold
};

/** rocm-smi says how many GPUs a process uses, not which: named beside a short GPU that lists none of its own. */
QStringList unplacedHolders(const ProcessOwners &o)
{
    QStringList somewhere;
    for (const probe::RocmSmiProcess &p : o.unplaced) {
        const QString owner = o.owners.value(p.process.pid);
        if (owner.isEmpty() || owner != o.deploymentId) {
            somewhere.append(
                QCoreApplication::translate("Deploy",
                                            "pid %1 (%2) holds %3 on GPUs rocm-smi does not name (%4 of them)")
                    .arg(p.process.pid)
                    .arg(owner.isEmpty() ? p.process.name
                                         : QCoreApplication::translate("Deploy", "%1, Flashdeck's deployment %2")
                                               .arg(p.process.name, owner),
                         gib(p.process.usedMemoryMiB))
                    .arg(p.gpuCount));
        }
    }
    return somewhere;
}

/** The memory of `gpu` our own processes hold; the others are named in `holders`. */
qint64 ownMemory(const probe::NvidiaGpu &gpu, const ProcessOwners &o, MemoryFindings &f, QStringList &holders)
{
    qint64 ours = 0;
    for (const probe::GpuProcess &p : gpu.processes) {
        const QString owner = o.owners.value(p.pid);
        if (!owner.isEmpty() && owner == o.deploymentId) {
            ours += p.usedMemoryMiB;
            continue;
        }
        if (owner.isEmpty()) {
            f.foreign = true;
            holders.append(QCoreApplication::translate("Deploy", "pid %1 (%2) holds %3")
                               .arg(p.pid)
                               .arg(p.name, gib(p.usedMemoryMiB)));
        } else {
            if (!f.flashdeck.contains(owner)) {
                f.flashdeck.append(owner);
            }
            holders.append(QCoreApplication::translate("Deploy", "pid %1 (%2, Flashdeck's deployment %3) holds %4")
                               .arg(p.pid)
                               .arg(p.name, owner, gib(p.usedMemoryMiB)));
        }
    }
    return ours;
}

/** GPU `index` has room for the server, or is tight (with what holds its memory). */
void judgeGpu(int index, const probe::NvidiaGpu &gpu, double memFraction, const ProcessOwners &o, MemoryFindings &f)
{
    QStringList holders;
    qint64 ours = ownMemory(gpu, o, f, holders);
    if (gpu.processes.isEmpty() && o.unplaced.isEmpty() && gpu.memoryUsedMiB > 0 &&
        (o.ownGpus.contains(index) || o.ownGpus.contains(-1))) {
        // nvidia-smi names no holder (it cannot see into containers in some setups), and
        // this deployment's server runs on this GPU: the memory is the server's own.
        ours = gpu.memoryUsedMiB;
        f.unlistedOwn.append(QString::number(index));
    }
    const qint64 need = qint64(memFraction * double(gpu.memoryTotalMiB));
    const qint64 free = gpu.memoryTotalMiB - gpu.memoryUsedMiB + ours;
    f.needed = std::max(f.needed, need);
    if (free < need && gpu.processes.isEmpty() && !f.somewhere.isEmpty()) {
        holders = f.somewhere;
        for (const probe::RocmSmiProcess &p : o.unplaced) {
            const QString owner = o.owners.value(p.process.pid);
            f.foreign = f.foreign || owner.isEmpty();
            if (!owner.isEmpty() && owner != o.deploymentId && !f.flashdeck.contains(owner)) {
                f.flashdeck.append(owner);
            }
        }
    }
    if (free < need) {
        f.tight.append(
            QCoreApplication::translate("Deploy", "GPU %1: %2 free of %3, the server needs %4%5")
                .arg(index)
                .arg(gib(free), gib(gpu.memoryTotalMiB), gib(need),
                     holders.isEmpty() ? QString() : QStringLiteral("; ") + holders.join(QStringLiteral(", "))));
    }
}

} // namespace

recipe::StepRecord record(const char *step, const QString &why)
{
    recipe::StepRecord r;
    r.step = QString::fromLatin1(step);
    r.why = why;
    return r;
}

recipe::StepRecord gpus(const recipe::RecipeProfile &profile, const QStringList &names)
{
    recipe::StepRecord r = record(
        "preflight.gpus",
        QCoreApplication::translate("Deploy", "The profile needs %1 × %2").arg(profile.gpuCount).arg(profile.gpuModel));
    r.expected = QStringLiteral("%1 × %2").arg(profile.gpuCount).arg(profile.gpuModel);
    int matching = 0;
    for (const QString &n : names) {
        matching += n.contains(profile.gpuModel, Qt::CaseInsensitive) ? 1 : 0;
    }
    QStringList distinct = names;
    distinct.removeDuplicates();
    r.seen = names.isEmpty() ? QStringLiteral("no GPU")
                             : QStringLiteral("%1 × %2").arg(names.size()).arg(distinct.join(QStringLiteral(", ")));
    if (matching >= profile.gpuCount) {
        r.status = recipe::StepStatus::Pass;
    } else {
        r.status = recipe::StepStatus::Fail;
        r.fix = QCoreApplication::translate(
                    "Deploy",
                    "Choose the profile for this host's GPUs (flashdeck recipes list), or deploy on a host "
                    "with %1 × %2.")
                    .arg(profile.gpuCount)
                    .arg(profile.gpuModel);
    }
    return r;
}

recipe::StepRecord driver(const recipe::Recipe &recipe, const probe::NvidiaDriver &d)
{
    recipe::StepRecord r = record(
        "preflight.driver",
        QCoreApplication::translate("Deploy", "The pinned image needs the CUDA %1 runtime").arg(recipe.cudaRuntime));
    r.expected = QStringLiteral("CUDA ≥ %1").arg(recipe.cudaRuntime);
    r.seen = QCoreApplication::translate("Deploy", "driver %1, CUDA %2").arg(d.driverVersion, d.cudaVersion);
    if (probe::compareVersions(d.cudaVersion, recipe.cudaRuntime) >= 0) {
        r.status = recipe::StepStatus::Pass;
    } else {
        r.status = recipe::StepStatus::Fail;
        // Only what the driver causes: the server cannot start the image's CUDA runtime. The
        // qmul4 fallback is the image's CUDA Toolkit's doing, never the driver's (the page, F20).
        r.fix = QCoreApplication::translate("Deploy",
                                            "Install an NVIDIA driver whose CUDA version is %1 or newer (nvidia-smi "
                                            "shows it top right), reboot, and run again.")
                    .arg(recipe.cudaRuntime);
    }
    return r;
}

recipe::StepRecord gpuMemory(const recipe::RecipeProfile &profile, const probe::NvidiaDriver &d,
                             const QHash<qint64, QString> &owners, const QString &deploymentId, const QString &host,
                             const QList<probe::RocmSmiProcess> &unplaced, const QSet<int> &ownGpus)
{
    recipe::StepRecord r = record(
        "preflight.gpumemory",
        QCoreApplication::translate("Deploy", "The server takes --mem-fraction-static %1 of each whole card at start")
            .arg(profile.memFractionStatic));
    r.expected = QCoreApplication::translate("Deploy", "%1 % of each GPU of the profile free")
                     .arg(qRound(profile.memFractionStatic * 100));
    const ProcessOwners o{owners, deploymentId, unplaced, ownGpus};
    MemoryFindings f;
    f.somewhere = unplacedHolders(o);
    for (const recipe::RecipeReplica &replica : profile.replicas) {
        for (const int index : replica.gpus) {
            if (index < 0 || index >= d.gpus.size()) {
                continue; // preflight.gpus judged the count
            }
            judgeGpu(index, d.gpus.at(index), profile.memFractionStatic, o, f);
        }
    }
    if (f.tight.isEmpty()) {
        r.status = recipe::StepStatus::Pass;
        r.seen = QCoreApplication::translate("Deploy", "every GPU of the profile has the %1 the server takes free")
                     .arg(gib(f.needed));
        if (!f.unlistedOwn.isEmpty()) {
            r.seen += QStringLiteral("; ") +
                QCoreApplication::translate("Deploy",
                                            "the memory in use on GPU %1 is this deployment's own running server's "
                                            "(nvidia-smi lists no process for it, as inside containers and some "
                                            "VMs): this run reuses it")
                    .arg(f.unlistedOwn.join(QStringLiteral(", ")));
        }
        return r;
    }
    r.status = recipe::StepStatus::Fail;
    r.seen = f.tight.join(QStringLiteral("; "));
    QStringList fix;
    if (!f.flashdeck.isEmpty()) {
        fix.append(QCoreApplication::translate(
                       "Deploy",
                       "Flashdeck's own deployment %1 holds them: remove it with 'flashdeck undeploy %2' "
                       "(it stops only Flashdeck's containers), or deploy that profile again instead.")
                       .arg(f.flashdeck.join(QStringLiteral(", ")), host));
    }
    if (f.foreign) {
        fix.append(QCoreApplication::translate(
            "Deploy",
            "The other processes are not Flashdeck's: find out whose they are on the host (ps -o "
            "user,etime,cmd -p PID), stop them or wait for them, then run again with --resume."));
    }
    r.fix = fix.join(QLatin1Char(' '));
    return r;
}

recipe::StepRecord disk(const recipe::Recipe &recipe, const probe::DiskFree &free, bool weightsOnHost)
{
    recipe::StepRecord r =
        record("preflight.disk",
               QCoreApplication::translate("Deploy", "About %1 of weights, plus the image and caches")
                   .arg(fmt::gbExact(recipe.weightsBytes)));
    const qint64 need = (weightsOnHost ? 0 : recipe.weightsBytes) + recipe.imageApproxBytes;
    r.expected = weightsOnHost
        ? QCoreApplication::translate("Deploy", "≥ %1 free for the image (the weights are already on the host)")
              .arg(fmt::gbExact(need))
        : QCoreApplication::translate("Deploy", "≥ %1 free (%2 weights + %3 image)")
              .arg(fmt::gbExact(need), fmt::gbExact(recipe.weightsBytes), fmt::gbExact(recipe.imageApproxBytes));
    r.seen = QCoreApplication::translate("Deploy", "%1 free on %2").arg(fmt::gbExact(free.availBytes), free.mountPoint);
    if (free.availBytes >= need) {
        r.status = recipe::StepStatus::Pass;
    } else {
        r.status = recipe::StepStatus::Fail;
        r.fix = QCoreApplication::translate("Deploy",
                                            "Free %1 more on %2, or point the Hugging Face cache at a larger disk.")
                    .arg(fmt::gbExact(need - free.availBytes), free.mountPoint);
    }
    return r;
}

recipe::StepRecord ports(const recipe::RecipeProfile &profile, const QList<probe::ListeningSocket> &listening)
{
    recipe::StepRecord r =
        record("preflight.port", QCoreApplication::translate("Deploy", "The server publishes on the host's loopback"));
    QList<quint16> wanted;
    for (const recipe::RecipeReplica &rep : profile.replicas) {
        wanted.append(rep.port);
    }
    if (profile.routerPort) {
        wanted.append(profile.routerPort);
    }
    QStringList want;
    QStringList taken;
    for (const quint16 p : wanted) {
        want.append(QString::number(p));
        if (probe::portTaken(listening, p)) {
            taken.append(QString::number(p));
        }
    }
    r.expected = QCoreApplication::translate("Deploy", "nothing listening on %1").arg(want.join(QStringLiteral(", ")));
    r.seen = taken.isEmpty()
        ? QCoreApplication::translate("Deploy", "all free")
        : QCoreApplication::translate("Deploy", "in use: %1").arg(taken.join(QStringLiteral(", ")));
    r.status = taken.isEmpty() ? recipe::StepStatus::Pass : recipe::StepStatus::Fail;
    if (!taken.isEmpty()) {
        // A free port to offer: the first one above the profile's that nothing listens on.
        quint16 freePort = 0;
        for (quint32 p = quint32(wanted.first()) + 1; p < 65536 && freePort == 0; ++p) {
            if (!probe::portTaken(listening, quint16(p)) && !wanted.contains(quint16(p))) {
                freePort = quint16(p);
            }
        }
        r.fix = QCoreApplication::translate(
                    "Deploy",
                    "Stop what listens there (sudo ss -ltnp 'sport = :%1' shows it), or deploy on a free "
                    "port: --port %2 (the Port field in the window); chat, status and the runbook follow "
                    "it.")
                    .arg(taken.first())
                    .arg(freePort);
    }
    return r;
}

recipe::StepRecord hostMemory(const recipe::RecipeProfile &profile, int gbPerRank, const probe::HostMemory &memory)
{
    recipe::StepRecord r =
        record("preflight.memory", QCoreApplication::translate("Deploy", "--hicache-size counts per rank"));
    const qsizetype ranks = qsizetype(profile.tp) * profile.replicas.size();
    const qint64 need = qint64(gbPerRank) * 1000000000LL * ranks;
    r.expected = QCoreApplication::translate("Deploy", "≥ %1 available (%2 GB × %3 ranks)")
                     .arg(fmt::gbExact(need))
                     .arg(gbPerRank)
                     .arg(ranks);
    r.seen = QCoreApplication::translate("Deploy", "%1 available of %2")
                 .arg(fmt::gbExact(memory.availableBytes), fmt::gbExact(memory.totalBytes));
    if (memory.availableBytes >= need) {
        r.status = recipe::StepStatus::Pass;
    } else {
        r.status = recipe::StepStatus::Fail;
        r.fix = QCoreApplication::translate("Deploy",
                                            "Lower --hicache-size to at most %1 GB per rank, or free host memory.")
                    .arg(memory.availableBytes / 1000000000LL / std::max<qsizetype>(1, ranks));
    }
    return r;
}

QString qmul4NotApplicable(const recipe::RecipeProfile &profile, const QStringList &gpuNames,
                           const QStringList &architectures)
{
    if (profile.vendor != probe::GpuVendor::Nvidia) {
        return QCoreApplication::translate("Deploy",
                                           "ROCm host: qmul4 is an NVIDIA kernel (the check applies to CUDA only)");
    }
    // nvidia-smi names the architecture (driver 520 and later); older drivers leave the model's
    // name: Hopper's are H100, H200, H20, H800 and GH200.
    static const QRegularExpression hopperName(QStringLiteral("\\b(GH200|H100|H200|H20|H800)\\b"),
                                               QRegularExpression::CaseInsensitiveOption);
    QStringList names = gpuNames.isEmpty() ? QStringList{profile.gpuModel} : gpuNames;
    names.removeDuplicates();
    bool blackwell = false;
    bool earlier = false;
    for (const QString &arch : architectures) {
        blackwell = blackwell || arch.compare(QLatin1String("Blackwell"), Qt::CaseInsensitive) == 0;
        earlier = earlier || arch.compare(QLatin1String("Hopper"), Qt::CaseInsensitive) == 0;
    }
    if (!blackwell && !earlier) {
        for (const QString &name : names) {
            earlier = earlier || hopperName.match(name).hasMatch();
        }
    }
    if (blackwell || !earlier) {
        return {};
    }
    return QCoreApplication::translate("Deploy",
                                       "Hopper GPUs (%1): qmul4 is a Blackwell CUDA kernel, so no start prints its "
                                       "line here (the check applies to Blackwell GPUs only)")
        .arg(names.join(QStringLiteral(", ")));
}

} // namespace flashdeck::deploy::checks

#include "backend/deploy/weightsfit.h"

#include "backend/core/format.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace flashdeck::deploy::checks {

namespace { } // namespace

WeightsFit weightsFit(const recipe::RecipeProfile &profile, const probe::NvidiaDriver &driver, qint64 weightsBytes)
{
    WeightsFit fit;
    if (weightsBytes <= 0 || profile.memFractionStatic <= 0 || profile.replicas.isEmpty()) {
        return fit;
    }
    // The smallest service decides: each holds a whole copy of the weights.
    double smallest = -1;
    qint64 perGpu = 0;
    int ranks = 0;
    for (const recipe::RecipeReplica &replica : profile.replicas) {
        double total = 0;
        qint64 least = 0;
        for (const int index : replica.gpus) {
            if (index < 0 || index >= driver.gpus.size() || driver.gpus.at(index).memoryTotalMiB <= 0) {
                return fit; // preflight.gpus judged the count; without totals nothing is claimed
            }
            const qint64 mib = driver.gpus.at(index).memoryTotalMiB;
            total += double(mib) * 1048576.0;
            least = least == 0 ? mib : std::min(least, mib);
        }
        if (smallest < 0 || total < smallest) {
            smallest = total;
            perGpu = least;
            ranks = int(replica.gpus.size());
        }
    }
    const double staticBytes = smallest * profile.memFractionStatic;
    const double left = staticBytes - double(weightsBytes);
    const QString budget = QCoreApplication::translate("Deploy", "TP %1 × %2 × --mem-fraction-static %3 = %4")
                               .arg(ranks)
                               .arg(fmt::gbExact(qint64(std::llround(double(perGpu) * 1048576.0))))
                               .arg(profile.memFractionStatic)
                               .arg(fmt::gbExact(qint64(std::llround(staticBytes))));
    if (left <= 0) {
        fit.fits = false;
        fit.words = QCoreApplication::translate("Deploy",
                                                "the weights (%1) do not fit a service's static memory (%2): the "
                                                "server would stop after the pull and the download")
                        .arg(fmt::gbExact(weightsBytes), budget);
        return fit;
    }
    fit.words = QCoreApplication::translate("Deploy",
                                            "a service's static memory (%1) holds the weights (%2) and leaves about "
                                            "%3 for its KV pool")
                    .arg(budget, fmt::gbExact(weightsBytes), fmt::gbExact(qint64(std::llround(left))));
    return fit;
}

} // namespace flashdeck::deploy::checks

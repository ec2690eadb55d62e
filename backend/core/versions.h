#pragma once

#include <QString>

namespace flashdeck {

/**
 * Compares dotted versions numerically ("13.0" < "13.4" < "13.10"; "13.4" == "13.4.0"):
 * <0, 0, >0. CUDA, driver and Docker API versions all compare this way.
 */
int compareVersions(const QString &a, const QString &b);

} // namespace flashdeck

#pragma once

#include <QString>

namespace flashdeck::metrics {

/**
 * An alert's severity in the operator's language: the window's alert list, the fleet table's
 * tooltips, notifications and `flashdeck status`' notes say it in words; the JSON keeps
 * "critical", "warning" and "info", which scripts read.
 */
[[nodiscard]] QString severityWord(const QString &severity);

} // namespace flashdeck::metrics

#include "backend/metrics/alertseverity.h"

#include <QCoreApplication>

namespace flashdeck::metrics {

QString severityWord(const QString &severity)
{
    if (severity == QLatin1String("critical")) {
        return QCoreApplication::translate("Metrics", "critical");
    }
    if (severity == QLatin1String("warning")) {
        return QCoreApplication::translate("Metrics", "warning");
    }
    if (severity == QLatin1String("info")) {
        return QCoreApplication::translate("Metrics", "info");
    }
    return severity;
}

} // namespace flashdeck::metrics

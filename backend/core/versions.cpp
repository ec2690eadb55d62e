#include "backend/core/versions.h"

#include <QStringList>

#include <algorithm>

namespace flashdeck {

int compareVersions(const QString &a, const QString &b)
{
    const QStringList x = a.split(QLatin1Char('.'));
    const QStringList y = b.split(QLatin1Char('.'));
    for (qsizetype i = 0; i < std::max(x.size(), y.size()); ++i) {
        const int p = x.value(i, QStringLiteral("0")).toInt();
        const int q = y.value(i, QStringLiteral("0")).toInt();
        if (p != q) {
            return p < q ? -1 : 1;
        }
    }
    return 0;
}

} // namespace flashdeck

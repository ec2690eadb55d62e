#pragma once

#include "tests/support/buildpaths.h"

#include <QProcess>
#include <QString>

/**
 * Stops the demo of a test's config dir however the test ends (a failed QVERIFY returns early):
 * declare it right after the config dir, so it runs before the dir is removed.
 */
struct DemoGuard
{
    QString dir;
    ~DemoGuard()
    {
        QProcess p;
        p.start(flashdeck::test::flashdeckBinary(),
                {QStringLiteral("demo"), QStringLiteral("stop"), QStringLiteral("--config-dir"), dir});
        p.waitForFinished(60000);
    }
};

#pragma once

#include "tests/support/buildpaths.h"

#include <QByteArray>
#include <QFile>
#include <QString>

namespace flashdeck::testing {

/**
 * A file of tests/data/fake-host (what the fake host answers, each from a real capture or the
 * simulated host: see the README there). Needs the flashdeck_buildpaths library; a missing file stops the test.
 */
inline QByteArray fakeHostData(const char *name)
{
    QFile f(flashdeck::test::testData(u"/fake-host/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly)) {
        qFatal("missing test data %s", name);
    }
    return f.readAll();
}

} // namespace flashdeck::testing

#pragma once

// Concurrent writers of a shared file, in processes of their own, released at the same moment
// (tst_lockedfile, tst_acknowledgements, tst_settings): each child waits for "go" on its input.

#include <QProcess>
#include <QString>

#include <memory>
#include <vector>

namespace flashdeck::test {

/**
 * Says "go" to every child and closes its input before waiting on any of them, then waits for each
 * to end with exit code 0. Empty when every one did; else what went wrong, for QVERIFY2.
 */
inline QString releaseTogether(std::vector<std::unique_ptr<QProcess>> &children)
{
    for (auto &p : children) {
        if (p->write("go\n") != 3) {
            return QStringLiteral("could not write to a child: ") + p->errorString();
        }
        // Out now: QProcess writes a buffer only while something waits on that process, and the
        // waits below take one child at a time; the children would start one after another.
        if (!p->waitForBytesWritten(10000)) {
            return QStringLiteral("a child did not take its go: ") + p->errorString();
        }
        p->closeWriteChannel();
    }
    for (auto &p : children) {
        if (!p->waitForFinished(60000) || p->exitStatus() != QProcess::NormalExit || p->exitCode() != 0) {
            return QStringLiteral("a child ended with exit code %1 (%2)").arg(p->exitCode()).arg(p->errorString());
        }
    }
    return {};
}

} // namespace flashdeck::test

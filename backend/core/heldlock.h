#pragma once

#include "backend/core/result.h"

#include <QString>

namespace flashdeck {

/**
 * A lock a running operation holds on a file for as long as it runs (an upgrade of a host), and
 * that any process, this one included, can ask about without taking it. An open-file-description
 * lock (fcntl F_OFD_SETLK, Linux 3.15): the kernel drops it when the holder exits or crashes, so
 * a file an interrupted run left behind never reads as "running", and a query (F_OFD_GETLK) takes
 * nothing, so it cannot get in the way of a run starting.
 */
class HeldLock final
{
public:
    explicit HeldLock(QString path);
    ~HeldLock();
    HeldLock(const HeldLock &) = delete;
    HeldLock &operator=(const HeldLock &) = delete;

    /** Creates the file (0600) if needed and locks it; fails, saying so, when another holds it. */
    [[nodiscard]] Status acquire();
    void release();

    /** Whether someone holds the lock on `path` now (false when there is no such file). */
    [[nodiscard]] static bool isHeld(const QString &path);

private:
    QString m_path;
    int m_fd = -1;
};

} // namespace flashdeck

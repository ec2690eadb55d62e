#pragma once

#include "backend/core/result.h"

#include <QFileDevice>

class QByteArray;

namespace flashdeck {

/**
 * Replaces `path` with `data` all at once (QSaveFile: a temporary file renamed over it), or
 * leaves the old file exactly as it was. On failure the Status message is the system's reason
 * ("No space left on device"), for the caller to put in its own sentence.
 *
 * Why not QSaveFile alone: on Qt 6.4 a write that fails only when the buffer is flushed (a full
 * disk) is not seen by commit(), which then renames an EMPTY file over the good one and returns
 * true — measured on a full tmpfs (issue 9, tst_atomicfile). The flush is checked here and the
 * save cancelled.
 */
[[nodiscard]] Status writeFileAtomically(const QString &path, const QByteArray &data,
                                         QFileDevice::Permissions permissions = {});

} // namespace flashdeck

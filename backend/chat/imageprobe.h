#pragma once

#include "backend/core/result.h"

#include <QByteArray>
#include <QString>

namespace flashdeck::chat {

/** What an image's bytes say it is, read from its header alone (the backend has no QtGui). */
struct ImageInfo
{
    QString mimeType; // image/png, image/jpeg, image/webp
    int width = 0;
    int height = 0;
};

/**
 * Sniffs PNG (IHDR), JPEG (the first SOFn marker) and WebP (VP8, VP8L, VP8X) from their
 * magic numbers, never from a file name or a server's Content-Type, and reads the pixel size
 * so limits are enforced before anything is decoded or sent. Anything else is refused.
 */
[[nodiscard]] Result<ImageInfo> probeImage(const QByteArray &bytes);

} // namespace flashdeck::chat

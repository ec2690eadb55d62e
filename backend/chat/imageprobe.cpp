#include "backend/chat/imageprobe.h"

#include <QCoreApplication>

#include <algorithm>
#include <climits>

namespace flashdeck::chat {

namespace {

quint32 be32(const QByteArray &b, qsizetype at)
{
    return (quint32(quint8(b[at])) << 24) | (quint32(quint8(b[at + 1])) << 16) | (quint32(quint8(b[at + 2])) << 8) |
        quint32(quint8(b[at + 3]));
}

quint16 be16(const QByteArray &b, qsizetype at)
{
    return quint16((quint8(b[at]) << 8) | quint8(b[at + 1]));
}

quint32 le24(const QByteArray &b, qsizetype at)
{
    return quint32(quint8(b[at])) | (quint32(quint8(b[at + 1])) << 8) | (quint32(quint8(b[at + 2])) << 16);
}

Status broken(const char *kind)
{
    return Status::failure(
        QCoreApplication::translate("Chat",
                                    "The file starts like a %1 image but its header is cut or damaged. "
                                    "Open it in an image viewer and save it again.")
            .arg(QLatin1String(kind)));
}

Result<ImageInfo> png(const QByteArray &b)
{
    // Signature (8), then the IHDR chunk: length (4), "IHDR", width (4), height (4).
    if (b.size() < 24 || b.mid(12, 4) != "IHDR") {
        return broken("PNG");
    }
    return ImageInfo{QStringLiteral("image/png"), int(std::min<quint32>(be32(b, 16), INT_MAX)),
                     int(std::min<quint32>(be32(b, 20), INT_MAX))};
}

Result<ImageInfo> jpeg(const QByteArray &b)
{
    qsizetype i = 2;
    while (i + 4 <= b.size()) {
        if (quint8(b[i]) != 0xFF) {
            return broken("JPEG");
        }
        const quint8 marker = quint8(b[i + 1]);
        if (marker == 0xFF) { // fill byte
            ++i;
            continue;
        }
        if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
            i += 2; // markers without a length
            continue;
        }
        const quint16 length = be16(b, i + 2);
        const bool sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (sof) {
            if (i + 9 > b.size() || length < 7) {
                return broken("JPEG");
            }
            return ImageInfo{QStringLiteral("image/jpeg"), be16(b, i + 7), be16(b, i + 5)};
        }
        if (marker == 0xD9 || marker == 0xDA || length < 2) {
            break; // end of image or scan data before any frame header
        }
        i += 2 + length;
    }
    return broken("JPEG");
}

Result<ImageInfo> webp(const QByteArray &b)
{
    if (b.size() < 30) {
        return broken("WebP");
    }
    const QByteArray chunk = b.mid(12, 4);
    if (chunk == "VP8 ") {
        // Frame tag (3), start code 9d 01 2a, then 14-bit width and height.
        if (quint8(b[23]) != 0x9d || quint8(b[24]) != 0x01 || quint8(b[25]) != 0x2a) {
            return broken("WebP");
        }
        return ImageInfo{QStringLiteral("image/webp"), (quint8(b[26]) | (quint8(b[27]) << 8)) & 0x3fff,
                         (quint8(b[28]) | (quint8(b[29]) << 8)) & 0x3fff};
    }
    if (chunk == "VP8L") {
        if (quint8(b[20]) != 0x2f) {
            return broken("WebP");
        }
        const quint32 bits = quint32(quint8(b[21])) | (quint32(quint8(b[22])) << 8) | (quint32(quint8(b[23])) << 16) |
            (quint32(quint8(b[24])) << 24);
        return ImageInfo{QStringLiteral("image/webp"), int((bits & 0x3fff) + 1), int(((bits >> 14) & 0x3fff) + 1)};
    }
    if (chunk == "VP8X") {
        return ImageInfo{QStringLiteral("image/webp"), int(le24(b, 24) + 1), int(le24(b, 27) + 1)};
    }
    return broken("WebP");
}

} // namespace

Result<ImageInfo> probeImage(const QByteArray &bytes)
{
    if (bytes.startsWith("\x89PNG\r\n\x1a\n")) {
        return png(bytes);
    }
    if (bytes.startsWith("\xFF\xD8\xFF")) {
        return jpeg(bytes);
    }
    if (bytes.size() >= 12 && bytes.startsWith("RIFF") && bytes.mid(8, 4) == "WEBP") {
        return webp(bytes);
    }
    return Status::failure(
        QCoreApplication::translate("Chat",
                                    "This is not a PNG, JPEG or WebP image (by its content, whatever its name "
                                    "says). Convert it to one of those first."));
}

} // namespace flashdeck::chat

#include "tests/simhost/sglang/visionprocessor.h"

#include <cstdint>
#include <vector>

namespace flashdeck::sim {

namespace {

std::vector<unsigned char> base64Decode(const std::string &in)
{
    std::vector<unsigned char> out;
    unsigned value = 0;
    int bits = -8;
    for (const char c : in) {
        int d = -1;
        if (c >= 'A' && c <= 'Z') {
            d = c - 'A';
        } else if (c >= 'a' && c <= 'z') {
            d = c - 'a' + 26;
        } else if (c >= '0' && c <= '9') {
            d = c - '0' + 52;
        } else if (c == '+' || c == '-') {
            d = 62;
        } else if (c == '/' || c == '_') {
            d = 63;
        } else {
            continue; // padding, whitespace
        }
        value = (value << 6) | unsigned(d);
        bits += 6;
        if (bits >= 0) {
            out.push_back(static_cast<unsigned char>((value >> bits) & 0xff));
            bits -= 8;
        }
    }
    return out;
}

std::uint32_t be32(const std::vector<unsigned char> &b, std::size_t at)
{
    return (std::uint32_t(b[at]) << 24) | (std::uint32_t(b[at + 1]) << 16) | (std::uint32_t(b[at + 2]) << 8) |
        std::uint32_t(b[at + 3]);
}

/** Width and height of a PNG or JPEG; false when the bytes are neither (PIL cannot identify them). */
bool imageSize(const std::vector<unsigned char> &b, long *width, long *height)
{
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (b.size() >= 24 && std::equal(png, png + 8, b.begin()) && b[12] == 'I' && b[13] == 'H' && b[14] == 'D' &&
        b[15] == 'R') {
        *width = long(be32(b, 16));
        *height = long(be32(b, 20));
        return true;
    }
    if (b.size() >= 4 && b[0] == 0xff && b[1] == 0xd8) { // JPEG: walk the segments to a start of frame
        std::size_t at = 2;
        while (at + 9 < b.size() && b[at] == 0xff) {
            const unsigned marker = b[at + 1];
            const std::size_t length = (std::size_t(b[at + 2]) << 8) | b[at + 3];
            if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc) {
                *height = long((b[at + 5] << 8) | b[at + 6]);
                *width = long((b[at + 7] << 8) | b[at + 8]);
                return true;
            }
            at += 2 + length;
        }
    }
    return false;
}

} // namespace

std::string visionRefusal(const nlohmann::json &messages, int patchFactor)
{
    if (!messages.is_array()) {
        return {};
    }
    for (const auto &m : messages) {
        if (!m.is_object() || !m.contains("content") || !m["content"].is_array()) {
            continue;
        }
        for (const auto &part : m["content"]) {
            if (!part.is_object() || part.value("type", std::string()) != "image_url" || !part.contains("image_url") ||
                !part["image_url"].is_object()) {
                continue;
            }
            const std::string url = part["image_url"].value("url", std::string());
            const auto comma = url.find(',');
            if (url.rfind("data:", 0) != 0 || comma == std::string::npos) {
                continue;
            }
            long width = 0;
            long height = 0;
            if (!imageSize(base64Decode(url.substr(comma + 1)), &width, &height)) {
                return "cannot identify image file <_io.BytesIO object at 0x7f3c2a1b9e40>";
            }
            if (width < patchFactor || height < patchFactor) {
                return "height:" + std::to_string(height) + " or width:" + std::to_string(width) +
                    " must be larger than factor:" + std::to_string(patchFactor);
            }
        }
    }
    return {};
}

} // namespace flashdeck::sim

#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace flashdeck::sim {

/**
 * What a vision preprocessor says of a request's images before the model sees them: empty when
 * every image is one it takes, else its error, as SGLang returns it in a 400's "message".
 *
 * Real processors decode the picture and resize it to a multiple of their patch factor; a side
 * below the factor is refused (Qwen2-VL-style `smart_resize`: "height:1 or width:1 must be larger
 * than factor:28"), and bytes that are no picture fail in PIL ("cannot identify image file").
 * Only data: URIs are looked at (PNG by its IHDR, JPEG by its SOF marker); URLs are taken as given.
 */
std::string visionRefusal(const nlohmann::json &messages, int patchFactor = 28);

} // namespace flashdeck::sim

#pragma once

// One event of SGLang's streamed chat completion (OpenAI's chat.completion.chunk), as the real
// server writes it: the simulated server (sglangsim.cpp) and the tests' fake (tests/support/
// fakesglang.cpp) both send these, so the two cannot drift apart.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace flashdeck::sim {

/** `data: {…}\n\n` for one delta (or the finish), with the server's `created` when it gives one. */
inline std::string streamChunk(const std::string &id, const std::string &model, const nlohmann::json &delta,
                               const nlohmann::json &finishReason, std::optional<std::int64_t> created = {})
{
    nlohmann::json chunk{{"id", id}, {"object", "chat.completion.chunk"}};
    if (created) {
        chunk["created"] = *created;
    }
    chunk["model"] = model;
    chunk["choices"] = nlohmann::json::array({{{"index", 0},
                                               {"delta", delta},
                                               {"logprobs", nullptr},
                                               {"finish_reason", finishReason},
                                               {"matched_stop", nullptr}}});
    chunk["usage"] = nullptr;
    return "data: " + chunk.dump() + "\n\n";
}

} // namespace flashdeck::sim

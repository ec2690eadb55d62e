// The simulated model revision: what the fake Hub lists and what the simulated `hf download`
// writes (see modelfiles.h).

#include "tests/simhost/engine/modelfiles.h"

#include "tests/simhost/engine/registry.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <openssl/evp.h>

using nlohmann::json;

namespace flashdeck::sim {

namespace {

std::string digestHex(const EVP_MD *md, const std::string &prefix, const std::string &content)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, md, nullptr);
    EVP_DigestUpdate(ctx, prefix.data(), prefix.size());
    EVP_DigestUpdate(ctx, content.data(), content.size());
    EVP_DigestFinal_ex(ctx, out, &len);
    EVP_MD_CTX_free(ctx);
    std::string hex;
    char buf[3];
    for (unsigned int i = 0; i < len; ++i) {
        std::snprintf(buf, sizeof buf, "%02x", out[i]);
        hex += buf;
    }
    return hex;
}

/** A valid safetensors file with one U8 tensor of `bytes` deterministic bytes. */
std::string safetensors(const std::string &tensor, std::size_t bytes, unsigned seed)
{
    std::string header = json{{"__metadata__", {{"format", "pt"}}},
                              {tensor, {{"dtype", "U8"}, {"shape", {bytes}}, {"data_offsets", {0, bytes}}}}}
                             .dump();
    header.append((8 - header.size() % 8) % 8, ' '); // the format pads the header to 8 bytes
    std::string out;
    const std::uint64_t n = header.size();
    for (int i = 0; i < 8; ++i) {
        out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
    }
    out += header;
    std::uint32_t x = seed * 2654435761u + 1;
    for (std::size_t i = 0; i < bytes; ++i) {
        x = x * 1664525u + 1013904223u;
        out.push_back(static_cast<char>(x >> 24));
    }
    return out;
}

} // namespace

std::string ModelFile::blobId() const
{
    return digestHex(EVP_sha1(), "blob " + std::to_string(content.size()) + std::string(1, '\0'), content);
}

std::string ModelFile::sha256() const
{
    return digestHex(EVP_sha256(), {}, content);
}

std::vector<ModelFile> modelFiles(const HubModel &model)
{
    std::vector<ModelFile> files;
    json weightMap = json::object();
    std::uint64_t total = 0;
    std::vector<std::pair<std::string, std::string>> shards; // file, tensor
    for (const auto &path : model.files) {
        if (path.rfind("model-", 0) == 0 && path.size() > 12 && path.substr(path.size() - 12) == ".safetensors") {
            const std::string tensor = "model.layers." + std::to_string(shards.size()) + ".mlp.experts.weight_packed";
            weightMap[tensor] = path;
            shards.emplace_back(path, tensor);
        }
    }
    unsigned seed = 0;
    for (const auto &path : model.files) {
        ModelFile f{path, {}, false};
        ++seed;
        if (path == "config.json") {
            f.content = json{{"architectures", {"MiniMaxM3ForCausalLM"}},
                             {"model_type", "minimax_m3"},
                             {"num_hidden_layers", shards.size()},
                             {"quantization_config", {{"quant_method", "modelopt"}, {"quant_algo", "NVFP4"}}},
                             {"_name_or_path", model.repo}}
                            .dump(2) +
                "\n";
        } else if (path == "dspark/config.json") {
            f.content =
                json{{"architectures", {"MiniMaxM3DSparkForCausalLM"}}, {"model_type", "minimax_m3_dspark"}}.dump(2) +
                "\n";
        } else if (path == "dspark/model.safetensors") {
            f.content = safetensors("dspark.head.weight", 3000, seed);
            f.lfs = true;
        } else if (path == "model.safetensors.index.json") {
            continue; // written last, when the shard sizes are known
        } else {
            bool shard = false;
            for (std::size_t i = 0; i < shards.size(); ++i) {
                if (shards[i].first == path) {
                    const std::size_t bytes = 4096 + 64 * i;
                    f.content = safetensors(shards[i].second, bytes, seed);
                    f.lfs = true;
                    total += bytes;
                    shard = true;
                }
            }
            if (!shard) {
                f.content = "# " + path + " of " + model.repo + " (simulated)\n";
            }
        }
        files.push_back(std::move(f));
    }
    for (const auto &path : model.files) {
        if (path == "model.safetensors.index.json") {
            files.push_back(
                {path, json{{"metadata", {{"total_size", total}}}, {"weight_map", weightMap}}.dump(2) + "\n", false});
        }
    }
    return files;
}

std::string writeModelFolder(const HubModel &model, const std::string &dir, const std::string &layout)
{
    namespace fs = std::filesystem;
    if (layout != "hf" && layout != "modelscope") {
        return "unknown layout " + layout + " (hf or modelscope)";
    }
    std::error_code ec;
    auto write = [&](const fs::path &path, const std::string &content) {
        fs::create_directories(path.parent_path(), ec);
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << content;
        return bool(out);
    };
    for (const auto &f : modelFiles(model)) {
        if (!write(fs::path(dir) / f.path, f.content)) {
            return "cannot write " + (fs::path(dir) / f.path).string();
        }
        if (layout == "hf") {
            const std::string etag = f.lfs ? f.sha256() : f.blobId();
            write(fs::path(dir) / ".cache/huggingface/download" / (f.path + ".metadata"),
                  model.sha + "\n" + etag + "\n1764504000.0\n");
        }
    }
    if (layout == "hf") {
        write(fs::path(dir) / ".cache/huggingface/.gitignore", "*\n");
    } else {
        write(fs::path(dir) / "configuration.json", "{\"framework\": \"pytorch\", \"task\": \"text-generation\"}\n");
    }
    return {};
}

} // namespace flashdeck::sim

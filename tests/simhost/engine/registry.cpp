#include "tests/simhost/engine/registry.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace flashdeck::sim {

ImageRef ImageRef::parse(const std::string &text)
{
    ImageRef ref;
    std::string rest = text;
    if (const auto at = rest.find('@'); at != std::string::npos) {
        ref.digest = rest.substr(at + 1);
        rest.resize(at);
    }
    // A tag is a colon after the last slash (a colon before it belongs to a registry port).
    const auto slash = rest.rfind('/');
    if (const auto colon = rest.rfind(':');
        colon != std::string::npos && (slash == std::string::npos || colon > slash)) {
        ref.tag = rest.substr(colon + 1);
        rest.resize(colon);
    }
    for (const char *prefix : {"docker.io/", "index.docker.io/", "registry-1.docker.io/"}) {
        if (rest.rfind(prefix, 0) == 0) {
            rest.erase(0, std::string(prefix).size());
        }
    }
    if (rest.rfind("library/", 0) == 0) {
        rest.erase(0, 8);
    }
    ref.repo = rest;
    if (ref.tag.rfind("sha256:", 0) == 0 && ref.digest.empty()) { // ?fromImage=…&tag=sha256:…
        ref.digest = ref.tag;
        ref.tag.clear();
    }
    return ref;
}

std::string ImageRef::familiar() const
{
    if (!digest.empty()) {
        return repo + "@" + digest;
    }
    return repo + ":" + (tag.empty() ? "latest" : tag);
}

std::int64_t RegistryImage::downloadBytes() const
{
    std::int64_t total = 0;
    for (const auto &layer : layers) {
        total += layer.second;
    }
    return total;
}

bool Registry::load(const std::string &path, std::string *error)
{
    std::ifstream in(path);
    if (!in) {
        *error = "cannot read " + path;
        return false;
    }
    try {
        const nlohmann::json j = nlohmann::json::parse(in);
        for (const auto &i : j.at("images")) {
            RegistryImage image;
            image.repo = i.at("repo").get<std::string>();
            image.tag = i.at("tag").get<std::string>();
            image.digest = i.at("digest").get<std::string>();
            image.id = i.at("id").get<std::string>();
            image.created = i.at("created").get<std::string>();
            image.size = i.at("size").get<std::int64_t>();
            image.cudaToolkit = i.value("cuda_toolkit", image.cudaToolkit);
            image.superseded = i.value("superseded", false);
            image.launchFault = i.value("launch_fault", std::string());
            for (const auto &l : i.at("layers")) {
                image.layers.emplace_back(l.at("digest").get<std::string>(), l.at("size").get<std::int64_t>());
            }
            images.push_back(std::move(image));
        }
        for (const auto &m : j.value("models", nlohmann::json::array())) {
            HubModel model;
            model.repo = m.at("repo").get<std::string>();
            model.sha = m.at("sha").get<std::string>();
            model.lastModified = m.at("last_modified").get<std::string>();
            for (const auto &f : m.value("files", nlohmann::json::array())) {
                model.files.push_back(f.get<std::string>());
            }
            for (const auto &r : m.value("revisions", nlohmann::json::array())) {
                model.revisions.emplace_back(r.at("sha").get<std::string>(), r.at("last_modified").get<std::string>());
            }
            models.push_back(std::move(model));
        }
    } catch (const nlohmann::json::exception &e) {
        *error = path + ": " + e.what();
        return false;
    }
    return true;
}

const RegistryImage *Registry::find(const ImageRef &ref) const
{
    for (const auto &image : images) {
        if (image.repo != ref.repo) {
            continue;
        }
        // A tag names its current build; an earlier one answers only to its digest.
        if (!ref.digest.empty() ? image.digest == ref.digest
                                : !image.superseded && image.tag == (ref.tag.empty() ? "latest" : ref.tag)) {
            return &image;
        }
    }
    return nullptr;
}

std::string HubModel::resolve(const std::string &rev) const
{
    if (rev == "main" || rev == sha) {
        return sha;
    }
    for (const auto &r : revisions) {
        if (r.first == rev) {
            return r.first;
        }
    }
    return {};
}

const HubModel *Registry::model(const std::string &repo) const
{
    for (const auto &m : models) {
        if (m.repo == repo) {
            return &m;
        }
    }
    return nullptr;
}

} // namespace flashdeck::sim

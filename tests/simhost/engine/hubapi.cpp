// The fake Hugging Face Hub the simulated host reaches through HF_ENDPOINT: the one call the
// pin step makes, GET /api/models/{repo}/revision/{rev}, answered as huggingface.co does
// (`sha` is the commit; 401 RepoNotFound for an unknown repo, 404 RevisionNotFound), and
// GET /api/models/{repo}/tree/{rev}?recursive=true, the revision's files with their sizes, git
// blob ids and LFS sha256 (what a ModelScope copy is verified against, F28).

#include "tests/simhost/engine/engine.h"
#include "tests/simhost/engine/engineapi.h"
#include "tests/simhost/engine/modelfiles.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <algorithm>

using nlohmann::json;

namespace flashdeck::sim {

namespace {

/** Answers 401/404 as the Hub does; true when `rev` names the model's revision. */
bool known(const HubModel *model, const std::string &path, const std::string &rev, httplib::Response &res)
{
    if (!model) {
        res.status = 401;
        res.set_header("X-Error-Code", "RepoNotFound");
        res.set_content(json{{"error", "Repository Not Found for url: " + path + "."}}.dump(), "application/json");
        return false;
    }
    if (model->resolve(rev).empty()) {
        res.status = 404;
        res.set_header("X-Error-Code", "RevisionNotFound");
        res.set_content(json{{"error", "Invalid rev id: " + rev}}.dump(), "application/json");
        return false;
    }
    return true;
}

} // namespace

void registerHubRoutes(httplib::Server &server, Engine &engine)
{
    server.Get(
        "/api/models/([^/]+/[^/]+)/tree/([^/]+)", [&engine](const httplib::Request &req, httplib::Response &res) {
            const HubModel *model = engine.options().registry.model(req.matches[1]);
            if (!known(model, req.path, req.matches[2], res)) {
                return;
            }
            const bool recursive =
                req.get_param_value("recursive") == "true" || req.get_param_value("recursive") == "1";
            json tree = json::array();
            std::vector<std::string> dirs;
            for (const auto &f : modelFiles(*model)) {
                const auto slash = f.path.find('/');
                if (slash != std::string::npos) {
                    const std::string dir = f.path.substr(0, slash);
                    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) {
                        dirs.push_back(dir);
                        tree.push_back({{"type", "directory"}, {"oid", f.blobId()}, {"size", 0}, {"path", dir}});
                    }
                    if (!recursive) {
                        continue;
                    }
                }
                json entry = {{"type", "file"}, {"oid", f.blobId()}, {"size", f.content.size()}, {"path", f.path}};
                if (f.lfs) {
                    entry["lfs"] = {{"oid", f.sha256()}, {"size", f.content.size()}, {"pointerSize", 135}};
                }
                tree.push_back(entry);
            }
            res.set_content(tree.dump(), "application/json; charset=utf-8");
        });
    server.Get("/api/models/(.+)/revision/([^/]+)", [&engine](const httplib::Request &req, httplib::Response &res) {
        const HubModel *model = engine.options().registry.model(req.matches[1]);
        if (!known(model, req.path, req.matches[2], res)) {
            return;
        }
        const std::string rev = req.matches[2];
        std::string lastModified = model->lastModified;
        for (const auto &r : model->revisions) {
            lastModified = r.first == rev ? r.second : lastModified;
        }
        json siblings = json::array();
        for (const auto &f : model->files) {
            siblings.push_back({{"rfilename", f}});
        }
        const json answer = {{"_id", "6728c1f4e1d3a0b2c4d5e6f7"},
                             {"id", model->repo},
                             {"modelId", model->repo},
                             {"author", model->repo.substr(0, model->repo.find('/'))},
                             {"sha", model->resolve(req.matches[2])},
                             {"lastModified", lastModified},
                             {"private", false},
                             {"disabled", false},
                             {"gated", false},
                             {"pipeline_tag", "text-generation"},
                             {"library_name", "transformers"},
                             {"tags",
                              {"transformers", "safetensors", "minimax_m3", "text-generation", "conversational",
                               "custom_code", "modelopt", "region:us"}},
                             {"siblings", siblings}};
        res.set_content(answer.dump(), "application/json; charset=utf-8");
    });
}

} // namespace flashdeck::sim

// The fake Hugging Face Hub the simulated host reaches through HF_ENDPOINT: the one call the
// pin step makes, GET /api/models/{repo}/revision/{rev}, answered as huggingface.co does
// (`sha` is the commit; 401 RepoNotFound for an unknown repo, 404 RevisionNotFound).

#include "tests/simhost/engine/engine.h"
#include "tests/simhost/engine/engineapi.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace flashdeck::sim {

void registerHubRoutes(httplib::Server &server, Engine &engine)
{
    server.Get("/api/models/(.+)/revision/([^/]+)", [&engine](const httplib::Request &req, httplib::Response &res) {
        const HubModel *model = engine.options().registry.model(req.matches[1]);
        const std::string rev = req.matches[2];
        if (!model) {
            res.status = 401;
            res.set_header("X-Error-Code", "RepoNotFound");
            res.set_content(json{{"error", "Repository Not Found for url: " + req.path + "."}}.dump(),
                            "application/json");
            return;
        }
        if (rev != "main" && rev != model->sha) {
            res.status = 404;
            res.set_header("X-Error-Code", "RevisionNotFound");
            res.set_content(json{{"error", "Invalid rev id: " + rev}}.dump(), "application/json");
            return;
        }
        json siblings = json::array();
        for (const auto &f : model->files) {
            siblings.push_back({{"rfilename", f}});
        }
        const json answer = {{"_id", "6728c1f4e1d3a0b2c4d5e6f7"},
                             {"id", model->repo},
                             {"modelId", model->repo},
                             {"author", model->repo.substr(0, model->repo.find('/'))},
                             {"sha", model->sha},
                             {"lastModified", model->lastModified},
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

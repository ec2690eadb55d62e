#include "ui/deploy/profilecard.h"

#include "backend/core/format.h"
#include "backend/recipe/recipe.h"
#include "backend/recipe/recipetexts.h"

#include <QCoreApplication>

namespace flashdeck::ui {

// The card's texts keep the Deploy page's translation context: they were written there.

QString ProfileCard::html(const recipe::Recipe &r, const recipe::RecipeProfile &p, qint64 imageBytes,
                          const QString &imageWord)
{
    const qint64 disk = r.weightsBytes + imageBytes;
    QString html = QStringLiteral("<p><b>%1</b><br>%2</p>").arg(p.title.toHtmlEscaped(), status(p));
    if (!p.generatorOnly()) {
        html +=
            QCoreApplication::translate("DeployPage",
                                        "<p>GPUs: %1 × %2 · TP %3<br>Disk: more than %4 free (weights %5 + %6)<br>"
                                        "Expected KV pool: %7</p>")
                .arg(p.gpuCount)
                .arg(p.gpuMemoryGb ? QCoreApplication::translate("DeployPage", "%1 (%2 GB each)")
                                         .arg(p.gpuModel.toHtmlEscaped())
                                         .arg(p.gpuMemoryGb)
                                   : p.gpuModel.toHtmlEscaped())
                .arg(p.tp)
                .arg(fmt::bytes(disk), fmt::bytes(r.weightsBytes), imageWord)
                .arg(
                    p.kvTokensExpected > 0
                        ? QCoreApplication::translate("DeployPage", "≈ %1").arg(fmt::tokens(double(p.kvTokensExpected)))
                        : QCoreApplication::translate("DeployPage", "not published"));
    }
    if (p.nodeRouterPort != 0) {
        html += QCoreApplication::translate(
                    "DeployPage",
                    "<p>On a host with %1 or more %2 GPUs: one TP %3 service per %3 GPUs behind the SGLang Router "
                    "(port %4, --policy %5), so none idles. Change the GPU list to run on exactly those.</p>")
                    .arg(2 * p.tp)
                    .arg(p.gpuModel.toHtmlEscaped())
                    .arg(p.tp)
                    .arg(p.nodeRouterPort)
                    .arg(p.nodeRouterPolicy.toHtmlEscaped());
    }
    if (p.imageConfirm) {
        html += QCoreApplication::translate("DeployPage",
                                            "<p><b>Image:</b> yours to confirm or supply. Suggested: %1 — %2.</p>")
                    .arg(r.imageOf(p).reference().toHtmlEscaped(), p.imageSource.toHtmlEscaped());
    }
    if (!p.note.isEmpty()) {
        html += QStringLiteral("<p>%1</p>").arg(p.note.toHtmlEscaped());
    }
    return html + recipeNotes(r);
}

QString ProfileCard::status(const recipe::RecipeProfile &p)
{
    if (p.verified()) {
        return QCoreApplication::translate(
            "DeployPage",
            "<span style='color:#1a9850'>✓ Verified upstream</span> — by the SGLang Cookbook, not "
            "independently re-tested");
    }
    if (p.generatorOnly()) {
        return QCoreApplication::translate(
            "DeployPage",
            "<span style='color:#d73027'>✗ No command on the page</span> — Flashdeck launches what SGLang's "
            "configuration generator prints for this hardware (paste it above); B300 flags are not reused");
    }
    return QCoreApplication::translate("DeployPage",
                                       "<span style='color:#e69f00'>⚠ Unverified</span> — assembled from the "
                                       "published recipe, not verified upstream");
}

QString ProfileCard::recipeNotes(const recipe::Recipe &r)
{
    QString html =
        QCoreApplication::translate(
            "DeployPage",
            "<p style='background-color:rgba(230,159,0,0.18); padding:4px'><b>⚠ Experimental upstream.</b> %1</p>")
            .arg(r.statusNote.toHtmlEscaped());
    if (!r.scopeNote.isEmpty()) {
        html += QStringLiteral("<p><small>%1</small></p>").arg(r.scopeNote.toHtmlEscaped());
    }
    if (const QString memory = recipe::texts::gpuMemoryByModel(r); !memory.isEmpty()) {
        html += QCoreApplication::translate("DeployPage", "<p><small>GPU memory per GPU: %1.</small></p>")
                    .arg(memory.toHtmlEscaped());
    }
    html += QCoreApplication::translate(
        "DeployPage",
        "<p><small>MiniMax-M3.1-Flash: a multimodal mixture-of-experts model, about 428B parameters with "
        "about 23B active per token, 1M-token context, MSA sparse attention and a bundled DSpark "
        "draft, for servers, not consumer machines. “23B active” does not mean 23B of GPU "
        "memory: every weight is loaded or sharded across the GPUs.</small></p>");
    html += QStringLiteral("<p><small>%1</small></p>").arg(recipe::texts::hubParameterCount().toHtmlEscaped());
    html += QCoreApplication::translate(
                "DeployPage",
                "<p><small>Upstream: <a href='https://huggingface.co/%1'>model card</a> (weights, "
                "parameters, licence) · <a href='https://docs.sglang.io/'>SGLang documentation</a> (MiniMax-M3.1 "
                "Cookbook: hardware matrix, configuration generator) · <a "
                "href='https://docs.sglang.io/cookbook/autoregressive/MiniMax/MiniMax-M3'>MiniMax-M3 self-hosting "
                "baseline</a></small></p>")
                .arg(r.modelRepo.toHtmlEscaped());
    return html;
}

} // namespace flashdeck::ui

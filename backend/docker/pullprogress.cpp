#include "backend/docker/pullprogress.h"

#include <nlohmann/json.hpp>

namespace flashdeck::docker {

bool PullProgress::feed(const QByteArray &chunk)
{
    m_pending += chunk;
    bool changed = false;
    qsizetype nl;
    while ((nl = m_pending.indexOf('\n')) >= 0) {
        const QByteArray text = m_pending.left(nl).trimmed();
        m_pending.remove(0, nl + 1);
        if (!text.isEmpty()) {
            line(text);
            changed = true;
        }
    }
    return changed;
}

void PullProgress::line(const QByteArray &text)
{
    const nlohmann::json j = nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
    if (!j.is_object()) {
        m_malformed = QString::fromUtf8(text.left(200));
        return;
    }
    if (j.contains("error")) {
        const nlohmann::json detail = j.value("errorDetail", nlohmann::json::object());
        m_error = QString::fromStdString(detail.value("message", j.value("error", std::string())));
        return;
    }
    const QString status = QString::fromStdString(j.value("status", std::string()));
    const QString id = QString::fromStdString(j.value("id", std::string()));
    m_lastStatus = status;
    if (status.startsWith(QLatin1String("Digest: "))) {
        m_digest = status.mid(8).trimmed();
        return;
    }
    if (id.isEmpty() || status.startsWith(QLatin1String("Pulling from"))) {
        return;
    }
    Layer &layer = m_layers[id];
    const nlohmann::json detail = j.value("progressDetail", nlohmann::json::object());
    if (status == QLatin1String("Downloading") && detail.is_object()) {
        layer.current = detail.value("current", layer.current);
        layer.total = detail.value("total", layer.total);
    } else if (status == QLatin1String("Download complete") || status == QLatin1String("Verifying Checksum")) {
        layer.current = layer.total;
    } else if (status == QLatin1String("Pull complete") || status == QLatin1String("Already exists")) {
        layer.current = layer.total;
        layer.done = true;
        layer.already = status == QLatin1String("Already exists");
    }
}

qint64 PullProgress::downloadedBytes() const
{
    qint64 sum = 0;
    for (const Layer &l : m_layers) {
        sum += l.current;
    }
    return sum;
}

qint64 PullProgress::totalBytes() const
{
    qint64 sum = 0;
    for (const Layer &l : m_layers) {
        sum += l.total;
    }
    return sum;
}

int PullProgress::layersAlreadyThere() const
{
    int n = 0;
    for (const Layer &l : m_layers) {
        n += l.already ? 1 : 0;
    }
    return n;
}

int PullProgress::layersDone() const
{
    int n = 0;
    for (const Layer &l : m_layers) {
        n += l.done ? 1 : 0;
    }
    return n;
}

QStringList PullProgress::layerLines() const
{
    auto size = [](qint64 b) {
        return b >= 1000000000 ? QStringLiteral("%1 GB").arg(double(b) / 1e9, 0, 'f', 2)
                               : QStringLiteral("%1 MB").arg(double(b) / 1e6, 0, 'f', 1);
    };
    QStringList out;
    for (auto it = m_layers.cbegin(); it != m_layers.cend(); ++it) {
        const Layer &l = it.value();
        const QString state = l.already ? QStringLiteral("already there")
            : l.done                    ? QStringLiteral("done (%1)").arg(size(l.total))
            : l.total > 0               ? QStringLiteral("%1 / %2").arg(size(l.current), size(l.total))
                                        : QStringLiteral("waiting");
        out.append(it.key().left(12) + QStringLiteral("  ") + state);
    }
    return out;
}

} // namespace flashdeck::docker

#include "backend/docker/pullprogress.h"

#include "backend/core/hosttext.h"
#include "backend/core/jsonread.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

namespace flashdeck::docker {

namespace {

// What a daemon sends is input like any other: a field of the wrong type is ignored, never
// thrown (nlohmann's value() throws on a type mismatch — found by fuzz_dockerstreams).
std::string str(const nlohmann::json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/** A byte count: a number from 0 to 10 TB (a layer larger than that is not a real layer). */
std::optional<qint64> byteCount(const nlohmann::json &j, const char *key)
{
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) {
        return std::nullopt;
    }
    const double v = it->get<double>();
    if (!(v >= 0 && v <= 1e13)) {
        return std::nullopt;
    }
    return static_cast<qint64>(v);
}

constexpr qsizetype kMaxLine = 1024 * 1024; // one progress line is ~200 bytes
constexpr qsizetype kMaxLayers = 4096; // real images have tens; a hostile stream could name millions

} // namespace

bool PullProgress::feed(const QByteArray &chunk)
{
    m_pending += chunk;
    if (m_pending.size() > kMaxLine && !m_pending.contains('\n')) {
        // A line that never ends cannot be progress: keep a sample to report, bound the memory.
        m_malformed = hostText(m_pending.left(200), 200);
        m_pending.clear();
        return false;
    }
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
    const nlohmann::json j = jsonread::parse(text.constData(), text.constData() + text.size());
    if (!j.is_object()) {
        m_malformed = hostText(text.left(200), 200);
        return;
    }
    if (j.contains("error")) {
        const auto detail = j.find("errorDetail");
        std::string message = detail != j.end() && detail->is_object() ? str(*detail, "message") : std::string();
        if (message.empty()) {
            message = str(j, "error");
        }
        m_error = message.empty()
            ? QCoreApplication::translate("Docker", "the Docker daemon reported an error without a message")
            : QString::fromStdString(message);
        return;
    }
    const QString status = QString::fromStdString(str(j, "status"));
    const QString id = QString::fromStdString(str(j, "id"));
    m_lastStatus = status;
    if (status.startsWith(QLatin1String("Digest: "))) {
        m_digest = status.mid(8).trimmed();
        return;
    }
    if (id.isEmpty() || status.startsWith(QLatin1String("Pulling from"))) {
        return;
    }
    if (!m_layers.contains(id) && m_layers.size() >= kMaxLayers) {
        m_malformed =
            QCoreApplication::translate("Docker", "more than %1 layers: the rest are not counted").arg(kMaxLayers);
        return;
    }
    Layer &layer = m_layers[id];
    const auto detail = j.find("progressDetail");
    if (status.startsWith(QLatin1String("Retrying in "))) {
        if (!layer.retrying) { // a countdown: one retry, however many lines it takes
            layer.retrying = true;
            ++layer.retries;
            ++m_retries;
        }
        return;
    }
    if (status == QLatin1String("Downloading") && detail != j.end() && detail->is_object()) {
        const qint64 current = byteCount(*detail, "current").value_or(layer.current - layer.resumedAt);
        const qint64 total = byteCount(*detail, "total").value_or(0);
        if (layer.retrying && total > 0 && total < layer.total) {
            layer.resumedAt = layer.total - total; // the rest of the same layer, counted from 0
        } else if (total > 0 && layer.resumedAt == 0) {
            layer.total = total;
        }
        layer.retrying = false;
        const qint64 sofar = layer.resumedAt + current;
        layer.current = layer.total > 0 ? std::min(sofar, layer.total) : sofar;
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

int PullProgress::layersOfUnknownSize() const
{
    int n = 0;
    for (const Layer &l : m_layers) {
        n += !l.already && !l.done && l.total == 0 ? 1 : 0;
    }
    return n;
}

qint64 PullProgress::estimatedTotalBytes() const
{
    qint64 known = 0;
    int sized = 0;
    for (const Layer &l : m_layers) {
        if (l.total > 0) {
            known += l.total;
            ++sized;
        }
    }
    if (sized == 0) {
        return 0;
    }
    return known + qint64(layersOfUnknownSize()) * (known / sized);
}

int PullProgress::layersAlreadyThere() const
{
    int n = 0;
    for (const Layer &l : m_layers) {
        n += l.already ? 1 : 0;
    }
    return n;
}

int PullProgress::layersRetrying() const
{
    int n = 0;
    for (const Layer &l : m_layers) {
        n += l.retrying ? 1 : 0;
    }
    return n;
}

QString PullProgress::summary() const
{
    QString text = QStringLiteral("%1 of %2 layers").arg(layersDone()).arg(layers());
    if (const int now = layersRetrying(); now > 0) {
        text += QCoreApplication::translate("Docker", ", retrying %1 (%2 so far)")
                    .arg(now)
                    .arg(m_retries == 1 ? QStringLiteral("1 retry") : QStringLiteral("%1 retries").arg(m_retries));
    } else if (m_retries > 0) {
        text += m_retries == 1 ? QStringLiteral(", 1 retry") : QStringLiteral(", %1 retries").arg(m_retries);
    }
    return text;
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
        const QString state = l.already ? QCoreApplication::translate("Docker", "already there")
            : l.done                    ? QStringLiteral("done (%1)").arg(size(l.total))
            : l.retrying  ? QStringLiteral("%1 / %2, retrying (%3)").arg(size(l.current), size(l.total)).arg(l.retries)
            : l.total > 0 ? QStringLiteral("%1 / %2").arg(size(l.current), size(l.total))
                          : QStringLiteral("waiting");
        out.append(it.key().left(12) + QStringLiteral("  ") + state);
    }
    return out;
}

} // namespace flashdeck::docker

#include "backend/deploy/pulledimages.h"

#include "backend/core/jsonread.h"
#include "backend/core/lockedfile.h"

#include <QCoreApplication>
#include <QFile>

#include <nlohmann/json.hpp>

#include <limits>

namespace flashdeck::deploy {

PulledImages::PulledImages(QString path)
    : m_path(std::move(path))
{ }

QString PulledImages::fileOf(const QString &deploymentDirectory)
{
    return deploymentDirectory + QStringLiteral("/pulled-images.json");
}

Result<QList<PulledImages::Image>> PulledImages::read() const
{
    QFile f(m_path);
    if (!f.exists()) {
        return QList<Image>{};
    }
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(
            QCoreApplication::translate("Deploy", "Could not read %1: %2").arg(m_path, f.errorString()));
    }
    return parse(f.readAll());
}

Result<QList<PulledImages::Image>> PulledImages::parse(const QByteArray &data) const
{
    const nlohmann::json j = jsonread::parse(data.constData(), data.constData() + data.size());
    if (!j.is_object() || !j.value("images", nlohmann::json()).is_array()) {
        return Status::failure(
            QCoreApplication::translate("Deploy",
                                        "%1 is damaged (not the list of images Flashdeck pulled): move it aside; "
                                        "prune then removes nothing it cannot prove is Flashdeck's.")
                .arg(m_path));
    }
    QList<Image> images;
    for (const nlohmann::json &i : j["images"]) {
        Image image;
        image.reference = QString::fromStdString(jsonread::string(i, "image"));
        image.bytes = jsonread::integer(i, "bytes", 0, std::numeric_limits<qint64>::max()).value_or(0);
        image.pulledAt = QString::fromStdString(jsonread::string(i, "pulled_at"));
        if (image.reference.contains(QLatin1String("@sha256:"))) {
            images.append(image);
        }
    }
    return images;
}

Status PulledImages::record(const Image &image)
{
    return change([&image](QList<Image> &list) {
        list.removeIf([&image](const Image &i) { return i.reference == image.reference; });
        list.append(image);
    });
}

Status PulledImages::forget(const QString &reference)
{
    return change([&reference](QList<Image> &list) {
        list.removeIf([&reference](const Image &i) { return i.reference == reference; });
    });
}

Status PulledImages::change(const std::function<void(QList<Image> &)> &edit) const
{
    // The record as it is now, under its lock: a prune and a deployment of the same host at once
    // keep each other's entries.
    return LockedFile(m_path).update([this, &edit](const std::optional<QByteArray> &current) {
        QList<Image> images;
        if (current) {
            Result<QList<Image>> parsed = parse(*current);
            if (!parsed) {
                return LockedFile::Edit::corrupt(parsed.status());
            }
            images = std::move(parsed).value();
        }
        edit(images);
        nlohmann::json list = nlohmann::json::array();
        for (const Image &i : images) {
            list.push_back(
                {{"image", i.reference.toStdString()}, {"bytes", i.bytes}, {"pulled_at", i.pulledAt.toStdString()}});
        }
        return LockedFile::Edit::replaceWith(QByteArray::fromStdString(nlohmann::json{{"images", list}}.dump(2)));
    });
}

} // namespace flashdeck::deploy

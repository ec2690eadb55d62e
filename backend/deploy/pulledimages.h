#pragma once

#include "backend/core/result.h"

#include <QList>
#include <QString>

#include <functional>

namespace flashdeck::deploy {

/**
 * The images Flashdeck pulled onto one host (`deployments/<host>/pulled-images.json`): what
 * `flashdeck prune` may remove, and nothing else (an image the operator pulled is never ours).
 * An upgrade keeps the old image for its rollback; it stays here until pruned.
 */
class PulledImages final
{
public:
    struct Image
    {
        QString reference; // name@sha256:…
        qint64 bytes = 0; // its size on the host when pulled
        QString pulledAt; // ISO 8601 UTC
    };

    explicit PulledImages(QString path);

    static QString fileOf(const QString &deploymentDirectory);
    /** Every image recorded; a missing file is none; a damaged one fails naming the file. */
    [[nodiscard]] Result<QList<Image>> read() const;
    /** Adds (or refreshes) `image` in the file as it is now (under its lock), written atomically. */
    [[nodiscard]] Status record(const Image &image);
    /** Drops `reference` from the record (it was removed from the host). */
    [[nodiscard]] Status forget(const QString &reference);

private:
    [[nodiscard]] Result<QList<Image>> parse(const QByteArray &data) const;
    [[nodiscard]] Status change(const std::function<void(QList<Image> &)> &edit) const;

    QString m_path;
};

} // namespace flashdeck::deploy

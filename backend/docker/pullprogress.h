#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

namespace flashdeck::docker {

/**
 * Folds the JSON lines of `POST /images/create` into byte progress: per layer
 * `progressDetail.current/total` while downloading (extraction does not count twice), the
 * final `Digest: sha256:…`, and `error`/`errorDetail`. Feed it raw chunks; lines may split.
 *
 * dockerd retries a broken layer download ("Retrying in 5 seconds", counting down) and resumes
 * it with a range request, after which it reports the layer's `total` as the bytes still
 * missing and `current` from 0: a total that shrinks is a resume, not a new, smaller layer.
 * A layer is done only at "Pull complete" (or "Already exists").
 */
class PullProgress final
{
public:
    /** Returns true when at least one complete line changed the state. */
    bool feed(const QByteArray &chunk);

    qint64 downloadedBytes() const;
    /** Sum of the layer sizes known so far (grows as layers report their totals). */
    qint64 totalBytes() const;
    /**
     * Layers to download whose size dockerd has not said yet: it names every layer at once
     * ("Pulling fs layer", "Waiting") but gives a size only when that layer's download starts,
     * three at a time. Nothing before the pull tells the sizes (the Engine API's distribution
     * inspect gives the manifest's digest, not its layers).
     */
    int layersOfUnknownSize() const;
    /**
     * The whole download as best known now: the known sizes, and for each layer of unknown size
     * the mean of the known ones. Equals totalBytes() once every size is known; 0 before any is.
     */
    qint64 estimatedTotalBytes() const;
    int layers() const { return int(m_layers.size()); }
    int layersDone() const;
    /** Layers the host had already ("Already exists"): an interrupted pull resumes from them. */
    int layersAlreadyThere() const;
    /** Times dockerd started retrying a layer's download, over all layers. */
    int retries() const { return m_retries; }
    /** Layers waiting to retry now. */
    int layersRetrying() const;
    /** "3 of 14 layers", with ", retrying 1 (2 retries so far)" while dockerd retries. */
    QString summary() const;
    /** One line per layer, in id order: "1a2b3c4d5e6f  412.0 MB / 1.21 GB" (or done / already there). */
    QStringList layerLines() const;
    QString digest() const { return m_digest; }
    QString error() const { return m_error; }
    QString lastStatus() const { return m_lastStatus; }
    /** A line that was not JSON (kept to report, never fatal by itself). */
    QString malformed() const { return m_malformed; }

private:
    struct Layer
    {
        qint64 current = 0;
        qint64 total = 0;
        qint64 resumedAt = 0; // bytes fetched before a retry: dockerd counts the rest anew
        bool done = false;
        bool already = false;
        bool retrying = false;
        int retries = 0;
    };
    void line(const QByteArray &text);

    QByteArray m_pending;
    QMap<QString, Layer> m_layers;
    QString m_digest;
    QString m_error;
    QString m_lastStatus;
    QString m_malformed;
    int m_retries = 0;
};

} // namespace flashdeck::docker

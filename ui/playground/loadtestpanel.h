#pragma once

#include <QPointer>
#include <QWidget>

#include <memory>

class QCheckBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace flashdeck {
namespace chat {
class ChatClient;
class LoadTest;
struct LoadTestReport;
} // namespace chat
namespace fleet {
class HostSession;
} // namespace fleet
namespace metrics {
class ServerSampler;
class TimeSeries;
} // namespace metrics
} // namespace flashdeck

namespace flashdeck::ui {

class TimeChart;

/**
 * The Playground's "Load test" tab (issue 8, F25): concurrency, prompt and output lengths and
 * a duration; Start runs chat::LoadTest through the page's client while a server sampler
 * reads the server's KV use and queue each second; live figures and two charts (tokens/s, KV
 * use); the result exports as JSON or CSV.
 */
class LoadTestPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit LoadTestPanel(QWidget *parent = nullptr);
    ~LoadTestPanel() override;

    /** Where requests go (null: nowhere, with the reason shown); `session` samples the server meanwhile. */
    void setTarget(chat::ChatClient *client, fleet::HostSession *session, quint16 port, const QString &model,
                   const QString &apiKey, const QString &unavailable = {});
    void setApiKey(const QString &apiKey) { m_apiKey = apiKey; }
    /** The deployment's profile (empty: unknown): the Low-Latency one is warned of before and after a run. */
    void setProfile(const QString &profileId);

    /** Starts with the form's values (as the Start button does). */
    void start();
    void stop();
    bool running() const;
    void setValues(int concurrency, int promptTokens, int outputTokens, int durationS);
    /** The figures of `report`, live or `final`; its notes and errors wrap in the panel's width. */
    void showReport(const chat::LoadTestReport &report, bool final);

Q_SIGNALS:
    void finished();

private:
    void exportReport();

    QPointer<chat::ChatClient> m_client;
    QPointer<fleet::HostSession> m_hostSession;
    quint16 m_port = 0;
    QString m_model;
    QString m_apiKey;
    QString m_profileId;
    std::unique_ptr<chat::LoadTest> m_test;
    std::unique_ptr<metrics::ServerSampler> m_sampler;
    std::unique_ptr<chat::LoadTestReport> m_last;
    std::unique_ptr<metrics::TimeSeries> m_tokensSeries;
    std::unique_ptr<metrics::TimeSeries> m_kvSeries;
    qint64 m_startedMs = 0;

    QSpinBox *m_concurrency;
    QSpinBox *m_promptTokens;
    QSpinBox *m_outputTokens;
    QSpinBox *m_duration;
    QCheckBox *m_thinking;
    QLabel *m_profileWarning;
    QPushButton *m_start;
    QPushButton *m_stop;
    QPushButton *m_export;
    QLabel *m_status;
    QLabel *m_figures;
    TimeChart *m_tokensChart;
    TimeChart *m_kvChart;
};

} // namespace flashdeck::ui

#include "ui/playground/loadtestpanel.h"

#include "backend/chat/chatclient.h"
#include "backend/chat/loadtest.h"
#include "backend/core/atomicfile.h"
#include "backend/fleet/hostsession.h"
#include "backend/metrics/serversampler.h"
#include "backend/metrics/timeseries.h"
#include "backend/recipe/recipetexts.h"
#include "ui/charts/timechart.h"

#include <QCheckBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace flashdeck::ui {

namespace {

QString ms(const std::optional<double> &v)
{
    return v ? QObject::tr("%1 ms").arg(*v, 0, 'f', 0) : QObject::tr("—");
}

QSpinBox *spinBox(QWidget *parent, const QString &name, int min, int max, int value, const QString &suffix = {})
{
    auto *s = new QSpinBox(parent);
    s->setObjectName(name);
    s->setRange(min, max);
    s->setValue(value);
    s->setSuffix(suffix);
    s->setGroupSeparatorShown(true);
    return s;
}

} // namespace

LoadTestPanel::LoadTestPanel(QWidget *parent)
    : QWidget(parent)
    , m_tokensSeries(std::make_unique<metrics::TimeSeries>())
    , m_kvSeries(std::make_unique<metrics::TimeSeries>())
{
    auto *layout = new QHBoxLayout(this);
    auto *left = new QVBoxLayout;
    //: The load a load test applies (concurrency, lengths, duration), not loading a file.
    auto *form = new QGroupBox(tr("Load"), this);
    auto *f = new QFormLayout(form);
    m_concurrency = spinBox(form, QStringLiteral("concurrency"), 1, 1024, 8);
    m_promptTokens = spinBox(form, QStringLiteral("promptTokens"), 1, 1000000, 2048, tr(" tokens"));
    m_outputTokens = spinBox(form, QStringLiteral("outputTokens"), 1, 1000000, 512, tr(" tokens"));
    m_duration = spinBox(form, QStringLiteral("duration"), 1, 86400, 60, tr(" s"));
    m_thinking = new QCheckBox(tr("Thinking"), form);
    m_thinking->setChecked(false);
    f->addRow(tr("Requests in flight:"), m_concurrency);
    f->addRow(tr("Prompt:"), m_promptTokens);
    f->addRow(tr("Output:"), m_outputTokens);
    f->addRow(tr("Duration:"), m_duration);
    f->addRow(m_thinking);
    auto *note = new QLabel(recipe::texts::publishedFiguresNote(), form);
    note->setObjectName(QStringLiteral("loadTestNote"));
    note->setWordWrap(true);
    f->addRow(note);
    m_profileWarning = new QLabel(form);
    m_profileWarning->setObjectName(QStringLiteral("loadTestProfileWarning"));
    m_profileWarning->setWordWrap(true);
    m_profileWarning->setStyleSheet(QStringLiteral("background-color: rgba(230,159,0,0.18); padding: 4px"));
    m_profileWarning->hide();
    f->addRow(m_profileWarning);
    left->addWidget(form);
    auto *buttons = new QHBoxLayout;
    m_start = new QPushButton(tr("Start"), this);
    m_start->setObjectName(QStringLiteral("startLoadTest"));
    m_stop = new QPushButton(tr("Stop"), this);
    m_export = new QPushButton(tr("Export…"), this);
    buttons->addWidget(m_start);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_export);
    left->addLayout(buttons);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("loadTestStatus"));
    m_status->setWordWrap(true);
    left->addWidget(m_status);
    m_figures = new QLabel(this);
    m_figures->setObjectName(QStringLiteral("loadTestFigures"));
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->setTextFormat(Qt::RichText);
    // Its notes and errors are sentences: unwrapped, one of them widened the window past a
    // 1366 px screen (to 1616 px) and pushed the charts and the window's buttons off it.
    m_figures->setWordWrap(true);
    left->addWidget(m_figures);
    left->addStretch(1);
    layout->addLayout(left, 2);

    auto *charts = new QVBoxLayout;
    m_tokensChart = new TimeChart(tr("Generated tokens/s (all requests)"), tr("tokens/s"), this);
    m_tokensChart->addLine(tr("tokens/s"), QColor(0x1e, 0x88, 0xe5), [this] { return m_tokensSeries.get(); });
    m_kvChart = new TimeChart(tr("Server KV pool use"), QStringLiteral("%"), this);
    m_kvChart->addLine(
        tr("KV use"), QColor(0x8e, 0x24, 0xaa), [this] { return m_kvSeries.get(); }, 100.0);
    m_kvChart->setFixedRange(0, 100);
    charts->addWidget(m_tokensChart);
    charts->addWidget(m_kvChart);
    layout->addLayout(charts, 3);

    connect(m_start, &QPushButton::clicked, this, &LoadTestPanel::start);
    connect(m_stop, &QPushButton::clicked, this, &LoadTestPanel::stop);
    connect(m_export, &QPushButton::clicked, this, &LoadTestPanel::exportReport);
    m_stop->setEnabled(false);
    m_export->setEnabled(false);
}

LoadTestPanel::~LoadTestPanel() = default;

void LoadTestPanel::setTarget(chat::ChatClient *client, fleet::HostSession *session, quint16 port, const QString &model,
                              const QString &apiKey, const QString &unavailable)
{
    stop();
    if (!client) {
        setProfile(QString()); // no server, no profile (the page sets it with the next target)
    }
    m_client = client;
    m_hostSession = session;
    m_port = port;
    m_model = model;
    m_apiKey = apiKey;
    m_start->setEnabled(client != nullptr);
    m_status->setText(client ? tr("Ready: %1 requests at once through the SSH tunnel.").arg(m_concurrency->value())
                             : unavailable);
}

void LoadTestPanel::setProfile(const QString &profileId)
{
    m_profileId = profileId;
    const QString warning = recipe::texts::loadTestProfileWarning(profileId);
    m_profileWarning->setText(QStringLiteral("⚠ ") + warning);
    m_profileWarning->setVisible(!warning.isEmpty());
}

void LoadTestPanel::setValues(int concurrency, int promptTokens, int outputTokens, int durationS)
{
    m_concurrency->setValue(concurrency);
    m_promptTokens->setValue(promptTokens);
    m_outputTokens->setValue(outputTokens);
    m_duration->setValue(durationS);
}

bool LoadTestPanel::running() const
{
    return m_test && m_test->running();
}

void LoadTestPanel::start()
{
    if (!m_client || running()) {
        return;
    }
    chat::LoadTestConfig config;
    config.concurrency = m_concurrency->value();
    config.promptTokens = m_promptTokens->value();
    config.outputTokens = m_outputTokens->value();
    config.durationS = m_duration->value();
    config.model = m_model;
    config.thinking = m_thinking->isChecked();
    config.profileId = m_profileId;
    m_tokensSeries = std::make_unique<metrics::TimeSeries>();
    m_kvSeries = std::make_unique<metrics::TimeSeries>();
    m_test = std::make_unique<chat::LoadTest>(*m_client, config);
    if (fleet::HostSession *session = m_hostSession.data()) {
        m_sampler = session->serverSampler(m_port, m_apiKey, 1000);
        connect(m_sampler.get(), &metrics::ServerSampler::sampled, m_test.get(),
                [this](const metrics::ServerSnapshot &s, const metrics::ServerRates &) {
                    m_test->setServerLoad(s.tokenUsage, s.queued, s.running, s.genThroughput);
                });
        m_sampler->start();
    }
    connect(m_test.get(), &chat::LoadTest::progress, this,
            [this](const chat::LoadTestReport &r) { showReport(r, false); });
    connect(m_test.get(), &chat::LoadTest::finished, this, [this](const chat::LoadTestReport &r) {
        showReport(r, true);
        if (m_sampler) {
            m_sampler->stop();
        }
        m_start->setEnabled(m_client != nullptr);
        m_stop->setEnabled(false);
        m_export->setEnabled(true);
        Q_EMIT finished();
    });
    m_startedMs = QDateTime::currentMSecsSinceEpoch();
    m_start->setEnabled(false);
    m_stop->setEnabled(true);
    m_export->setEnabled(false);
    m_status->setText(tr("Running…"));
    m_test->start();
}

void LoadTestPanel::stop()
{
    if (m_test && m_test->running()) {
        m_test->stop();
    }
}

void LoadTestPanel::showReport(const chat::LoadTestReport &r, bool final)
{
    m_last = std::make_unique<chat::LoadTestReport>(r);
    const chat::LoadTestTick *t = r.ticks.isEmpty() ? nullptr : &r.ticks.last();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (t && !final) {
        m_tokensSeries->append(now, t->tokensPerSecond);
        if (t->kvUsage) {
            m_kvSeries->append(now, *t->kvUsage);
        }
    }
    const qint64 window = std::max<qint64>(60000, now - m_startedMs + 5000);
    m_tokensChart->refresh(now, window);
    m_kvChart->refresh(now, window);
    m_status->setText(final ? tr("Finished after %1 s.").arg(r.elapsedS, 0, 'f', 1)
                            : tr("Running: %1 s of %2.").arg(r.elapsedS, 0, 'f', 0).arg(r.config.durationS));
    QString rows;
    auto row = [&rows](const QString &k, const QString &v) {
        rows += QStringLiteral("<tr><td>%1</td><td align='right'><b>%2</b></td></tr>").arg(k, v);
    };
    row(tr("In flight"), QString::number(r.inFlight));
    row(tr("Completed"), tr("%1 (%2/s)").arg(r.completed).arg(r.requestsPerSecond, 0, 'f', 2));
    row(tr("Failed"), QString::number(r.failed));
    row(tr("TTFT p50 / p95"), ms(r.ttftP50Ms) + QStringLiteral(" / ") + ms(r.ttftP95Ms));
    row(tr("Inter-token p50 / p95"), ms(r.itlP50Ms) + QStringLiteral(" / ") + ms(r.itlP95Ms));
    row(tr("Tokens/s, client"), QString::number(r.tokensPerSecond, 'f', 1));
    row(tr("Tokens/s, server"),
        r.serverTokensPerSecond ? QString::number(*r.serverTokensPerSecond, 'f', 1) : QStringLiteral("–"));
    row(tr("Server KV use"), t && t->kvUsage ? QStringLiteral("%1 %").arg(*t->kvUsage * 100, 0, 'f', 1) : tr("—"));
    row(tr("Server queue"), t && t->queued ? QString::number(*t->queued) : tr("—"));
    QString errors;
    if (!r.aborted.isEmpty()) {
        errors += QStringLiteral("<p style='color:#c62828'><b>%1</b></p>").arg(r.aborted.toHtmlEscaped());
    }
    for (const QString &n : r.notes()) {
        if (n == recipe::texts::publishedFiguresNote()) {
            continue; // on the form all along
        }
        errors += QStringLiteral("<p>%1</p>").arg(n.toHtmlEscaped());
    }
    for (const QString &e : r.errors) {
        errors += QStringLiteral("<p style='color:#c62828'>%1</p>").arg(e.toHtmlEscaped());
    }
    m_figures->setText(QStringLiteral("<table cellspacing='4'>%1</table>%2").arg(rows, errors));
}

void LoadTestPanel::exportReport()
{
    if (!m_last) {
        return;
    }
    QString filter;
    const QString file = QFileDialog::getSaveFileName(this, tr("Export the load test"), QStringLiteral("loadtest.json"),
                                                      tr("JSON (*.json);;CSV, one row per request (*.csv)"), &filter);
    if (file.isEmpty()) {
        return;
    }
    const bool csv = file.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive) || filter.contains(QLatin1String("CSV"));
    const QByteArray bytes = csv ? m_last->toCsv() : m_last->toJson();
    if (const Status s = writeFileAtomically(file, bytes); !s) {
        QMessageBox::warning(this, tr("Export failed"), tr("Cannot write %1: %2.").arg(file, s.message()));
    }
}

} // namespace flashdeck::ui

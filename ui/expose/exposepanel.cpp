#include "ui/expose/exposepanel.h"

#include "backend/core/apppaths.h"
#include "backend/expose/cidr.h"
#include "backend/expose/gatewayoperation.h"
#include "backend/expose/gatewaypreview.h"
#include "backend/expose/gatewayrecordwatch.h"
#include "backend/fleet/fleetwatcher.h"

#include <QApplication>
#include <QButtonGroup>
#include <QClipboard>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace flashdeck::ui {

namespace {

/** The check's steps in the order it runs them, with their titles before they report. */
QList<std::pair<QString, QString>> checkSteps()
{
    return {{QStringLiteral("expose.tls"), ExposePanel::tr("TLS with the recorded key")},
            {QStringLiteral("expose.nokey"), ExposePanel::tr("Refused without the API key")},
            {QStringLiteral("expose.key"), ExposePanel::tr("Served with the API key")},
            {QStringLiteral("expose.media"), ExposePanel::tr("A remote image URL refused")},
            {QStringLiteral("expose.serverport"), ExposePanel::tr("The server's own port not reachable")},
            {QStringLiteral("expose.rate"), ExposePanel::tr("429 past the rate")}};
}

QSpinBox *spin(int min, int max, int value, QWidget *parent)
{
    auto *s = new QSpinBox(parent);
    s->setRange(min, max);
    s->setValue(value);
    return s;
}

} // namespace

ExposePanel::ExposePanel(const AppPaths &paths, fleet::FleetWatcher &watcher, const QString &host, QWidget *parent)
    : QDialog(parent)
    , m_paths(paths)
    , m_watcher(watcher)
    , m_host(host)
    , m_watch(new expose::GatewayRecordWatch(paths, this))
{
    setObjectName(QStringLiteral("exposePanel"));
    setWindowTitle(tr("Open %1 to the team").arg(host));
    const expose::GatewayOptions defaults;
    m_allow = new QLineEdit(this);
    m_listen = new QLineEdit(defaults.listenAddress, this);
    m_port = spin(1, 65535, defaults.listenPort, this);
    m_rate = new QLineEdit(defaults.rate.toString(), this);
    m_burst = spin(0, 100000, defaults.burst, this);
    m_maxConcurrent = spin(1, 100000, defaults.maxConcurrent, this);
    m_maxBody = new QLineEdit(QStringLiteral("32m"), this);
    m_media = new QLineEdit(this);
    m_checkAt = new QLineEdit(this);
    m_problem = new QLabel(this);
    m_status = new QLabel(this);

    auto *columns = new QHBoxLayout;
    columns->addWidget(buildForm(), 5);
    m_right = new QStackedWidget(this);
    m_right->addWidget(buildPreviewPage());
    m_right->addWidget(buildExposedPage());
    columns->addWidget(m_right, 6);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    m_problem->setObjectName(QStringLiteral("exposeProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setStyleSheet(QStringLiteral("color: #b3261e;"));
    layout->addWidget(m_problem);
    m_status->setObjectName(QStringLiteral("exposeStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    auto *bar = new QWidget(this);
    buildButtons(bar);
    layout->addWidget(bar);

    wire();
    m_watch->setHost(host);
    resize(1120, 660);
    readRecord();
    refreshPreview();
}

ExposePanel::~ExposePanel()
{
    // The operation is the session's child: it may outlive the panel. Nothing of it reaches the
    // panel once the panel goes (its members are gone before QObject's destructor would cut the
    // connections); a placement still running is cancelled, and the operation goes once idle.
    expose::GatewayOperation *op = m_operation;
    if (op == nullptr) {
        return;
    }
    op->disconnect(this);
    if (!op->isRunning()) {
        op->deleteLater();
        return;
    }
    QObject::connect(op, &expose::GatewayOperation::phaseChanged, op, [op](expose::GatewayPhase phase) {
        if (phase == expose::GatewayPhase::Idle) {
            op->deleteLater();
        }
    });
    op->cancel();
}

QWidget *ExposePanel::buildForm()
{
    auto *box = new QGroupBox(tr("Who may connect, and how"), this);
    auto *form = new QFormLayout(box);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    m_allow->setObjectName(QStringLiteral("exposeAllow"));
    m_allow->setPlaceholderText(tr("10.20.0.0/16, 192.168.1.0/24"));
    auto *allowLabel = new QLabel(tr("Allowed &networks:"), box);
    allowLabel->setBuddy(m_allow);
    form->addRow(allowLabel, m_allow);
    auto *why = new QLabel(tr("Required. Only these source networks reach the gateway; every other address gets "
                              "403. Without them anyone who can reach the host's port could use the server."),
                           box);
    why->setWordWrap(true);
    why->setStyleSheet(QStringLiteral("color: palette(placeholder-text);"));
    form->addRow(QString(), why);

    auto *listenRow = new QHBoxLayout;
    m_listen->setObjectName(QStringLiteral("exposeListen"));
    m_port->setObjectName(QStringLiteral("exposePort"));
    m_port->setAccessibleName(tr("Port"));
    listenRow->addWidget(m_listen, 1);
    listenRow->addWidget(new QLabel(tr("port"), box));
    listenRow->addWidget(m_port);
    auto *listenLabel = new QLabel(tr("&Listen on:"), box);
    listenLabel->setBuddy(m_listen);
    form->addRow(listenLabel, listenRow);

    auto *rateRow = new QHBoxLayout;
    m_rate->setObjectName(QStringLiteral("exposeRate"));
    m_burst->setObjectName(QStringLiteral("exposeBurst"));
    rateRow->addWidget(m_rate, 1);
    auto *burstLabel = new QLabel(tr("bur&st"), box);
    burstLabel->setBuddy(m_burst);
    rateRow->addWidget(burstLabel);
    rateRow->addWidget(m_burst);
    auto *rateLabel = new QLabel(tr("&Rate per client:"), box);
    rateLabel->setBuddy(m_rate);
    form->addRow(rateLabel, rateRow);

    auto *limitsRow = new QHBoxLayout;
    m_maxConcurrent->setObjectName(QStringLiteral("exposeMaxConcurrent"));
    m_maxBody->setObjectName(QStringLiteral("exposeMaxBody"));
    limitsRow->addWidget(m_maxConcurrent);
    auto *bodyLabel = new QLabel(tr("largest &body"), box);
    bodyLabel->setBuddy(m_maxBody);
    limitsRow->addWidget(bodyLabel);
    limitsRow->addWidget(m_maxBody, 1);
    auto *concurrentLabel = new QLabel(tr("In fligh&t at most:"), box);
    concurrentLabel->setBuddy(m_maxConcurrent);
    form->addRow(concurrentLabel, limitsRow);

    m_media->setObjectName(QStringLiteral("exposeMedia"));
    m_media->setPlaceholderText(tr("none: remote image URLs refused (e.g. images.example.org, *.example.org)"));
    auto *mediaLabel = new QLabel(tr("&Media hosts:"), box);
    mediaLabel->setBuddy(m_media);
    form->addRow(mediaLabel, m_media);
    form->addRow(tr("TLS:"), buildTls(box));

    m_checkAt->setObjectName(QStringLiteral("exposeCheckAt"));
    m_checkAt->setPlaceholderText(tr("ADDR:PORT, through a NAT or a tunnel (optional)"));
    auto *checkLabel = new QLabel(tr("Check &at:"), box);
    checkLabel->setBuddy(m_checkAt);
    form->addRow(checkLabel, m_checkAt);
    return box;
}

QWidget *ExposePanel::buildTls(QWidget *parent)
{
    auto *tls = new QWidget(parent);
    auto *grid = new QFormLayout(tls);
    grid->setContentsMargins(0, 0, 0, 0);
    m_selfSigned = new QRadioButton(tr("Self-signed, made on the &host (its key never leaves it)"), tls);
    m_ownCertificate = new QRadioButton(tr("&Your certificate and key:"), tls);
    m_selfSigned->setObjectName(QStringLiteral("exposeSelfSigned"));
    m_ownCertificate->setObjectName(QStringLiteral("exposeOwnCertificate"));
    m_selfSigned->setChecked(true);
    auto *group = new QButtonGroup(tls);
    group->addButton(m_selfSigned);
    group->addButton(m_ownCertificate);
    grid->addRow(m_selfSigned);
    grid->addRow(m_ownCertificate);
    m_certFile = new QLineEdit(tls);
    m_keyFile = new QLineEdit(tls);
    m_certFile->setObjectName(QStringLiteral("exposeCertFile"));
    m_keyFile->setObjectName(QStringLiteral("exposeKeyFile"));
    m_keyFile->setPlaceholderText(tr("PEM, without a passphrase; copied 0600, never logged"));
    m_certChoose = new QPushButton(tr("Choose…"), tls);
    m_keyChoose = new QPushButton(tr("Choose…"), tls);
    const auto fileRow = [&](QLineEdit *edit, QPushButton *choose, const QString &label) {
        auto *row = new QHBoxLayout;
        row->addWidget(edit, 1);
        row->addWidget(choose);
        auto *l = new QLabel(label, tls);
        l->setBuddy(edit);
        grid->addRow(l, row);
    };
    fileRow(m_certFile, m_certChoose, tr("Cert&ificate:"));
    fileRow(m_keyFile, m_keyChoose, tr("&Key:"));
    return tls;
}

QWidget *ExposePanel::buildPreviewPage()
{
    auto *box = new QGroupBox(tr("What will be placed"), this);
    auto *layout = new QVBoxLayout(box);
    m_preview = new QPlainTextEdit(box);
    m_preview->setObjectName(QStringLiteral("exposePreview"));
    m_preview->setReadOnly(true);
    m_preview->setTabChangesFocus(true);
    layout->addWidget(m_preview);
    return box;
}

QWidget *ExposePanel::buildExposedPage()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *box = new QGroupBox(tr("Exposed"), page);
    auto *form = new QFormLayout(box);
    m_url = new QLabel(box);
    m_url->setObjectName(QStringLiteral("exposeUrl"));
    m_url->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("URL:"), m_url);
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_pin = new QLineEdit(box);
    m_pin->setObjectName(QStringLiteral("exposePin"));
    m_pin->setReadOnly(true);
    m_pin->setFont(fixed);
    form->addRow(tr("Public-key pin:"), m_pin);
    m_details = new QLabel(box);
    m_details->setObjectName(QStringLiteral("exposeDetails"));
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(m_details);
    auto *curlRow = new QHBoxLayout;
    m_curl = new QLineEdit(box);
    m_curl->setObjectName(QStringLiteral("exposeCurl"));
    m_curl->setReadOnly(true);
    m_curl->setFont(fixed);
    m_copy = new QPushButton(tr("&Copy"), box);
    m_copy->setObjectName(QStringLiteral("exposeCopy"));
    curlRow->addWidget(m_curl, 1);
    curlRow->addWidget(m_copy);
    form->addRow(tr("A colleague runs:"), curlRow);
    layout->addWidget(box);

    auto *checkBox = new QGroupBox(tr("Checked from this machine"), page);
    auto *checkLayout = new QVBoxLayout(checkBox);
    m_steps = new QTreeWidget(checkBox);
    m_steps->setObjectName(QStringLiteral("exposeSteps"));
    m_steps->setColumnCount(2);
    m_steps->setHeaderLabels({tr("Step"), tr("Seen")});
    m_steps->setRootIsDecorated(false);
    m_steps->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_steps->header()->setStretchLastSection(true);
    checkLayout->addWidget(m_steps);
    layout->addWidget(checkBox, 1);
    resetSteps();
    return page;
}

void ExposePanel::buildButtons(QWidget *bar)
{
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    m_expose = new QPushButton(tr("&Expose"), bar);
    m_cancel = new QPushButton(tr("Cancel"), bar);
    m_check = new QPushButton(tr("Check a&gain"), bar);
    m_unexpose = new QPushButton(tr("&Unexpose"), bar);
    m_close = new QPushButton(tr("Close"), bar);
    m_expose->setObjectName(QStringLiteral("exposeRun"));
    m_cancel->setObjectName(QStringLiteral("exposeCancel"));
    m_check->setObjectName(QStringLiteral("exposeCheck"));
    m_unexpose->setObjectName(QStringLiteral("exposeUnexpose"));
    m_close->setObjectName(QStringLiteral("exposeClose"));
    m_expose->setDefault(true);
    m_cancel->setToolTip(tr("Stop placing the gateway and remove what was placed (Escape)"));
    row->addWidget(m_expose);
    row->addWidget(m_cancel);
    row->addWidget(m_check);
    row->addWidget(m_unexpose);
    row->addStretch(1);
    row->addWidget(m_close);
}

void ExposePanel::wire()
{
    // An edit makes the last outcome's words old: the field's own words (or none) replace them.
    const auto edited = [this] {
        m_outcome.clear();
        refreshPreview();
    };
    for (QLineEdit *edit : {m_allow, m_listen, m_rate, m_maxBody, m_media, m_certFile, m_keyFile}) {
        connect(edit, &QLineEdit::textEdited, this, edited);
        connect(edit, &QLineEdit::textChanged, this, &ExposePanel::refreshPreview);
    }
    for (QSpinBox *s : {m_port, m_burst, m_maxConcurrent}) {
        connect(s, &QSpinBox::valueChanged, this, &ExposePanel::refreshPreview);
    }
    connect(m_ownCertificate, &QRadioButton::toggled, this, &ExposePanel::refreshPreview);
    connect(m_certChoose, &QPushButton::clicked, this,
            [this] { chooseFile(m_certFile, tr("Choose the certificate (PEM)")); });
    connect(m_keyChoose, &QPushButton::clicked, this,
            [this] { chooseFile(m_keyFile, tr("Choose the certificate's private key (PEM)")); });
    connect(m_expose, &QPushButton::clicked, this, &ExposePanel::exposeNow);
    connect(m_cancel, &QPushButton::clicked, this, &ExposePanel::cancelNow);
    connect(m_check, &QPushButton::clicked, this, &ExposePanel::checkNow);
    connect(m_unexpose, &QPushButton::clicked, this, &ExposePanel::unexposeNow);
    connect(m_close, &QPushButton::clicked, this, &ExposePanel::reject);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_curl->text());
        say(tr("The curl line was copied. It names $SGLANG_API_KEY: the key itself is never shown here."));
    });
    connect(m_watch, &expose::GatewayRecordWatch::changed, this, &ExposePanel::readRecord);
    setTabOrder(m_allow, m_listen);
    setTabOrder(m_listen, m_port);
    setTabOrder(m_port, m_rate);
    setTabOrder(m_rate, m_burst);
    setTabOrder(m_burst, m_maxConcurrent);
    setTabOrder(m_maxConcurrent, m_maxBody);
    setTabOrder(m_maxBody, m_media);
    setTabOrder(m_media, m_selfSigned);
    setTabOrder(m_selfSigned, m_ownCertificate);
    setTabOrder(m_ownCertificate, m_certFile);
    setTabOrder(m_certFile, m_certChoose);
    setTabOrder(m_certChoose, m_keyFile);
    setTabOrder(m_keyFile, m_keyChoose);
    setTabOrder(m_keyChoose, m_checkAt);
    setTabOrder(m_checkAt, m_expose);
}

void ExposePanel::chooseFile(QLineEdit *into, const QString &title)
{
    const QString file = QFileDialog::getOpenFileName(this, title, into->text(),
                                                      tr("PEM files (*.pem *.crt *.key);;"
                                                         "All files (*)"));
    if (!file.isEmpty()) {
        into->setText(file);
        m_ownCertificate->setChecked(true);
    }
}

void ExposePanel::refreshPreview()
{
    const Result<expose::GatewayOptions> o = options();
    m_previewValid = o.isOk();
    const Result<int> upstream = expose::GatewayOperation::upstreamPort(m_paths, m_host);
    if (!m_record) {
        m_problem->setText(!upstream ? upstream.message() : !o ? o.message() : m_outcome);
    }
    m_preview->setPlainText(o ? expose::GatewayPreview::text(o.value())
                              : tr("The preview appears once the fields above say who may connect and how."));
    m_certFile->setEnabled(m_ownCertificate->isChecked() && !m_record && !isRunning());
    m_keyFile->setEnabled(m_certFile->isEnabled());
    m_certChoose->setEnabled(m_certFile->isEnabled());
    m_keyChoose->setEnabled(m_certFile->isEnabled());
    updateButtons();
}

void ExposePanel::updateButtons()
{
    const bool running = isRunning();
    const bool placing = m_operation && (m_operation->phase() == expose::GatewayPhase::Placing);
    const bool deployed = expose::GatewayOperation::upstreamPort(m_paths, m_host).isOk();
    m_expose->setEnabled(!running && !m_record && m_previewValid && deployed);
    m_cancel->setEnabled(placing);
    m_check->setEnabled(!running && m_record.has_value());
    m_unexpose->setEnabled(!running && m_record.has_value());
    m_copy->setEnabled(m_record.has_value());
    const bool editable = !running && !m_record;
    for (QWidget *w : std::initializer_list<QWidget *>{m_allow, m_listen, m_port, m_rate, m_burst, m_maxConcurrent,
                                                       m_maxBody, m_media, m_selfSigned, m_ownCertificate}) {
        w->setEnabled(editable);
    }
    m_expose->setDefault(!m_record);
    m_check->setDefault(m_record.has_value());
}

void ExposePanel::resetSteps()
{
    m_steps->clear();
    m_stepItems.clear();
    m_stepStatus.clear();
    for (const auto &[id, title] : checkSteps()) {
        auto *item = new QTreeWidgetItem(m_steps, {title, QString()});
        item->setIcon(
            0, QIcon(QStringLiteral(":/icons/status-%1.svg").arg(recipe::stepStatusName(recipe::StepStatus::Pending))));
        m_stepItems.insert(id, item);
        m_stepStatus.insert(id, recipe::StepStatus::Pending);
    }
}

void ExposePanel::applyStep(const recipe::StepRecord &record)
{
    QTreeWidgetItem *item = m_stepItems.value(record.step);
    if (item == nullptr) {
        item = new QTreeWidgetItem(m_steps);
        m_stepItems.insert(record.step, item);
    }
    m_stepStatus.insert(record.step, record.status);
    item->setText(0, record.title);
    item->setText(1,
                  record.status == recipe::StepStatus::Pass || record.fix.isEmpty()
                      ? record.seen
                      : record.seen + QStringLiteral(" — ") + record.fix);
    item->setToolTip(1, tr("Expected: %1\nSeen: %2").arg(record.expected, record.seen));
    item->setIcon(0, QIcon(QStringLiteral(":/icons/status-%1.svg").arg(recipe::stepStatusName(record.status))));
}

recipe::StepStatus ExposePanel::stepStatus(const QString &step) const
{
    return m_stepStatus.value(step, recipe::StepStatus::Pending);
}

void ExposePanel::say(const QString &status, const QString &problem)
{
    m_status->setText(status);
    m_outcome = problem;
    m_problem->setText(problem);
}

} // namespace flashdeck::ui

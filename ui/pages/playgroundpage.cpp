#include "ui/pages/playgroundpage.h"

#include "backend/chat/chatclient.h"
#include "backend/chat/chatsession.h"
#include "backend/chat/chattarget.h"
#include "backend/chat/imageprobe.h"
#include "backend/chat/mediafetcher.h"
#include "backend/chat/mediapolicy.h"
#include "backend/core/apppaths.h"
#include "backend/core/atomicfile.h"
#include "backend/core/settings.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostsession.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/recipe/deployment.h"
#include "backend/security/secretstore.h"
#include "ui/playground/apikeylookup.h"
#include "ui/playground/exchangeview.h"
#include "ui/playground/loadtestpanel.h"
#include "ui/playground/parametersbox.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QImage>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace flashdeck::ui {

PlaygroundPage::PlaygroundPage(const AppPaths &paths, fleet::FleetWatcher &watcher, Settings &settings, QWidget *parent)
    : QWidget(parent)
    , m_paths(paths)
    , m_watcher(watcher)
    , m_settings(settings)
    , m_session(std::make_unique<chat::ChatSession>())
{
    buildUi();
    connect(m_session.get(), &chat::ChatSession::reset, this, &PlaygroundPage::rebuildExchanges);
    connect(m_session.get(), &chat::ChatSession::exchangeChanged, this, &PlaygroundPage::updateExchange);
    connect(m_session.get(), &chat::ChatSession::replyFinished, this, &PlaygroundPage::onReplyFinished);
    // A host that left the inventory and came back has a new session under the same name.
    connect(&m_watcher, &fleet::FleetWatcher::hostsChanged, this, [this] {
        if (!m_host.isEmpty() && m_watcher.session(m_host) != m_watchedSession.data() && m_manualPort == 0) {
            retarget();
        }
    });
    retarget();
}

PlaygroundPage::~PlaygroundPage() = default;

void PlaygroundPage::buildUi()
{
    auto *outer = new QVBoxLayout(this);
    m_title = new QLabel(this);
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    m_title->setFont(big);
    m_target = new QLabel(this);
    m_target->setObjectName(QStringLiteral("playgroundTarget"));
    m_target->setWordWrap(true);
    outer->addWidget(m_title);
    outer->addWidget(m_target);

    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("playgroundTabs"));
    outer->addWidget(tabs, 1);
    auto *split = new QSplitter(Qt::Horizontal, tabs);
    tabs->addTab(split, tr("Chat"));
    m_loadTest = new LoadTestPanel(tabs);
    tabs->addTab(m_loadTest, tr("Load test"));

    // Left: the conversation, the attachments, the prompt and its buttons.
    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    buildConversation(left, leftLayout);
    buildPromptButtons(left, leftLayout);

    // Right: parameters and the last reply's figures.
    auto *right = new QWidget(split);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_params = new ParametersBox(right);
    rightLayout->addWidget(m_params);
    rightLayout->addWidget(buildLastReply(right));
    rightLayout->addStretch(1);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    updateButtons();
}

void PlaygroundPage::buildConversation(QWidget *left, QVBoxLayout *leftLayout)
{
    m_scroll = new QScrollArea(left);
    m_scroll->setObjectName(QStringLiteral("conversation"));
    m_scroll->setAccessibleName(tr("Conversation"));
    m_scroll->setWidgetResizable(true);
    auto *listHost = new QWidget(m_scroll);
    m_list = new QVBoxLayout(listHost);
    m_empty = new QLabel(tr("<p>Ask the deployment something. The reasoning streams in its own pane above each answer; "
                            "switch <b>Thinking</b> off on the right for a direct answer.</p>"),
                         listHost);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_list->addWidget(m_empty);
    m_list->addStretch(1);
    m_scroll->setWidget(listHost);
    leftLayout->addWidget(m_scroll, 1);

    m_attachRow = new QHBoxLayout;
    leftLayout->addLayout(m_attachRow);
    m_prompt = new QPlainTextEdit(left);
    m_prompt->setObjectName(QStringLiteral("prompt"));
    m_prompt->setAccessibleName(tr("Message"));
    m_prompt->setPlaceholderText(tr("Message (Ctrl+Enter to send)"));
    m_prompt->setMaximumHeight(110);
    leftLayout->addWidget(m_prompt);
}

void PlaygroundPage::buildPromptButtons(QWidget *left, QVBoxLayout *leftLayout)
{
    auto *buttons = new QHBoxLayout;
    auto *attach = new QPushButton(tr("Attach image…"), left);
    attach->setObjectName(QStringLiteral("attachImage"));
    attach->setToolTip(tr("PNG, JPEG or WebP, checked by content and size, sent as data (never as a URL for the host "
                          "to fetch)"));
    m_send = new QPushButton(tr("Send"), left);
    m_send->setObjectName(QStringLiteral("send"));
    m_send->setDefault(true);
    m_stop = new QPushButton(tr("Stop"), left);
    m_stop->setObjectName(QStringLiteral("stop"));
    m_regenerate = new QPushButton(tr("Regenerate"), left);
    m_clear = new QPushButton(tr("Clear"), left);
    m_curl = new QPushButton(tr("Copy as curl"), left);
    m_curl->setObjectName(QStringLiteral("copyCurl"));
    m_curl->setToolTip(tr("The request for the GPU host's shell; the key stays $SGLANG_API_KEY"));
    m_export = new QPushButton(tr("Export…"), left);
    auto *fromUrl = new QPushButton(tr("Image URL…"), left);
    fromUrl->setObjectName(QStringLiteral("imageUrl"));
    fromUrl->setToolTip(tr("Flashdeck fetches it itself under the media policy (allowed hosts in Settings) and sends "
                           "the bytes; the URL never reaches the GPU host"));
    buttons->addWidget(attach);
    buttons->addWidget(fromUrl);
    buttons->addStretch(1);
    connect(fromUrl, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString url = QInputDialog::getText(this, tr("Image from a URL"), tr("https URL of a PNG, JPEG or WebP:"),
                                                  QLineEdit::Normal, QString(), &ok);
        if (ok && !url.trimmed().isEmpty()) {
            attachUrl(url);
        }
    });
    for (QPushButton *b : {m_clear, m_regenerate, m_curl, m_export, m_stop, m_send}) {
        buttons->addWidget(b);
    }
    leftLayout->addLayout(buttons);
    connect(attach, &QPushButton::clicked, this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Attach images"), QString(),
                                                                tr("Images (*.png *.jpg *.jpeg *.webp)"));
        for (const QString &f : files) {
            if (const Status s = attachImage(f); !s) {
                QMessageBox::warning(this, tr("Image not attached"), s.message());
            }
        }
    });
    connect(m_send, &QPushButton::clicked, this, &PlaygroundPage::sendPrompt);
    auto *shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), m_prompt);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, &PlaygroundPage::sendPrompt);
    connect(m_stop, &QPushButton::clicked, m_session.get(), &chat::ChatSession::stop);
    connect(m_regenerate, &QPushButton::clicked, this, [this] {
        m_params->readInto(*m_session);
        m_session->regenerate();
    });
    connect(m_clear, &QPushButton::clicked, m_session.get(), &chat::ChatSession::clear);
    connect(m_curl, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(curlForPrompt()); });
    connect(m_export, &QPushButton::clicked, this, &PlaygroundPage::exportConversation);
}

QGroupBox *PlaygroundPage::buildLastReply(QWidget *right)
{
    auto *last = new QGroupBox(tr("Last reply"), right);
    auto *lastLayout = new QVBoxLayout(last);
    m_lastReply = new QLabel(tr("No reply yet."), last);
    m_lastReply->setObjectName(QStringLiteral("lastReply"));
    m_lastReply->setWordWrap(true);
    m_lastReply->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lastLayout->addWidget(m_lastReply);
    return last;
}

void PlaygroundPage::setHost(const QString &host)
{
    if (host == m_host) {
        return;
    }
    m_host = host;
    m_manualPort = 0;
    m_params->loadPreset(m_settings.playgroundPreset(m_host));
    retarget();
}

void PlaygroundPage::setManualPort(quint16 port)
{
    m_manualPort = port;
    retarget();
}

void PlaygroundPage::followSession(fleet::HostSession *session)
{
    if (session == m_watchedSession.data()) {
        return;
    }
    // A deployment made or redone, in the window or from a terminal, is the server to talk to,
    // without a restart: the host's session says so, once it has read the new record.
    QObject::disconnect(m_recordWatch);
    m_watchedSession = session;
    if (session) {
        m_recordWatch = connect(session, &fleet::HostSession::deploymentChanged, this, [this] {
            if (m_manualPort == 0) {
                retarget();
            }
        });
    }
}

void PlaygroundPage::retarget()
{
    m_session->setClient(nullptr, QString());
    m_loadTest->setTarget(nullptr, nullptr, 0, QString(), QString());
    delete m_client;
    m_client = nullptr;
    m_apiKey.clear();
    m_title->setText(m_host.isEmpty() ? tr("Playground") : tr("Playground — %1").arg(m_host));
    if (m_host.isEmpty()) {
        m_target->setText(tr("Choose a host in the bar above."));
        m_session->setClient(nullptr, QString(), tr("Choose a host in the bar above first."));
        m_loadTest->setTarget(nullptr, nullptr, 0, QString(), QString(), tr("Choose a host in the bar above first."));
        updateButtons();
        return;
    }
    fleet::HostSession *host = m_watcher.session(m_host);
    followSession(host);
    // The host's deployment as its session read it; a host never deployed to says what to do here.
    auto target = !recipe::Deployment::exists(m_paths, m_host)
        ? Result<chat::ChatTarget>(Status::failure(
              tr("Flashdeck has not deployed to %1, so it does not know its server. Deploy first, on the Deploy page.")
                  .arg(m_host)))
        : !host ? Result<chat::ChatTarget>(Status::failure(tr("%1 is not watched yet.").arg(m_host)))
                : chat::chatTargetOf(m_host, host->deployment(), tr(" Deploy it again from the Deploy page."));
    if (!target && m_manualPort == 0) {
        m_target->setText(target.message());
        m_session->setClient(nullptr, QString(), target.message());
        m_loadTest->setTarget(nullptr, nullptr, 0, QString(), QString(), target.message());
        updateButtons();
        return;
    }
    chat::ChatTarget t =
        target ? target.value() : chat::ChatTarget{m_host, {}, {}, QStringLiteral("default"), 0, false, {}};
    if (m_manualPort != 0) {
        t.port = m_manualPort;
    }
    if (!host) {
        m_target->setText(tr("%1 is not watched yet.").arg(m_host));
        m_session->setClient(nullptr, QString(), tr("%1 is not connected.").arg(m_host));
        updateButtons();
        return;
    }
    m_client = host->chatClient(t.port, this);
    m_session->setClient(m_client, t.model);
    m_loadTest->setTarget(m_client, host, t.port, t.model, QString());
    m_loadTest->setProfile(t.profileId);
    const QString where = t.router ? tr("the router on port %1").arg(t.port) : tr("port %1").arg(t.port);
    const QString what = t.profileTitle.isEmpty() ? tr("SGLang server") : t.profileTitle;
    m_target->setText(tr("%1 · %2 on the host, through the SSH tunnel · API key: looking…").arg(what, where));
    // The window's one secret store (the keyring, or memory where there is none), then the running
    // server's own key: as the command line finds it.
    if (!t.deploymentId.isEmpty()) {
        QPointer<PlaygroundPage> self(this);
        ApiKeyLookup::start(
            m_watcher.secretStore(), *host, t.deploymentId, *m_client, [self, what, where](const QString &source) {
                if (PlaygroundPage *page = self.data()) {
                    page->m_target->setText(
                        tr("%1 · %2 on the host, through the SSH tunnel · API key: %3").arg(what, where, source));
                }
            });
    } else {
        m_target->setText(tr("%1 · %2 on the host, through the SSH tunnel · API key: none").arg(what, where));
    }
    updateButtons();
}

Status PlaygroundPage::attachImage(const QString &path)
{
    QFile f(path);
    const chat::MediaPolicy media{chat::MediaLimits()};
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(tr("Cannot read %1: %2.").arg(QFileInfo(path).fileName(), f.errorString()));
    }
    const QByteArray bytes = f.read(media.limits().maxBytes + 1);
    const auto checked = media.checkImage(bytes);
    if (!checked) {
        return Status::failure(QFileInfo(path).fileName() + QStringLiteral(": ") + checked.message());
    }
    m_attachments.append({checked.value().mimeType, bytes, QFileInfo(path).fileName()});
    updateAttachments();
    return Status::ok();
}

void PlaygroundPage::attachUrl(const QString &url)
{
    chat::MediaLimits limits;
    limits.allowedHosts = m_settings.allowedImageHosts();
    auto *fetcher = new chat::MediaFetcher(chat::MediaPolicy(limits), this);
    m_target->setToolTip(QString());
    connect(fetcher, &chat::MediaFetcher::fetched, this, [this, fetcher](const chat::ChatImage &image) {
        m_attachments.append(image);
        updateAttachments();
        fetcher->deleteLater();
        Q_EMIT imageUrlDone(QString());
    });
    connect(fetcher, &chat::MediaFetcher::failed, this, [this, fetcher](const QString &message) {
        fetcher->deleteLater();
        if (isVisible()) {
            QMessageBox::warning(this, tr("Image not fetched"), message);
        }
        Q_EMIT imageUrlDone(message);
    });
    fetcher->fetch(url);
}

void PlaygroundPage::updateAttachments()
{
    while (QLayoutItem *item = m_attachRow->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (int i = 0; i < m_attachments.size(); ++i) {
        const chat::ChatImage &img = m_attachments[i];
        auto *thumb = new QToolButton(this);
        thumb->setObjectName(QStringLiteral("attachment"));
        const QImage image = QImage::fromData(img.bytes);
        if (!image.isNull()) {
            thumb->setIcon(QPixmap::fromImage(image.scaled(48, 48, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
            thumb->setIconSize(QSize(48, 48));
        }
        thumb->setText(tr("%1 ✕").arg(img.label));
        thumb->setToolButtonStyle(Qt::ToolButtonTextUnderIcon);
        thumb->setToolTip(tr("%1 · %2 kB · click to remove").arg(img.mimeType).arg((img.bytes.size() + 1023) / 1024));
        connect(thumb, &QToolButton::clicked, this, [this, i] {
            m_attachments.removeAt(i);
            QTimer::singleShot(0, this, &PlaygroundPage::updateAttachments); // not while its button is in a click
        });
        m_attachRow->addWidget(thumb);
    }
    m_attachRow->addStretch(1);
}

void PlaygroundPage::sendPrompt()
{
    const QString text = m_prompt->toPlainText();
    if (m_session->busy() || (text.trimmed().isEmpty() && m_attachments.isEmpty())) {
        return;
    }
    m_params->readInto(*m_session);
    if (!m_host.isEmpty()) {
        m_settings.setPlaygroundPreset(m_host, m_params->preset());
    }
    const bool sent = m_editing >= 0 ? m_session->editAndResend(m_editing, text) : m_session->send(text, m_attachments);
    if (sent) {
        m_editing = -1;
        m_prompt->clear();
        m_attachments.clear();
        updateAttachments();
    }
    updateButtons();
}

QString PlaygroundPage::curlForPrompt()
{
    m_params->readInto(*m_session); // what Send would send now
    QList<chat::ChatTurn> turns = m_session->turnsFor(int(m_session->exchanges().size()));
    turns.append({QStringLiteral("user"), m_prompt->toPlainText(), {}, m_attachments});
    return chat::curlCommand(turns, m_session->params,
                             m_session->model().isEmpty() ? QStringLiteral("default") : m_session->model(),
                             m_client ? m_client->remotePort() : 30000);
}

void PlaygroundPage::editExchange(int index)
{
    if (m_session->busy() || index < 0 || index >= m_session->exchanges().size()) {
        return;
    }
    m_editing = index;
    m_prompt->setPlainText(m_session->exchanges()[index].user.content);
    m_prompt->setFocus();
    m_send->setText(tr("Send edited"));
}

void PlaygroundPage::rebuildExchanges()
{
    for (ExchangeView *v : std::as_const(m_views)) {
        delete v;
    }
    m_views.clear();
    const auto &exchanges = m_session->exchanges();
    for (int i = 0; i < exchanges.size(); ++i) {
        auto *v = new ExchangeView(i, m_scroll->widget());
        connect(v, &ExchangeView::editRequested, this, &PlaygroundPage::editExchange);
        m_list->insertWidget(m_list->count() - 1, v);
        v->show(exchanges[i]);
        m_views.append(v);
    }
    m_empty->setVisible(exchanges.isEmpty());
    if (m_editing >= exchanges.size()) {
        m_editing = -1;
    }
    updateButtons();
}

void PlaygroundPage::updateExchange(int index)
{
    if (index < 0 || index >= m_views.size()) {
        return;
    }
    QScrollBar *bar = m_scroll->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 40;
    m_views[index]->show(m_session->exchanges()[index]);
    if (atEnd) {
        // Follow the stream, unless the operator scrolled up to read.
        QTimer::singleShot(0, bar, [bar] { bar->setValue(bar->maximum()); });
    }
    updateButtons();
}

void PlaygroundPage::onReplyFinished(int index, const chat::ChatResult &result)
{
    // The server's load at that moment, from the metrics store (when the host is watched).
    std::optional<double> kv;
    std::optional<qint64> queued;
    if (const metrics::HostMonitor *m = m_watcher.monitor(m_host); m && m->status().server) {
        kv = m->status().server->tokenUsage;
        if (m->status().server->queued) {
            queued = qint64(*m->status().server->queued);
        }
    }
    m_session->annotate(index, kv, queued);
    const chat::ChatStats &s = result.stats;
    QStringList lines;
    lines << tr("First token: %1").arg(s.ttftMs >= 0 ? tr("%1 ms").arg(s.ttftMs) : tr("—"));
    lines << tr("Rate: %1")
                 .arg(s.tokensPerSecond > 0 ? tr("%1 tokens/s%2")
                                                  .arg(s.tokensPerSecond, 0, 'f', 1)
                                                  .arg(s.tokensCounted ? tr(" (counted)") : QString())
                                            : tr("—"));
    lines << tr("Tokens: %1")
                 .arg(s.completionTokens < 0      ? tr("—")
                          : s.reasoningTokens < 0 ? QString::number(s.completionTokens)
                                                  : tr("%1 reasoning + %2 answer")
                                                        .arg(s.reasoningTokens)
                                                        .arg(s.completionTokens - s.reasoningTokens));
    lines << tr("Finish: %1").arg(s.finishReason.isEmpty() ? tr("—") : s.finishReason);
    lines << tr("Server then: KV %1 · queue %2")
                 .arg(kv ? QStringLiteral("%1 %").arg(*kv * 100, 0, 'f', 1) : tr("unknown"),
                      queued ? QString::number(*queued) : tr("unknown"));
    m_lastReply->setText(lines.join(QLatin1Char('\n')));
    updateButtons();
}

void PlaygroundPage::updateButtons()
{
    const bool busy = m_session->busy();
    const bool any = !m_session->exchanges().isEmpty();
    m_send->setEnabled(!busy);
    if (m_editing < 0) {
        m_send->setText(tr("Send"));
    }
    m_stop->setEnabled(busy);
    m_regenerate->setEnabled(!busy && any);
    m_clear->setEnabled(any);
    m_export->setEnabled(any && !busy);
}

void PlaygroundPage::exportConversation()
{
    QString filter;
    const QString file =
        QFileDialog::getSaveFileName(this, tr("Export conversation"), QStringLiteral("conversation.md"),
                                     tr("Markdown (*.md);;JSON (*.json)"), &filter);
    if (file.isEmpty()) {
        return;
    }
    const bool json =
        file.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) || filter.contains(QLatin1String("json"));
    const QByteArray bytes = json ? m_session->exportJson() : m_session->exportMarkdown().toUtf8();
    if (const Status s = writeFileAtomically(file, bytes); !s) {
        QMessageBox::warning(this, tr("Export failed"), tr("Cannot write %1: %2.").arg(file, s.message()));
    }
}

} // namespace flashdeck::ui

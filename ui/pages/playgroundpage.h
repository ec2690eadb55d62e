#pragma once

#include "backend/chat/chatrequest.h"
#include "backend/core/result.h"

#include <QList>
#include <QPointer>
#include <QWidget>

#include <memory>

class QGroupBox;
class QHBoxLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QVBoxLayout;

namespace flashdeck {
class AppPaths;
class Settings;
namespace chat {
class ChatClient;
class ChatSession;
struct ChatResult;
} // namespace chat
namespace fleet {
class FleetWatcher;
class HostSession;
} // namespace fleet
} // namespace flashdeck

namespace flashdeck::ui {

class ExchangeView;
class LoadTestPanel;
class ParametersBox;

/**
 * The Playground (issue 8): talk to the selected host's deployment through its SSH
 * connection. Left the conversation (each reply with its live Reasoning pane, answer and
 * figures), right the parameters (the model card's defaults, F24; the thinking switch, F22)
 * and the last reply's figures beside the server's KV use and queue at that moment; below,
 * the prompt, image attachments and Send (Ctrl+Enter), Stop, Regenerate, Clear, Copy as
 * curl and Export. Parameters are kept per host.
 */
class PlaygroundPage final : public QWidget
{
    Q_OBJECT

public:
    PlaygroundPage(const AppPaths &paths, fleet::FleetWatcher &watcher, Settings &settings, QWidget *parent = nullptr);
    ~PlaygroundPage() override;

    void setHost(const QString &host);
    QString host() const { return m_host; }
    chat::ChatSession &session() { return *m_session; }

    /** Points at a server port on the host when the host has no Flashdeck deployment. */
    void setManualPort(quint16 port);
    /** Attaches an image file after checking it; the failure says why. */
    [[nodiscard]] Status attachImage(const QString &path);
    /** Fetches an image URL under the media policy and attaches it; imageUrlDone says how it went. */
    void attachUrl(const QString &url);
    /** Sends what the prompt box holds (as Send and Ctrl+Enter do). */
    void sendPrompt();
    QString curlForPrompt();
    LoadTestPanel *loadTest() const { return m_loadTest; }

Q_SIGNALS:
    /** An image URL was fetched and attached (empty message) or refused (why). */
    void imageUrlDone(const QString &message);

private:
    void buildUi();
    /** Left: the conversation, the attachments and the prompt. */
    void buildConversation(QWidget *left, QVBoxLayout *leftLayout);
    void buildPromptButtons(QWidget *left, QVBoxLayout *leftLayout);
    /** Right, below the parameters: the last reply's figures. */
    QGroupBox *buildLastReply(QWidget *right);
    void retarget();
    /** Listens to the deployment of `session` (the current host's) alone. */
    void followSession(fleet::HostSession *session);
    void rebuildExchanges();
    void updateExchange(int index);
    void onReplyFinished(int index, const chat::ChatResult &result);
    void updateButtons();
    void updateAttachments();
    void exportConversation();
    void editExchange(int index);

    const AppPaths &m_paths;
    fleet::FleetWatcher &m_watcher;
    Settings &m_settings;
    QString m_host;
    QPointer<fleet::HostSession> m_watchedSession;
    QMetaObject::Connection m_recordWatch;
    quint16 m_manualPort = 0;
    QString m_apiKey;
    std::unique_ptr<chat::ChatSession> m_session;
    chat::ChatClient *m_client = nullptr;
    QList<chat::ChatImage> m_attachments;
    QList<ExchangeView *> m_views;
    int m_editing = -1;

    QLabel *m_title;
    QLabel *m_target;
    QScrollArea *m_scroll;
    QVBoxLayout *m_list;
    QLabel *m_empty;
    QHBoxLayout *m_attachRow;
    QPlainTextEdit *m_prompt;
    QPushButton *m_send;
    QPushButton *m_stop;
    QPushButton *m_regenerate;
    QPushButton *m_clear;
    QPushButton *m_curl;
    QPushButton *m_export;
    ParametersBox *m_params;
    QLabel *m_lastReply;
    LoadTestPanel *m_loadTest = nullptr;
};

} // namespace flashdeck::ui

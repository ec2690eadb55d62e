#pragma once

#include <QGroupBox>
#include <QVariantMap>

class QCheckBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace flashdeck::chat {
class ChatSession;
} // namespace flashdeck::chat

namespace flashdeck::ui {

/**
 * The Playground's sampling parameters: the system prompt, the thinking switch (F22), temperature
 * and top p with the model card's defaults (F24), max tokens, stop sequences and the seed. What
 * Send sends is read from here into the chat session; a host's choices are kept as a preset.
 */
class ParametersBox final : public QGroupBox
{
    Q_OBJECT

public:
    explicit ParametersBox(QWidget *parent = nullptr);

    /** The form's values into the session's parameters and system prompt. */
    void readInto(chat::ChatSession &session) const;
    /** A host's kept preset (Settings::playgroundPreset); missing values take the defaults. */
    void loadPreset(const QVariantMap &preset);
    [[nodiscard]] QVariantMap preset() const;

private:
    QPlainTextEdit *m_system;
    QCheckBox *m_thinking;
    QDoubleSpinBox *m_temperature;
    QDoubleSpinBox *m_topP;
    QSpinBox *m_maxTokens;
    QLineEdit *m_stopSequences;
    QLineEdit *m_seed;
};

} // namespace flashdeck::ui

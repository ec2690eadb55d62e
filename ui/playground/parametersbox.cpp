#include "ui/playground/parametersbox.h"

#include "backend/chat/chatsession.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>

namespace flashdeck::ui {

ParametersBox::ParametersBox(QWidget *parent)
    : QGroupBox(tr("Parameters"), parent)
{
    auto *form = new QFormLayout(this);
    m_system = new QPlainTextEdit(this);
    m_system->setObjectName(QStringLiteral("systemPrompt"));
    m_system->setPlaceholderText(tr("System prompt (optional)"));
    m_system->setMaximumHeight(70);
    form->addRow(m_system);
    m_thinking = new QCheckBox(tr("Thinking"), this);
    m_thinking->setObjectName(QStringLiteral("thinking"));
    m_thinking->setChecked(true);
    m_thinking->setToolTip(tr("Off sends chat_template_kwargs {\"thinking_mode\": \"disabled\"} (MiniMax-M3)"));
    form->addRow(m_thinking);
    m_temperature = new QDoubleSpinBox(this);
    m_temperature->setObjectName(QStringLiteral("temperature"));
    m_temperature->setRange(0, 2);
    m_temperature->setSingleStep(0.05);
    m_temperature->setValue(1.0);
    form->addRow(tr("Temperature:"), m_temperature);
    m_topP = new QDoubleSpinBox(this);
    m_topP->setObjectName(QStringLiteral("topP"));
    m_topP->setRange(0.01, 1);
    m_topP->setSingleStep(0.01);
    m_topP->setValue(0.95);
    form->addRow(tr("Top p:"), m_topP);
    m_maxTokens = new QSpinBox(this);
    m_maxTokens->setObjectName(QStringLiteral("maxTokens"));
    m_maxTokens->setRange(0, 1000000);
    m_maxTokens->setSingleStep(256);
    m_maxTokens->setSpecialValueText(tr("server default"));
    form->addRow(tr("Max tokens:"), m_maxTokens);
    m_stopSequences = new QLineEdit(this);
    m_stopSequences->setPlaceholderText(tr("none; separate with |"));
    //: Stop sequences of the sampling parameters, not a stop button.
    form->addRow(tr("Stop:"), m_stopSequences);
    m_seed = new QLineEdit(this);
    m_seed->setPlaceholderText(tr("random"));
    form->addRow(tr("Seed:"), m_seed);
    auto *defaults = new QPushButton(tr("Model card defaults"), this);
    defaults->setToolTip(tr("temperature 1.0, top_p 0.95"));
    connect(defaults, &QPushButton::clicked, this, [this] {
        m_temperature->setValue(1.0);
        m_topP->setValue(0.95);
    });
    form->addRow(defaults);
}

void ParametersBox::readInto(chat::ChatSession &session) const
{
    chat::ChatParams &p = session.params;
    p.temperature = m_temperature->value();
    p.topP = m_topP->value();
    p.maxTokens = m_maxTokens->value() > 0 ? std::optional<int>(m_maxTokens->value()) : std::nullopt;
    p.stop.clear();
    for (const QString &s : m_stopSequences->text().split(QLatin1Char('|'), Qt::SkipEmptyParts)) {
        p.stop.append(s);
    }
    bool ok = false;
    const qint64 seed = m_seed->text().trimmed().toLongLong(&ok);
    p.seed = ok ? std::optional<qint64>(seed) : std::nullopt;
    p.thinking = m_thinking->isChecked();
    session.systemPrompt = m_system->toPlainText();
}

void ParametersBox::loadPreset(const QVariantMap &p)
{
    m_temperature->setValue(p.value(QStringLiteral("temperature"), 1.0).toDouble());
    m_topP->setValue(p.value(QStringLiteral("top_p"), 0.95).toDouble());
    m_maxTokens->setValue(p.value(QStringLiteral("max_tokens"), 0).toInt());
    m_thinking->setChecked(p.value(QStringLiteral("thinking"), true).toBool());
    m_stopSequences->setText(p.value(QStringLiteral("stop")).toString());
    m_seed->setText(p.value(QStringLiteral("seed")).toString());
    m_system->setPlainText(p.value(QStringLiteral("system")).toString());
}

QVariantMap ParametersBox::preset() const
{
    return {
        {QStringLiteral("temperature"), m_temperature->value()}, {QStringLiteral("top_p"), m_topP->value()},
        {QStringLiteral("max_tokens"), m_maxTokens->value()},    {QStringLiteral("thinking"), m_thinking->isChecked()},
        {QStringLiteral("stop"), m_stopSequences->text()},       {QStringLiteral("seed"), m_seed->text()},
        {QStringLiteral("system"), m_system->toPlainText()}};
}

} // namespace flashdeck::ui

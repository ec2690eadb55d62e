#include "ui/logs/logbadges.h"

#include "backend/core/format.h"
#include "backend/logs/loghighlights.h"
#include "ui/logs/logdelegate.h"
#include "ui/logs/logmodel.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>

namespace flashdeck::ui {

namespace {

QString badgeStyle(const QColor &color)
{
    QColor tint = color;
    tint.setAlpha(45);
    return QStringLiteral("QLabel { border: 1px solid %1; border-radius: 9px; padding: 2px 10px; "
                          "background: rgba(%2, %3, %4, %5); }")
        .arg(color.name())
        .arg(tint.red())
        .arg(tint.green())
        .arg(tint.blue())
        .arg(tint.alpha());
}

QColor toneColor(logs::LogHighlights::Tone tone)
{
    switch (tone) {
    case logs::LogHighlights::Tone::Good:
        return LogDelegate::stripeColor(int(LogModel::Severity::Ok));
    case logs::LogHighlights::Tone::Warning:
        return LogDelegate::stripeColor(int(LogModel::Severity::Warn));
    case logs::LogHighlights::Tone::Bad:
        return LogDelegate::stripeColor(int(LogModel::Severity::Error));
    case logs::LogHighlights::Tone::Neutral:
        break;
    }
    return QColor(0x99, 0x99, 0x99);
}

} // namespace

// The texts below keep LogPanel's translation context: they were the panel's, and are translated as such.

LogBadges::LogBadges(QWidget *panel)
    : m_qmul4(new QLabel(panel))
    , m_dspark(new QLabel(panel))
    , m_ready(new QLabel(panel))
    , m_kv(new QLabel(panel))
{ }

QHBoxLayout *LogBadges::buildRow() const
{
    auto *badges = new QHBoxLayout;
    badges->setSpacing(8);
    m_qmul4->setObjectName(QStringLiteral("qmul4Badge"));
    m_dspark->setObjectName(QStringLiteral("dsparkBadge"));
    m_ready->setObjectName(QStringLiteral("readyBadge"));
    m_kv->setObjectName(QStringLiteral("kvBadge"));
    badges->addWidget(m_qmul4);
    badges->addWidget(m_dspark);
    badges->addWidget(m_kv);
    badges->addWidget(m_ready);
    badges->addStretch(1);
    for (QLabel *badge : {m_qmul4, m_dspark, m_kv, m_ready}) {
        // A narrow window clips a badge rather than widening the page; the tooltip has it all.
        badge->setMinimumWidth(60);
        badge->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    }
    return badges;
}

void LogBadges::show(const logs::LogHighlights &h, bool noLog) const
{
    const QString qmul4 = noLog && h.qmul4() == logs::LogHighlights::Qmul4::Unknown
        ? QCoreApplication::translate("LogPanel", "qmul4: no server start-up in the log")
        : h.qmul4Text();
    m_qmul4->setText(qmul4);
    m_qmul4->setStyleSheet(badgeStyle(toneColor(h.qmul4Tone())));
    m_qmul4->setToolTip(qmul4 + QStringLiteral("\n") +
                        QCoreApplication::translate(
                            "LogPanel",
                            "The NVFP4 KV-cache decode kernel: \"backend=qmul4\" is the fast path; any other backend "
                            "means a CUDA Toolkit older than 13.4 and a silent slow fallback."));
    m_dspark->setVisible(h.draftLoaded());
    m_dspark->setText(h.dsparkText());
    m_dspark->setStyleSheet(badgeStyle(toneColor(logs::LogHighlights::Tone::Good)));
    m_kv->setVisible(h.kvTokens() > 0);
    m_kv->setText(QCoreApplication::translate("LogPanel", "KV pool: %1").arg(fmt::tokens(double(h.kvTokens()))));
    m_kv->setStyleSheet(badgeStyle(LogDelegate::stripeColor(int(LogModel::Severity::Info))));
    m_kv->setToolTip(QCoreApplication::translate(
        "LogPanel", "The KV cache the server allocated, in tokens (from its \"KV Cache is allocated\" line)."));
    m_ready->setText(h.ready() ? QCoreApplication::translate("LogPanel", "Server: ready")
                               : (noLog ? QCoreApplication::translate("LogPanel", "Server: no log")
                                        : QCoreApplication::translate("LogPanel", "Server: starting")));
    m_ready->setToolTip(
        noLog ? QCoreApplication::translate("LogPanel",
                                            "No line of a server's log has arrived: no deployment runs on this "
                                            "host, or it cannot be reached (the line under the log says which).")
              : QString());
    m_ready->setStyleSheet(
        badgeStyle(toneColor(h.ready() ? logs::LogHighlights::Tone::Good : logs::LogHighlights::Tone::Neutral)));
}

} // namespace flashdeck::ui

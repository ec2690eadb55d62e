#include "ui/pages/placeholderpage.h"

#include <QLabel>
#include <QVBoxLayout>

namespace flashdeck::ui {

PlaceholderPage::PlaceholderPage(const QString &title, const QString &summary, const QStringList &willHold,
                                 QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(32, 28, 32, 28);
    layout->setSpacing(10);

    auto *heading = new QLabel(title, this);
    QFont headingFont = heading->font();
    headingFont.setPointSizeF(headingFont.pointSizeF() * 1.5);
    headingFont.setBold(true);
    heading->setFont(headingFont);
    layout->addWidget(heading);

    auto *text = new QLabel(summary, this);
    text->setWordWrap(true);
    text->setObjectName(QStringLiteral("placeholderSummary"));
    layout->addWidget(text);

    if (!willHold.isEmpty()) {
        QString items;
        for (const QString &item : willHold) {
            items += QStringLiteral("<li>") + item.toHtmlEscaped() + QStringLiteral("</li>");
        }
        auto *list = new QLabel(QStringLiteral("<p>This page will hold:</p><ul style=\"margin-left:-20px\">") + items +
                                    QStringLiteral("</ul>"),
                                this);
        list->setTextFormat(Qt::RichText);
        list->setWordWrap(true);
        layout->addWidget(list);
    }

    auto *status = new QLabel(tr("Not available in this build yet."), this);
    status->setEnabled(false); // the palette's disabled text colour: quiet in light and dark
    layout->addWidget(status);
    layout->addStretch(1);
}

} // namespace flashdeck::ui

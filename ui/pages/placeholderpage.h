#pragma once

#include <QWidget>

namespace flashdeck::ui {

/** A page whose feature has not landed yet: it says plainly what it will hold. */
class PlaceholderPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlaceholderPage)

public:
    PlaceholderPage(const QString &title, const QString &summary, const QStringList &willHold,
                    QWidget *parent = nullptr);
};

} // namespace flashdeck::ui

#include "ui/inputpolicy.h"

#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QPlainTextEdit>
#include <QTextEdit>
#include <QWheelEvent>

namespace flashdeck::ui {

namespace {
bool takesWheelOnlyFocused(const QObject *o)
{
    return qobject_cast<const QComboBox *>(o) || qobject_cast<const QAbstractSpinBox *>(o);
}
} // namespace

InputPolicy::InputPolicy(QObject *parent)
    : QObject(parent)
{ }

bool InputPolicy::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::Polish:
        if (auto *view = qobject_cast<QAbstractItemView *>(watched)) {
            view->setTabKeyNavigation(false);
        } else if (auto *plain = qobject_cast<QPlainTextEdit *>(watched)) {
            plain->setTabChangesFocus(true); // a message or a pasted command: Tab leaves, a paste keeps its tabs
        } else if (auto *rich = qobject_cast<QTextEdit *>(watched)) {
            rich->setTabChangesFocus(true);
        } else if (takesWheelOnlyFocused(watched)) {
            static_cast<QWidget *>(watched)->setFocusPolicy(Qt::StrongFocus);
        }
        break;
    case QEvent::Wheel:
        if (takesWheelOnlyFocused(watched) && !static_cast<QWidget *>(watched)->hasFocus()) {
            // Ignored and filtered: QApplication hands the wheel to the parent (the page's scroll
            // area), and the box's value stays as the operator set it.
            event->ignore();
            return true;
        }
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace flashdeck::ui

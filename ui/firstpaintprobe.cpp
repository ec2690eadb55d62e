#include "ui/firstpaintprobe.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFile>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <unistd.h>

namespace flashdeck::ui {

namespace {

/** Milliseconds since this process started, from /proc/self/stat's start time (field 22). */
double msSinceProcessStart()
{
    QFile stat(QStringLiteral("/proc/self/stat"));
    if (!stat.open(QIODevice::ReadOnly)) {
        return -1;
    }
    const QByteArray text = stat.readAll();
    // After the command name in parentheses (which may hold spaces), field 3 onwards.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    const double startTicks = fields.value(19).toDouble(); // field 22 overall
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    const double ticks = double(sysconf(_SC_CLK_TCK));
    return (double(now.tv_sec) + double(now.tv_nsec) / 1e9 - startTicks / ticks) * 1000.0;
}

} // namespace

FirstPaintProbe::FirstPaintProbe(QObject *parent)
    : QObject(parent)
{ }

bool FirstPaintProbe::installIfAsked()
{
    if (!qEnvironmentVariableIsSet("FLASHDECK_FIRST_PAINT_EXIT")) {
        return false;
    }
    QCoreApplication::instance()->installEventFilter(new FirstPaintProbe(QCoreApplication::instance()));
    return true;
}

bool FirstPaintProbe::eventFilter(QObject *watched, QEvent *event)
{
    if (!m_seen && event->type() == QEvent::Paint) {
        m_seen = true;
        // The rest of this paint (every widget of the window) and its flush happen before the
        // next turn of the loop.
        QTimer::singleShot(0, this, [] {
            std::printf("first-paint %.1f\n", msSinceProcessStart());
            std::fflush(stdout);
            QCoreApplication::exit(0);
        });
    }
    return QObject::eventFilter(watched, event);
}

} // namespace flashdeck::ui

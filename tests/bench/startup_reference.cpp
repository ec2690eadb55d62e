// The start-up benchmark's reference (bench_startup): the least a Qt Widgets + Charts desktop
// program does before its first paint — a main window of Flashdeck's size with a sidebar list, a
// table and one chart — built in the same tree with the same flags. It stops at its first paint
// the way Flashdeck does (ui/firstpaintprobe).

#include "ui/firstpaintprobe.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLineSeries>
#include <QListWidget>
#include <QMainWindow>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QMainWindow window;
    auto *central = new QWidget(&window);
    auto *layout = new QHBoxLayout(central);
    auto *sidebar = new QListWidget(central);
    sidebar->addItems({QStringLiteral("Fleet"), QStringLiteral("Deploy"), QStringLiteral("Logs"),
                       QStringLiteral("Metrics"), QStringLiteral("Playground"), QStringLiteral("Settings")});
    layout->addWidget(sidebar);
    auto *right = new QVBoxLayout;
    auto *model = new QStandardItemModel(3, 14, central);
    auto *table = new QTableView(central);
    table->setModel(model);
    right->addWidget(table, 2);
    auto *series = new QLineSeries;
    for (int i = 0; i < 60; ++i) {
        series->append(i, (i * 37) % 100);
    }
    auto *chart = new QChart;
    chart->addSeries(series);
    chart->createDefaultAxes();
    right->addWidget(new QChartView(chart, central), 1);
    layout->addLayout(right, 1);
    window.setCentralWidget(central);
    window.resize(1366, 740);
    flashdeck::ui::FirstPaintProbe::installIfAsked();
    window.show();
    return QApplication::exec();
}

#pragma once

#include <QObject>

class QSocketNotifier;

namespace flashdeck {

/**
 * SIGINT and SIGTERM as a Qt signal, delivered in the event loop. The handler only writes a
 * byte to a socket pair (async-signal-safe, signal-safety(7)); everything else runs here.
 * Construct one per process, in main(); the handlers return to the default when it is destroyed.
 */
class StopSignals final : public QObject
{
    Q_OBJECT

public:
    explicit StopSignals(QObject *parent = nullptr);
    ~StopSignals() override;

    /** How many stop signals arrived so far (a second Ctrl+C means "now"). */
    int count() const { return m_count; }

Q_SIGNALS:
    void stopRequested(int signalNumber);

private:
    QSocketNotifier *m_notifier = nullptr;
    int m_count = 0;
};

} // namespace flashdeck

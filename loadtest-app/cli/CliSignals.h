// SIGINT and SIGTERM as a Qt signal on the main thread, so that a run stops cleanly (the Sessions
// closed, the JSON written): the handler only writes the signal number into a socket pair
// (async-signal-safe) and a QSocketNotifier reads it in the event loop. One per process; the
// previous handlers come back when it goes.
#pragma once

#include <QObject>

class QSocketNotifier;

namespace ua::loadtest {

class CliSignals : public QObject {
    Q_OBJECT
public:
    explicit CliSignals(QObject* parent = nullptr);
    ~CliSignals() override;

signals:
    void received(int signalNumber);  // SIGINT or SIGTERM

private:
    QSocketNotifier* m_notifier = nullptr;
};

} // namespace ua::loadtest

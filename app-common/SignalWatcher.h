// Turns SIGINT and SIGTERM into a Qt signal on the thread that created the watcher: the handler only
// writes the signal number into a socket pair (async-signal-safe), and a QSocketNotifier reads it in
// the event loop. Nothing but write() runs in the handler. One watcher per process.
#pragma once

#include <QObject>

class QSocketNotifier;

namespace ua::app {

class SignalWatcher : public QObject {
    Q_OBJECT
public:
    // Installs the handlers for SIGINT and SIGTERM (restored by the destructor).
    explicit SignalWatcher(QObject* parent = nullptr);
    ~SignalWatcher() override;
    bool isValid() const { return m_notifier != nullptr; }

signals:
    // The POSIX signal number (SIGINT, SIGTERM), in the watcher's thread.
    void received(int signalNumber);

private:
    void onReadable();
    QSocketNotifier* m_notifier = nullptr;
};

} // namespace ua::app

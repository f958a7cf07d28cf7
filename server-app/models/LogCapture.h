// Captures Qt log messages (qDebug/qInfo/qWarning/qCritical, with their QLoggingCategory) for the
// server app's log page. A LogCapture installs a Qt message handler that chains to the previous one
// (so messages still reach stderr or QtTest) and collects records from any thread under a short
// lock; the first record of a batch queues one flush to the LogCapture's thread, which emits all
// records collected meanwhile as one batch. A flood of messages thus costs one queued call per
// batch, never one per message; at most maxPending records wait (the oldest are dropped and
// counted beyond that). One LogCapture at a time; the destructor restores the previous handler.
#pragma once

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>

namespace ua::serverapp {

struct LogRecord {
    QDateTime time;      // when the message was logged (local time)
    QtMsgType type = QtDebugMsg;
    QString category;    // the QLoggingCategory's name ("default" for plain qDebug())
    QString message;
};

// Debug 0 < Info 1 < Warning 2 < Critical 3 < Fatal 4 (QtMsgType's own values are not ordered).
int logSeverity(QtMsgType type);
QString logLevelName(QtMsgType type);  // "debug", "info", "warning", "critical", "fatal"

class LogCapture : public QObject {
    Q_OBJECT
public:
    explicit LogCapture(int maxPending = 10000, QObject* parent = nullptr);
    ~LogCapture() override;

    // Records dropped because maxPending were already waiting for a flush.
    quint64 dropped() const;

signals:
    // Records logged since the previous batch, oldest first. Emitted on this object's thread.
    void recordsCaptured(const QList<ua::serverapp::LogRecord>& batch);

private:
    static void handle(QtMsgType type, const QMessageLogContext& context, const QString& message);
    void flush();
};

} // namespace ua::serverapp

#include "models/LogCapture.h"

#include <QMetaObject>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <mutex>

namespace ua::serverapp {

namespace {
struct Shared {
    std::mutex mutex;
    LogCapture* instance = nullptr;
    std::atomic<QtMessageHandler> previous{nullptr};  // read without the lock on re-entry
    std::deque<LogRecord> pending;
    std::size_t maxPending = 10000;
    bool flushQueued = false;
    quint64 dropped = 0;
};
Shared& shared() {
    static Shared s;
    return s;
}
// Set while this thread is inside the handler: a message logged from there (by Qt itself) only
// goes to the previous handler, so the handler never waits for its own lock.
thread_local bool t_inHandler = false;
} // namespace

int logSeverity(QtMsgType type) {
    switch (type) {
    case QtDebugMsg: return 0;
    case QtInfoMsg: return 1;
    case QtWarningMsg: return 2;
    case QtCriticalMsg: return 3;
    case QtFatalMsg: return 4;
    }
    return 0;
}

QString logLevelName(QtMsgType type) {
    switch (type) {
    case QtDebugMsg: return QStringLiteral("debug");
    case QtInfoMsg: return QStringLiteral("info");
    case QtWarningMsg: return QStringLiteral("warning");
    case QtCriticalMsg: return QStringLiteral("critical");
    case QtFatalMsg: return QStringLiteral("fatal");
    }
    return {};
}

LogCapture::LogCapture(int maxPending, QObject* parent) : QObject(parent) {
    qRegisterMetaType<QList<ua::serverapp::LogRecord>>();
    Shared& s = shared();
    std::lock_guard lock(s.mutex);
    s.instance = this;
    s.maxPending = std::size_t(std::max(1, maxPending));
    s.pending.clear();
    s.flushQueued = false;
    s.dropped = 0;
    s.previous = qInstallMessageHandler(&LogCapture::handle);
}

LogCapture::~LogCapture() {
    Shared& s = shared();
    std::lock_guard lock(s.mutex);
    qInstallMessageHandler(s.previous.load());
    s.instance = nullptr;
    s.previous = nullptr;
    s.pending.clear();
}

quint64 LogCapture::dropped() const {
    Shared& s = shared();
    std::lock_guard lock(s.mutex);
    return s.dropped;
}

void LogCapture::handle(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    Shared& s = shared();
    QtMessageHandler previous = nullptr;
    if (!t_inHandler) {
        t_inHandler = true;
        LogRecord r{QDateTime::currentDateTime(), type,
                    QString::fromLatin1(context.category ? context.category : "default"), message};
        {
            std::lock_guard lock(s.mutex);
            previous = s.previous.load();
            if (s.instance) {
                if (s.pending.size() >= s.maxPending) {
                    s.pending.pop_front();
                    ++s.dropped;
                }
                s.pending.push_back(std::move(r));
                if (!s.flushQueued) {
                    s.flushQueued = true;
                    // Under the lock: the destructor cannot run between the check and the post.
                    QMetaObject::invokeMethod(s.instance, &LogCapture::flush, Qt::QueuedConnection);
                }
            }
        }
        t_inHandler = false;
    } else {
        previous = s.previous.load();
    }
    if (previous) {
        previous(type, context, message);
    } else {
        const QString line = qFormatLogMessage(type, context, message);
        std::fprintf(stderr, "%s\n", line.toLocal8Bit().constData());
        std::fflush(stderr);
    }
}

void LogCapture::flush() {
    QList<LogRecord> batch;
    {
        Shared& s = shared();
        std::lock_guard lock(s.mutex);
        s.flushQueued = false;
        batch.reserve(qsizetype(s.pending.size()));
        for (LogRecord& r : s.pending) batch.append(std::move(r));
        s.pending.clear();
    }
    if (!batch.isEmpty()) emit recordsCaptured(batch);
}

} // namespace ua::serverapp

// Where a result computed on one thread is handed to a QObject of another thread (the "context"
// of a client call, the receiver of a diagnostics snapshot) that its own thread may destroy at
// any moment.
//
// Checking a QPointer on the worker thread and then posting to the object is a race: the object
// can be destroyed between the check and the post, and the event then reaches freed memory
// (QCoreApplication::notify on a dangling receiver). A ContextRef never posts to the context
// itself: it posts to an object of the context's thread that outlives it (the application object
// for the main thread, the thread's event dispatcher for others) and checks the QPointer there,
// on the thread that destroys the context, where the check cannot race.
//
// Make a ContextRef on the context's thread (or while the context cannot be destroyed). The
// context must stay in that thread while results are on their way to it.
#pragma once

#include <QAbstractEventDispatcher>
#include <QCoreApplication>
#include <QObject>
#include <QPointer>
#include <QThread>

#include <utility>

namespace ua {

class ContextRef {
public:
    ContextRef() = default;
    explicit ContextRef(QObject* context) : m_context(context) {
        if (!context) return;
        m_home = context->thread();
        QCoreApplication* app = QCoreApplication::instance();
        if (app && m_home == app->thread()) m_mailbox = app;
        else if (QAbstractEventDispatcher* d = QAbstractEventDispatcher::instance(m_home)) m_mailbox = d;
        else m_mailbox = context;  // a thread without an event loop yet: the context itself
    }

    // False for a ContextRef made from nullptr (the caller gave no context).
    bool isSet() const { return m_home != nullptr; }
    // True on the context's thread, where run() calls f at once.
    bool isHome() const { return m_home && m_home == QThread::currentThread(); }

    // Runs f() in the context's thread: at once when called there, else as post() does. f is
    // dropped when the context is gone (or the ContextRef is not set).
    template <class F>
    void run(F&& f) const {
        if (isHome()) {
            if (m_context) std::forward<F>(f)();
            return;
        }
        post(std::forward<F>(f));
    }

    // Queues f() behind the other events of the context's thread, also when called there; when it
    // comes to run, it runs only if the context still exists.
    template <class F>
    void post(F&& f) const {
        // The mailbox outlives the context; it is guarded too, for a thread that ends meanwhile.
        QObject* mailbox = m_mailbox.data();
        if (!mailbox) return;
        QMetaObject::invokeMethod(mailbox, [context = m_context, f = std::forward<F>(f)]() mutable {
            if (context) f();  // on the context's thread: no race with its destruction
        }, Qt::QueuedConnection);
    }

private:
    QPointer<QObject> m_context;
    QPointer<QObject> m_mailbox;
    QThread* m_home = nullptr;
};

} // namespace ua

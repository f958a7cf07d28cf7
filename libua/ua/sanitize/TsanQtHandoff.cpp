// ThreadSanitizer builds only (-DUA_SANITIZE=thread; cmake/Sanitize.cmake): tells TSan about the
// hand-off of QMetaObject::invokeMethod(context, functor, type) to another thread. Qt is not built
// with TSan, so the queue of posted events it uses (guarded by Qt's own, uninstrumented locks) is
// invisible to TSan, and every functor run on the target thread would look like a data race with
// what the caller wrote before posting it.
//
// The linker sends our calls of QMetaObject::invokeMethodImpl here (-Wl,--wrap=<its mangled name>,
// set by cmake/Sanitize.cmake in thread mode only). We wrap the slot object: the caller releases
// on the wrapper before Qt posts it, the target thread acquires on it before the functor runs
// (the happens-before edge the event queue gives in reality); for BlockingQueuedConnection the
// functor's thread releases on a token on the caller's stack when it is done, and the caller
// acquires it when invokeMethodImpl returns (Qt's semaphore, equally invisible).
// Queued signal-slot connections are handed over the same way (g_queuedSignal below), the end of
// a QThread to its wait(), and a job to a QThreadPool thread (the end of this file).
// In any other build this file is empty.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UA_TSAN_QT_HANDOFF 1
#endif
#endif

#ifdef UA_TSAN_QT_HANDOFF
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEvent>
#include <QObject>
#include <QThread>
#include <QThreadPool>
#include <functional>
#include <sanitizer/tsan_interface.h>

namespace {

// Queued signals: the sync address of every signal our code emits (moc's code calls
// QMetaObject::activate, sent here by --wrap) and of every queued call Qt delivers (QEvent::MetaCall,
// seen through Qt's event-notify callback). Which receiver a signal reaches is only known inside
// Qt, so the edge is coarse: every emit before a delivery is ordered before it. This can hide a
// race between two threads that both emit, never report a false one.
char g_queuedSignal;

bool acquireQueuedSignal(void** data) {  // QInternal::EventNotifyCallback: {receiver, event, &result}
    const auto* event = static_cast<const QEvent*>(data[1]);
    if (event && event->type() == QEvent::MetaCall) __tsan_acquire(&g_queuedSignal);
    return false;  // Qt delivers the event as usual
}

const bool g_callbackRegistered = QInternal::registerCallback(QInternal::EventNotifyCallback, &acquireQueuedSignal);

// A slot object that runs another one, with the acquire (and release for a blocking call) around it.
class HandoffSlot : public QtPrivate::QSlotObjectBase {
public:
    HandoffSlot(QtPrivate::QSlotObjectBase* inner, void* doneToken)
        : QSlotObjectBase(&impl), m_inner(inner), m_doneToken(doneToken) {}

private:
    static void impl(int which, QSlotObjectBase* base, QObject* receiver, void** args, bool* ret) {
        auto* self = static_cast<HandoffSlot*>(base);
        switch (which) {
        case Destroy:  // on whichever thread drops the last reference, after or without the call
            __tsan_acquire(self);
            self->m_inner->destroyIfLastRef();
            delete self;
            break;
        case Call:
        {
            __tsan_acquire(self);
            self->m_inner->call(receiver, args);
            void* const doneToken = self->m_doneToken;  // self may be destroyed once released
            __tsan_release(self);
            if (doneToken) __tsan_release(doneToken);
            break;
        }
        case Compare:
            if (ret) *ret = self->m_inner->compare(args);
            break;
        default:
            break;
        }
    }

    QtPrivate::QSlotObjectBase* m_inner;
    void* m_doneToken;
};

}  // namespace

// The real QMetaObject::invokeMethodImpl(QObject*, QtPrivate::QSlotObjectBase*, Qt::ConnectionType, void*).
extern "C" bool __real__ZN11QMetaObject16invokeMethodImplEP7QObjectPN9QtPrivate15QSlotObjectBaseEN2Qt14ConnectionTypeEPv(
    QObject* object, QtPrivate::QSlotObjectBase* slot, Qt::ConnectionType type, void* ret);

extern "C" bool __wrap__ZN11QMetaObject16invokeMethodImplEP7QObjectPN9QtPrivate15QSlotObjectBaseEN2Qt14ConnectionTypeEPv(
    QObject* object, QtPrivate::QSlotObjectBase* slot, Qt::ConnectionType type, void* ret) {
    char doneToken = 0;  // lives until the blocking call returns
    const bool blocking = type == Qt::BlockingQueuedConnection;
    auto* wrapped = new HandoffSlot(slot, blocking ? &doneToken : nullptr);
    __tsan_release(wrapped);
    const bool ok = __real__ZN11QMetaObject16invokeMethodImplEP7QObjectPN9QtPrivate15QSlotObjectBaseEN2Qt14ConnectionTypeEPv(
        object, wrapped, type, ret);
    if (blocking) __tsan_acquire(&doneToken);
    return ok;
}

// The real QMetaObject::activate(QObject*, const QMetaObject*, int, void**), called by moc's code.
extern "C" void __real__ZN11QMetaObject8activateEP7QObjectPKS_iPPv(QObject* sender, const QMetaObject* meta,
                                                                    int localSignalIndex, void** argv);

extern "C" void __wrap__ZN11QMetaObject8activateEP7QObjectPKS_iPPv(QObject* sender, const QMetaObject* meta,
                                                                    int localSignalIndex, void** argv) {
    (void)g_callbackRegistered;
    __tsan_release(&g_queuedSignal);
    __real__ZN11QMetaObject8activateEP7QObjectPKS_iPPv(sender, meta, localSignalIndex, argv);
}

// QThread::wait(): Qt's threads are detached and wait() sleeps on Qt's own condition, so TSan
// never sees the end of the thread ordered before the return of wait() (what the thread did,
// then the waiter deleting it, looks like a race). Our calls of QThread::start() add a direct
// connection to finished(), the thread's last signal on the thread itself, that deletes what waits
// for deleteLater() and then releases on the QThread; our calls of wait() acquire on it.
extern "C" void __real__ZN7QThread5startENS_8PriorityE(QThread* thread, QThread::Priority priority);
extern "C" void __wrap__ZN7QThread5startENS_8PriorityE(QThread* thread, QThread::Priority priority) {
    QObject::connect(thread, &QThread::finished, thread, [thread] {
        // Qt deletes the objects given deleteLater() (a thread's contexts, their children) right
        // after finished(); deleted here first, their destructors are ordered before the release.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        __tsan_release(thread);
    }, Qt::DirectConnection);
    __real__ZN7QThread5startENS_8PriorityE(thread, priority);
}

extern "C" bool __real__ZN7QThread4waitE14QDeadlineTimer(QThread* thread, QDeadlineTimer deadline);
extern "C" bool __wrap__ZN7QThread4waitE14QDeadlineTimer(QThread* thread, QDeadlineTimer deadline) {
    const bool ended = __real__ZN7QThread4waitE14QDeadlineTimer(thread, deadline);
    if (ended) __tsan_acquire(thread);
    return ended;
}

// QThreadPool::start(std::function<void()>, int) (the method worker pool, MethodService.cpp): the
// queue of the pool is Qt's too. The caller releases on the job, the pool thread acquires it
// before the job runs.
extern "C" void __real__ZN11QThreadPool5startESt8functionIFvvEEi(QThreadPool* pool, std::function<void()> job, int priority);
extern "C" void __wrap__ZN11QThreadPool5startESt8functionIFvvEEi(QThreadPool* pool, std::function<void()> job, int priority) {
    // The sync address is the job's own (heap) storage inside the std::function, which moving the
    // std::function into Qt's runnable keeps: the pool thread needs no read to find it.
    struct HandedOver {
        std::function<void()> job;
        void operator()() {
            __tsan_acquire(this);
            job();
        }
    };
    std::function<void()> handedOver = HandedOver{std::move(job)};
    __tsan_release(handedOver.target<HandedOver>());
    __real__ZN11QThreadPool5startESt8functionIFvvEEi(pool, std::move(handedOver), priority);
}
#endif

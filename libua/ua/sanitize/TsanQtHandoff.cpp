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
// In any other build this file is empty.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UA_TSAN_QT_HANDOFF 1
#endif
#endif

#ifdef UA_TSAN_QT_HANDOFF
#include <QObject>
#include <sanitizer/tsan_interface.h>

namespace {

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
#endif

// A QSocketNotifier that EpollEventDispatcher activates with one direct call, callback(context),
// instead of a QEvent sent through QCoreApplication::sendEvent().
//
// Why: sendEvent() reads the receiver's QObjectPrivate and its thread data (event filters, the
// receiver's thread, the scope level) on every activation, about 300 instructions and two or three
// cache lines that are cold when a thread holds thousands of connections (callgrind with a 2 MB
// last-level cache: 2.7 misses per read-1 request at 10,000 Sessions, 0.02 at 100;
// docs/Benchmarks.md "Cold lines per request"). A connection's notifier needs none of it: it lives
// on the dispatcher's thread and has no event filter.
//
// Under another dispatcher (Qt's own) it is a plain QSocketNotifier whose event() makes the same
// call. deleteLater() inside the callback, from a loop run by exec() (the I/O threads'), behaves
// as inside an event handler: Qt counts a DeferredDelete posted outside any sendEvent() from a
// running loop as posted at scope level 1. Called from a processEvents() nested in an event
// handler, the deletion waits until that handler returns (it never comes early); libua's threads
// do not nest loops. One thread: the notifier's.
#pragma once

#include <QEvent>
#include <QSocketNotifier>

namespace ua {

class DirectSocketNotifier : public QSocketNotifier {
public:
    using Callback = void (*)(void* context);

    DirectSocketNotifier(qintptr socket, Type type, Callback callback, void* context, QObject* parent = nullptr)
        : QSocketNotifier(socket, type, parent), m_callback(callback), m_context(context) {
        // QSocketNotifier's constructor registered it while it was not yet a DirectSocketNotifier
        // (the dispatcher tells the two apart with dynamic_cast): registered again as what it is.
        if (isEnabled()) {
            setEnabled(false);
            setEnabled(true);
        }
    }

    // What an activation does, under any dispatcher.
    void activate() { m_callback(m_context); }

protected:
    bool event(QEvent* e) override {
        if (e->type() == QEvent::SockAct || e->type() == QEvent::SockClose) {
            activate();
            return true;
        }
        return QSocketNotifier::event(e);
    }

private:
    Callback m_callback;
    void* m_context;
};

} // namespace ua

// The server's part of one I/O thread (docs/Architecture.md "Threads"): the address-space
// snapshot the thread's connections serve from (addressspace/ThreadSnapshot.h), the subscription
// engine of the Sessions homed on the thread (subscriptions/SubscriptionScheduler.h, which samples
// from the same snapshot), and the QObject that responses for the thread's connections are posted
// to (common/ResponseTarget.h). Created on its thread by Server::start(); lives as long as the
// thread.
#pragma once

#include <QObject>

namespace ua {

class AddressSpace;
class SharedAddressSpace;
class SubscriptionRegistry;
class SubscriptionScheduler;
class ThreadSnapshot;
struct SubscriptionConfig;

class IoWorker : public QObject {
    Q_OBJECT
public:
    IoWorker(SharedAddressSpace& space, const SubscriptionConfig& config, SubscriptionRegistry& registry,
             QObject* parent = nullptr);
    ~IoWorker() override;

    // The worker of the calling thread (set by makeCurrent(), which makes its scheduler the
    // thread's too), or nullptr (a connection made without a running server: tests).
    static IoWorker* current();
    void makeCurrent();

    // The thread's snapshot for the current request (ThreadSnapshot::get()).
    const AddressSpace& addressSpace();
    ThreadSnapshot& snapshot() { return *m_snapshot; }
    SubscriptionScheduler& scheduler() { return *m_scheduler; }

private:
    ThreadSnapshot* m_snapshot;          // its child
    SubscriptionScheduler* m_scheduler;  // its child, destroyed first
};

} // namespace ua

#include "ua/server/runtime/IoWorker.h"

#include "ua/server/addressspace/ThreadSnapshot.h"
#include "ua/server/subscriptions/SubscriptionScheduler.h"

namespace ua {

namespace {
thread_local IoWorker* t_worker = nullptr;
} // namespace

IoWorker::IoWorker(SharedAddressSpace& space, const SubscriptionConfig& config, SubscriptionRegistry& registry,
                   QObject* parent)
    : QObject(parent), m_snapshot(new ThreadSnapshot(space, this)),
      m_scheduler(new SubscriptionScheduler(*m_snapshot, config, registry, true, this)) {}

IoWorker::~IoWorker() {
    if (t_worker == this) t_worker = nullptr;
    delete m_scheduler;  // its Subscriptions go before the snapshot they sample from
}

IoWorker* IoWorker::current() { return t_worker; }

void IoWorker::makeCurrent() {
    t_worker = this;
    m_scheduler->makeCurrent();
}

const AddressSpace& IoWorker::addressSpace() { return m_snapshot->get(); }

} // namespace ua

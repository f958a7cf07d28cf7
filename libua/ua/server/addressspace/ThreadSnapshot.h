// The address-space snapshot one thread serves from: the I/O worker of each I/O thread
// (runtime/IoWorker.h) keeps one, and the Reads, Writes, Browses and Calls of its connections, the
// sampling of its Subscriptions and the events routed to its event items all read it. Reloaded
// when the server published a new snapshot (one relaxed load per use otherwise), so that an idle
// connection does not keep an old copy of the address space alive (each one is a copy of the
// whole node table). A reference stays valid until control returns to the event loop: a replaced
// snapshot is released only then. Its thread only.
#pragma once

#include "ua/server/addressspace/SharedAddressSpace.h"

#include <QObject>
#include <memory>
#include <vector>

namespace ua {

class ThreadSnapshot : public QObject {
    Q_OBJECT
public:
    explicit ThreadSnapshot(SharedAddressSpace& space, QObject* parent = nullptr) : QObject(parent), m_space(space) {}

    const AddressSpace& get() {
        const uint64_t v = m_space.version();
        if (!m_snapshot || v != m_version) reload(v);
        return *m_snapshot;
    }
    SharedAddressSpace& shared() const { return m_space; }

private:
    void reload(uint64_t version);

    SharedAddressSpace& m_space;
    std::shared_ptr<const AddressSpace> m_snapshot;
    uint64_t m_version = 0;
    std::vector<std::shared_ptr<const AddressSpace>> m_retired;  // released by the event loop
};

} // namespace ua

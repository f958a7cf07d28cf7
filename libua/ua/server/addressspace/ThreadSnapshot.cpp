#include "ua/server/addressspace/ThreadSnapshot.h"

namespace ua {

void ThreadSnapshot::reload(uint64_t version) {
    if (m_snapshot) {
        // A caller up the stack may still hold a reference to it: release it from the event loop
        // (a change of the address space, not per request).
        if (m_retired.empty()) QMetaObject::invokeMethod(this, [this] { m_retired.clear(); }, Qt::QueuedConnection);
        m_retired.push_back(std::move(m_snapshot));
    }
    m_snapshot = m_space.snapshot();
    m_version = version;
}

} // namespace ua

#include "ua/server/runtime/AdmissionControl.h"

namespace ua {

bool AdmissionControl::tryBeginHandshake() {
    const int max = m_admission.maxHandshakes;
    if (max <= 0) {
        m_handshakes.fetch_add(1, std::memory_order_relaxed);
        return true;
    }
    int n = m_handshakes.load(std::memory_order_relaxed);
    do {
        if (n >= max) return false;
    } while (!m_handshakes.compare_exchange_weak(n, n + 1, std::memory_order_relaxed));
    return true;
}

} // namespace ua

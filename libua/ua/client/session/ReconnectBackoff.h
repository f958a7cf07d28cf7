// Delays between reconnect attempts: exponential backoff with jitter (see ReconnectPolicy), so that
// many clients cut off at the same moment do not come back at the same moment (architecture.md,
// "Admission control").
#pragma once

#include "ua/client/common/ClientConfig.h"

namespace ua {

class ReconnectBackoff {
public:
    explicit ReconnectBackoff(ReconnectPolicy policy = {}) : m_policy(policy) {}

    // The delay before the next attempt (ms), and counts the attempt.
    uint32_t nextDelayMs();
    // After a successful reconnect: the next loss starts again at initialDelayMs.
    void reset() { m_attempts = 0; }
    int attempts() const { return m_attempts; }
    // True when maxAttempts is set and used up.
    bool exhausted() const { return m_policy.maxAttempts > 0 && m_attempts >= m_policy.maxAttempts; }

    // The delay of attempt n for a uniform random number r in [0, 1): pure, for tests.
    static uint32_t delayMs(const ReconnectPolicy& policy, int attempt, double r);

private:
    ReconnectPolicy m_policy;
    int m_attempts = 0;
};

} // namespace ua

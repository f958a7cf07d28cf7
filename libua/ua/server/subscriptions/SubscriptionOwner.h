// What a Subscription (Subscription.h) and the scheduler of its home thread (SubscriptionScheduler.h)
// use of the SessionSubscriptions that owns it (SessionSubscriptions.h). The three classes of the
// engine call each other; they do so through this base, so that their headers do not include each
// other in a circle (docs/Architecture.md "Layers"). home(), config() and userAccess() are plain
// loads (a sampler reads them at every deadline); the virtual calls are made when a Subscription
// has a message to send (a parked Publish request to answer), when its lifetime runs out, and by
// the scheduler's housekeeping, never per sample.
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/subscriptions/SubscriptionConfig.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ua {

class Subscription;
class SubscriptionScheduler;

class SubscriptionOwner {
public:
    virtual ~SubscriptionOwner() = default;

    SubscriptionScheduler& home() const { return *m_home; }
    const SubscriptionConfig& config() const { return *m_config; }
    // The user's Roles (users/Roles.h RoleSet) and default PermissionType bits: a copy of the
    // Session's, taken when this object is installed in the Session and pushed again by
    // accessChanged() at every ActivateSession; the last ones seen once the Session has gone.
    // Without a Session (unit tests): unrestricted. Two relaxed loads of this object's own memory
    // (a sampler calls it at every deadline; it was a weak_ptr lock of the Session each time).
    struct UserAccess {
        uint32_t roles = ~uint32_t(0);
        uint32_t permissions = ~uint32_t(0);
        uint32_t sessionScope = 0;  // the Session's Session::scope (users/NodeVisibility.h)
    };
    UserAccess userAccess() const {
        return UserAccess{m_roles.load(std::memory_order_relaxed), m_permissions.load(std::memory_order_relaxed),
                          m_sessionScope};
    }

    // --- Used by Subscription ---
    virtual bool hasPublishRequest(int64_t nowUs) = 0;
    // Answers the oldest valid parked request with resp; false when none is parked.
    virtual bool answerPublish(PublishResponse& resp, int64_t nowUs) = 0;
    // The lifetime of s ran out: it is deleted (after queueing its Bad_Timeout message).
    virtual void expired(Subscription& s, int64_t nowUs) = 0;

    // --- Used by the home scheduler ---
    virtual std::size_t count() const = 0;  // of Subscriptions
    // True when its Session has been closed or has expired.
    virtual bool sessionGone() const = 0;
    virtual void removeAll() = 0;
    // The scheduler goes first (its destructor): the owner's timers let go of its queue.
    virtual void detachTimers() = 0;
    virtual std::vector<SubscriptionDiagnosticsDataType> diagnostics() const = 0;
    // Position in the home's list of owners, and whether in its list of empty ones
    // (SubscriptionScheduler only).
    std::size_t homeIndex = 0;
    bool watchedEmpty = false;

protected:
    SubscriptionOwner(SubscriptionScheduler& home, const SubscriptionConfig& config) : m_home(&home), m_config(&config) {}

    SubscriptionScheduler* m_home;
    const SubscriptionConfig* m_config;  // the home's
    std::atomic<uint32_t> m_roles{~uint32_t(0)};  // userAccess(): the last seen
    std::atomic<uint32_t> m_permissions{~uint32_t(0)};
    uint32_t m_sessionScope = 0;  // set once, when the owner is made for its Session
};

} // namespace ua

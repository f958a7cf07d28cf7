// The shapes of the client's subscription API (ua::Client::createSubscription and friends; the work
// is done by SubscriptionManager on the I/O thread). OPC 10000-4 5.13 (Subscription service set)
// and 5.12 (MonitoredItem service set) in the 1.05.03 numbering; docs/Client.md "Subscriptions".
//
// A subscription is named by a SubscriptionHandle the client assigns: it stays the same when the
// server's subscriptionId changes (re-created after a lost Session). A MonitoredItem is named by its
// clientHandle (unique within its subscription), which is also what the server echoes in every
// notification and what re-created items get again. Every duration is in milliseconds.
#pragma once

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/Types.h"

#include <QMetaType>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ua {

using SubscriptionHandle = uint32_t;  // 0 is never a valid handle

// CreateSubscription / ModifySubscription parameters (OPC 10000-4 5.13.2, 5.13.3). The server
// revises them; SubscriptionInfo reports what it chose.
struct SubscriptionSettings {
    double publishingIntervalMs = 500;
    uint32_t lifetimeCount = 60;        // in publishing intervals; at least 3 x maxKeepAliveCount
    uint32_t maxKeepAliveCount = 10;    // in publishing intervals
    uint32_t maxNotificationsPerPublish = 0;  // 0: no limit
    bool publishingEnabled = true;
    uint8_t priority = 0;
};

// What createSubscription / modifySubscription complete with. status: the service's result
// (e.g. Bad_TooManySubscriptions), Bad_SubscriptionIdInvalid for an unknown handle, or a local
// error (ServiceResult.h).
struct SubscriptionInfo {
    StatusCode status;
    SubscriptionHandle handle = 0;
    uint32_t subscriptionId = 0;               // the server's id (changes when re-created)
    double revisedPublishingIntervalMs = 0;
    uint32_t revisedLifetimeCount = 0;
    uint32_t revisedMaxKeepAliveCount = 0;
};

// MonitoringParameters (OPC 10000-4 7.21) and the filter of one MonitoredItem.
struct MonitoredItemSettings {
    MonitoringMode mode = MonitoringMode::Reporting;
    double samplingIntervalMs = -1;     // -1: the publishing interval; 0: the fastest the server has
    uint32_t queueSize = 1;
    bool discardOldest = true;
    // At most one of the two: a DataChangeFilter (7.22.2: trigger, deadbandType = DeadbandType as
    // uint32, deadbandValue) for a Value item, an EventFilter (7.22.3: select clauses and a where
    // clause; see makeEventFilter helpers below) for an EventNotifier item (attributeId 12).
    std::optional<DataChangeFilter> dataChangeFilter;
    std::optional<EventFilter> eventFilter;
};

// One item to create: what to monitor, how, and optional callbacks of its own (run in the
// subscription's context thread, before the subscription's notification handler).
struct MonitoredItemSpec {
    uint32_t clientHandle = 0;          // 0: the client picks one (unique in the subscription)
    NodeId nodeId;
    uint32_t attributeId = uint32_t(AttributeId::Value);  // 12 (EventNotifier) for events
    String indexRange;
    MonitoredItemSettings settings;
    std::function<void(const DataValue&)> onDataChange;
    std::function<void(const Array<Variant>& eventFields)> onEvent;  // in the order of the select clauses
};

// A change of an item's parameters (ModifyMonitoredItems, OPC 10000-4 5.12.3); the mode is set
// with setMonitoringMode, not here.
struct MonitoredItemChange {
    uint32_t clientHandle = 0;
    MonitoredItemSettings settings;
};

// The per-item outcome of create, modify, delete and setMonitoringMode. statusCode: the operation's
// result (e.g. Bad_NodeIdUnknown, Bad_AttributeIdInvalid, Bad_MonitoredItemFilterUnsupported,
// Bad_MonitoredItemIdInvalid for a clientHandle the subscription does not have).
struct MonitoredItemResult {
    uint32_t clientHandle = 0;
    StatusCode statusCode;
    uint32_t monitoredItemId = 0;
    double revisedSamplingIntervalMs = 0;
    uint32_t revisedQueueSize = 0;
    ExtensionObject filterResult;       // EventFilterResult for event items when the server sends one
};
struct MonitoredItemsResult {
    StatusCode status;                  // the service result or a local error
    std::vector<MonitoredItemResult> items;  // in the order of the request
};

// The content of one NotificationMessage (OPC 10000-4 7.25), delivered in sequence-number order.
struct SubscriptionNotification {
    SubscriptionHandle handle = 0;
    uint32_t subscriptionId = 0;
    uint32_t sequenceNumber = 0;
    DateTime publishTime;
    bool republished = false;           // obtained with Republish after a gap
    std::vector<MonitoredItemNotification> dataChanges;  // clientHandle + DataValue
    std::vector<EventFieldList> events;                  // clientHandle + the selected fields
};

// What a subscription's status handler is told.
enum class SubscriptionEvent {
    KeepAliveMissing,   // nothing within publishing interval x maxKeepAliveCount + margin (status Bad_Timeout)
    KeepAliveResumed,   // a message or keep-alive arrived again after KeepAliveMissing
    MessagesLost,       // sequence numbers first..last cannot be republished (Bad_MessageNotAvailable)
    ServerStatusChange, // a StatusChangeNotification (status: Bad_Timeout, Good_SubscriptionTransferred, ...)
    Transferred,        // moved to the new Session with TransferSubscriptions (status Good)
    Recreated,          // created again with its items (new subscriptionId; status: why, e.g. Bad_SubscriptionIdInvalid)
    Lost,               // given up (e.g. transferred to another client, or re-creation failed): status says why
};
const char* enumName(SubscriptionEvent e);  // its name; static text

struct SubscriptionStatusChange {
    SubscriptionHandle handle = 0;
    uint32_t subscriptionId = 0;
    SubscriptionEvent event = SubscriptionEvent::KeepAliveMissing;
    StatusCode status;
    uint32_t firstSequenceNumber = 0;   // MessagesLost: the range lost
    uint32_t lastSequenceNumber = 0;
};

// The handlers of one subscription; both run in the context's thread (see Client.h).
struct SubscriptionHandlers {
    std::function<void(const SubscriptionNotification&)> notification;  // every message with data or events
    std::function<void(const SubscriptionStatusChange&)> status;
};

using SubscriptionCallback = std::function<void(const SubscriptionInfo&)>;
using MonitoredItemsCallback = std::function<void(const MonitoredItemsResult&)>;

// Counters of a Client's subscription machinery (any thread; relaxed reads of atomics).
struct ClientSubscriptionCounters {
    uint32_t subscriptions = 0;
    uint32_t publishOutstanding = 0;    // Publish requests sent and not answered
    uint32_t publishTarget = 0;         // how many the client keeps outstanding now
    uint64_t publishResponses = 0;
    uint64_t notificationMessages = 0;  // messages with data delivered (republished ones included)
    uint64_t keepAlives = 0;
    uint64_t acknowledgementsSent = 0;
    uint64_t acknowledgementsUnknown = 0;   // results Bad_SequenceNumberUnknown
    uint64_t republishRequests = 0;
    uint64_t messagesRepublished = 0;
    uint64_t messagesLost = 0;
    uint64_t tooManyPublishRequests = 0;
};

// Helpers for event filters (OPC 10000-4 7.7.4 SimpleAttributeOperand, 7.4 ContentFilter).
// A select clause for a field of BaseEventType (typeDefinitionId i=2041), e.g. "Severity", or a
// path "A/B" of browse names in namespace 0.
SimpleAttributeOperand eventField(const std::string& browsePath, NodeId typeDefinitionId = NodeId(2041));
// An EventFilter selecting the given BaseEventType fields with no where clause.
EventFilter makeEventFilter(const std::vector<std::string>& fields);

} // namespace ua

Q_DECLARE_METATYPE(ua::SubscriptionStatusChange)

#include "ua/client/ConditionEvent.h"

#include "ua/client/subscriptions/ClientSubscription.h"
#include "ua/encoding/generated/NodeIds.h"

#include <array>

namespace ua {

namespace {

struct ConditionFieldSpec {
    const char* path;
    uint32_t type;
};

// In the order of ConditionField.
constexpr std::array<ConditionFieldSpec, std::size_t(ConditionField::Count)> kConditionFields = {{
    {"EventId", id::BaseEventType},
    {"EventType", id::BaseEventType},
    {"SourceNode", id::BaseEventType},
    {"SourceName", id::BaseEventType},
    {"Time", id::BaseEventType},
    {"ReceiveTime", id::BaseEventType},
    {"Message", id::BaseEventType},
    {"Severity", id::BaseEventType},
    {"", id::ConditionType},  // ConditionId: the NodeId attribute
    {"ConditionName", id::ConditionType},
    {"BranchId", id::ConditionType},
    {"Retain", id::ConditionType},
    {"EnabledState/Id", id::ConditionType},
    {"Quality", id::ConditionType},
    {"LastSeverity", id::ConditionType},
    {"Comment", id::ConditionType},
    {"ClientUserId", id::ConditionType},
    {"AckedState/Id", id::AcknowledgeableConditionType},
    {"ConfirmedState/Id", id::AcknowledgeableConditionType},
    {"ActiveState/Id", id::AlarmConditionType},
    {"ActiveState/EffectiveDisplayName", id::AlarmConditionType},
    {"ShelvingState/CurrentState/Id", id::AlarmConditionType},
    {"SuppressedOrShelved", id::AlarmConditionType},
    {"LimitState/CurrentState", id::ExclusiveLimitAlarmType},
}};

ContentFilterElement conditionOfType(uint32_t type) {
    ContentFilterElement e;
    e.filterOperator = FilterOperator::OfType;
    e.filterOperands = Array<ExtensionObject>{ExtensionObject::make(LiteralOperand{Variant(NodeId(type))})};
    return e;
}

ContentFilterElement conditionOr(uint32_t a, uint32_t b) {
    ContentFilterElement e;
    e.filterOperator = FilterOperator::Or;
    e.filterOperands = Array<ExtensionObject>{ExtensionObject::make(ElementOperand{a}), ExtensionObject::make(ElementOperand{b})};
    return e;
}

template <class T>
const T* conditionFieldOf(const Array<Variant>& fields, ConditionField f) {
    const std::size_t i = std::size_t(f);
    return i < fields.size() ? fields[i].get<T>() : nullptr;
}

} // namespace

EventFilter conditionEventFilter() {
    EventFilter f;
    f.selectClauses = Array<SimpleAttributeOperand>::emptyArray();
    for (const ConditionFieldSpec& s : kConditionFields) {
        SimpleAttributeOperand op = eventField(s.path, NodeId(s.type));
        if (op.browsePath.empty()) op.attributeId = uint32_t(AttributeId::NodeId);
        f.selectClauses.push_back(std::move(op));
    }
    // [0] = [1] Or [2]; [1] OfType ConditionType; [2] = [3] Or [4]; [3], [4] the refresh events.
    f.whereClause.elements = Array<ContentFilterElement>{conditionOr(1, 2), conditionOfType(id::ConditionType), conditionOr(3, 4),
                                                         conditionOfType(id::RefreshStartEventType), conditionOfType(id::RefreshEndEventType)};
    return f;
}

ConditionEvent parseConditionEvent(const Array<Variant>& fields) {
    ConditionEvent e;
    using F = ConditionField;
    if (auto* v = conditionFieldOf<ByteString>(fields, F::EventId)) e.eventId = *v;
    if (auto* v = conditionFieldOf<NodeId>(fields, F::EventType)) e.eventType = *v;
    if (auto* v = conditionFieldOf<NodeId>(fields, F::SourceNode)) e.sourceNode = *v;
    if (auto* v = conditionFieldOf<String>(fields, F::SourceName)) e.sourceName = *v;
    if (auto* v = conditionFieldOf<DateTime>(fields, F::Time)) e.time = *v;
    if (auto* v = conditionFieldOf<DateTime>(fields, F::ReceiveTime)) e.receiveTime = *v;
    if (auto* v = conditionFieldOf<LocalizedText>(fields, F::Message)) e.message = *v;
    if (auto* v = conditionFieldOf<uint16_t>(fields, F::Severity)) e.severity = *v;
    if (auto* v = conditionFieldOf<NodeId>(fields, F::ConditionId)) e.conditionId = *v;
    if (auto* v = conditionFieldOf<String>(fields, F::ConditionName)) e.conditionName = *v;
    if (auto* v = conditionFieldOf<NodeId>(fields, F::BranchId)) e.branchId = *v;
    if (auto* v = conditionFieldOf<bool>(fields, F::Retain)) e.retain = *v;
    if (auto* v = conditionFieldOf<bool>(fields, F::EnabledStateId)) e.enabled = *v;
    if (auto* v = conditionFieldOf<StatusCode>(fields, F::Quality)) e.quality = *v;
    if (auto* v = conditionFieldOf<uint16_t>(fields, F::LastSeverity)) e.lastSeverity = *v;
    if (auto* v = conditionFieldOf<LocalizedText>(fields, F::Comment)) e.comment = *v;
    if (auto* v = conditionFieldOf<String>(fields, F::ClientUserId)) e.clientUserId = *v;
    if (auto* v = conditionFieldOf<bool>(fields, F::AckedStateId)) e.acked = *v;
    if (auto* v = conditionFieldOf<bool>(fields, F::ConfirmedStateId)) e.confirmed = *v;
    if (auto* v = conditionFieldOf<bool>(fields, F::ActiveStateId)) e.active = *v;
    if (auto* v = conditionFieldOf<LocalizedText>(fields, F::ActiveStateEffectiveDisplayName)) e.activeText = *v;
    if (auto* v = conditionFieldOf<NodeId>(fields, F::ShelvingStateCurrentStateId)) {
        if (*v == NodeId(id::ShelvedStateMachineType_Unshelved)) e.shelving = AlarmShelving::Unshelved;
        else if (*v == NodeId(id::ShelvedStateMachineType_TimedShelved)) e.shelving = AlarmShelving::TimedShelved;
        else if (*v == NodeId(id::ShelvedStateMachineType_OneShotShelved)) e.shelving = AlarmShelving::OneShotShelved;
    }
    if (auto* v = conditionFieldOf<bool>(fields, F::SuppressedOrShelved)) e.suppressedOrShelved = *v;
    if (auto* v = conditionFieldOf<LocalizedText>(fields, F::LimitStateCurrentState)) e.limitState = v->text;
    if (e.eventType == NodeId(id::RefreshStartEventType)) e.kind = ConditionEvent::Kind::RefreshStart;
    else if (e.eventType == NodeId(id::RefreshEndEventType)) e.kind = ConditionEvent::Kind::RefreshEnd;
    else if (!e.conditionId.isNull()) e.kind = ConditionEvent::Kind::Condition;
    return e;
}

std::string conditionStateText(const ConditionEvent& e) {
    if (!e.enabled) return "Disabled";
    std::string s;
    if (e.active) {
        s = *e.active ? "Active" : "Inactive";
        if (*e.active && !e.limitState.isEmpty()) s += " " + e.limitState.str();
    }
    auto add = [&s](const char* part) {
        if (!s.empty()) s += ", ";
        s += part;
    };
    if (e.acked) add(*e.acked ? "Acknowledged" : "Unacknowledged");
    if (e.confirmed) add(*e.confirmed ? "Confirmed" : "Unconfirmed");
    if (e.shelving == AlarmShelving::TimedShelved) add("Shelved (timed)");
    else if (e.shelving == AlarmShelving::OneShotShelved) add("Shelved (one shot)");
    return s;
}

const char* alarmShelvingName(AlarmShelving s) {
    switch (s) {
    case AlarmShelving::None: return "";
    case AlarmShelving::Unshelved: return "Unshelved";
    case AlarmShelving::TimedShelved: return "TimedShelved";
    case AlarmShelving::OneShotShelved: return "OneShotShelved";
    }
    return "";
}

std::string eventIdHex(const ByteString& eventId) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(eventId.size() * 2);
    for (unsigned char c : eventId.view()) {
        out += kDigits[c >> 4];
        out += kDigits[c & 0xF];
    }
    return out;
}

std::optional<ByteString> eventIdFromHex(std::string_view hex) {
    if (hex.size() >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex.remove_prefix(2);
    if (hex.size() % 2) return std::nullopt;
    auto digit = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    std::string bytes;
    bytes.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        const int hi = digit(hex[i]), lo = digit(hex[i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        bytes += char(hi * 16 + lo);
    }
    return ByteString(std::move(bytes));
}

} // namespace ua

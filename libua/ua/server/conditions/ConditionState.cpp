#include "ua/server/conditions/ConditionState.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/eventmodel/ContentFilter.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace ua {

const char* alarmKindName(AlarmKind kind) {
    switch (kind) {
    case AlarmKind::ExclusiveLevel: return "exclusiveLevel";
    case AlarmKind::NonExclusiveLevel: return "nonExclusiveLevel";
    case AlarmKind::OffNormal: return "offNormal";
    case AlarmKind::Discrete: return "discrete";
    }
    return "exclusiveLevel";
}

std::optional<AlarmKind> alarmKindFromName(std::string_view name) {
    for (AlarmKind k : {AlarmKind::ExclusiveLevel, AlarmKind::NonExclusiveLevel, AlarmKind::OffNormal, AlarmKind::Discrete})
        if (name == alarmKindName(k)) return k;
    return std::nullopt;
}

NodeId conditionChildId(const NodeId& condition, std::string_view path) {
    std::string base = condition.idType() == NodeId::IdType::String ? std::string(condition.string().view()) : condition.toString();
    base += '/';
    base += path;
    return NodeId(condition.namespaceIndex(), String(base));
}

uint32_t alarmTypeId(AlarmKind kind) {
    switch (kind) {
    case AlarmKind::ExclusiveLevel: return id::ExclusiveLevelAlarmType;
    case AlarmKind::NonExclusiveLevel: return id::NonExclusiveLevelAlarmType;
    case AlarmKind::OffNormal: return id::OffNormalAlarmType;
    case AlarmKind::Discrete: return id::DiscreteAlarmType;
    }
    return id::AlarmConditionType;
}

namespace {

LocalizedText text(std::string_view s) { return LocalizedText{String("en"), String(s)}; }

std::optional<double> numberOf(const Variant& v) {
    if (v.isArray()) return std::nullopt;
    switch (v.type()) {
    case BuiltInType::Boolean: return *v.get<bool>() ? 1.0 : 0.0;
    case BuiltInType::SByte: return double(*v.get<int8_t>());
    case BuiltInType::Byte: return double(*v.get<uint8_t>());
    case BuiltInType::Int16: return double(*v.get<int16_t>());
    case BuiltInType::UInt16: return double(*v.get<uint16_t>());
    case BuiltInType::Int32: return double(*v.get<int32_t>());
    case BuiltInType::UInt32: return double(*v.get<uint32_t>());
    case BuiltInType::Int64: return double(*v.get<int64_t>());
    case BuiltInType::UInt64: return double(*v.get<uint64_t>());
    case BuiltInType::Float: return double(*v.get<float>());
    case BuiltInType::Double: return *v.get<double>();
    default: return std::nullopt;
    }
}

const char* limitName(LimitState s) {
    switch (s) {
    case LimitState::HighHigh: return "HighHigh";
    case LimitState::High: return "High";
    case LimitState::Low: return "Low";
    case LimitState::LowLow: return "LowLow";
    case LimitState::None: break;
    }
    return "";
}

uint32_t limitStateId(LimitState s) {
    switch (s) {
    case LimitState::HighHigh: return id::ExclusiveLimitStateMachineType_HighHigh;
    case LimitState::High: return id::ExclusiveLimitStateMachineType_High;
    case LimitState::Low: return id::ExclusiveLimitStateMachineType_Low;
    case LimitState::LowLow: return id::ExclusiveLimitStateMachineType_LowLow;
    case LimitState::None: break;
    }
    return 0;
}

bool isHigh(LimitState s) { return s == LimitState::High || s == LimitState::HighHigh; }

// The limit of a state, when the definition has it.
std::optional<double> limitOf(const AlarmDefinition& d, LimitState s) {
    switch (s) {
    case LimitState::HighHigh: return d.highHigh;
    case LimitState::High: return d.high;
    case LimitState::Low: return d.low;
    case LimitState::LowLow: return d.lowLow;
    case LimitState::None: break;
    }
    return std::nullopt;
}

// Whether state s holds for value v; held: s held before (then the deadband applies).
bool exceeds(const AlarmDefinition& d, LimitState s, double v, bool held) {
    const std::optional<double> limit = limitOf(d, s);
    if (!limit) return false;
    const double band = held ? d.deadband : 0;
    return isHigh(s) ? v >= *limit - band : v <= *limit + band;
}

// Whether s is a milder state than current on the same side (High below HighHigh, Low above LowLow).
bool milderOnItsSide(const AlarmDefinition& d, LimitState s, LimitState current) {
    if (current == LimitState::None || isHigh(s) != isHigh(current)) return false;
    const std::optional<double> ls = limitOf(d, s), lc = limitOf(d, current);
    return ls && lc && (isHigh(s) ? *ls < *lc : *ls > *lc);
}

constexpr LimitState kBySeverity[] = {LimitState::HighHigh, LimitState::LowLow, LimitState::High, LimitState::Low};

void setTwoState(Event& e, const std::string& name, bool on, const char* trueText, const char* falseText, const DateTime& since) {
    e.set(name, Variant(text(on ? trueText : falseText)));
    e.set(name + "/Id", Variant(on));
    if (since.ticks) e.set(name + "/TransitionTime", Variant(since));
}

uint32_t shelvedStateId(ShelvedState s) {
    switch (s) {
    case ShelvedState::TimedShelved: return id::ShelvedStateMachineType_TimedShelved;
    case ShelvedState::OneShotShelved: return id::ShelvedStateMachineType_OneShotShelved;
    case ShelvedState::Unshelved: break;
    }
    return id::ShelvedStateMachineType_Unshelved;
}

const char* shelvedStateName(ShelvedState s) {
    switch (s) {
    case ShelvedState::TimedShelved: return "TimedShelved";
    case ShelvedState::OneShotShelved: return "OneShotShelved";
    case ShelvedState::Unshelved: break;
    }
    return "Unshelved";
}

// The ShelvedStateMachineType transition from one state to another (OPC 10000-9 5.8.17.1).
uint32_t shelvingTransition(ShelvedState from, ShelvedState to) {
    using S = ShelvedState;
    if (from == S::Unshelved && to == S::TimedShelved) return id::ShelvedStateMachineType_UnshelvedToTimedShelved;
    if (from == S::Unshelved && to == S::OneShotShelved) return id::ShelvedStateMachineType_UnshelvedToOneShotShelved;
    if (from == S::TimedShelved && to == S::Unshelved) return id::ShelvedStateMachineType_TimedShelvedToUnshelved;
    if (from == S::TimedShelved && to == S::OneShotShelved) return id::ShelvedStateMachineType_TimedShelvedToOneShotShelved;
    if (from == S::OneShotShelved && to == S::Unshelved) return id::ShelvedStateMachineType_OneShotShelvedToUnshelved;
    if (from == S::OneShotShelved && to == S::TimedShelved) return id::ShelvedStateMachineType_OneShotShelvedToTimedShelved;
    return 0;
}

const char* shelvingTransitionName(uint32_t t) {
    switch (t) {
    case id::ShelvedStateMachineType_UnshelvedToTimedShelved: return "UnshelvedToTimedShelved";
    case id::ShelvedStateMachineType_UnshelvedToOneShotShelved: return "UnshelvedToOneShotShelved";
    case id::ShelvedStateMachineType_TimedShelvedToUnshelved: return "TimedShelvedToUnshelved";
    case id::ShelvedStateMachineType_TimedShelvedToOneShotShelved: return "TimedShelvedToOneShotShelved";
    case id::ShelvedStateMachineType_OneShotShelvedToUnshelved: return "OneShotShelvedToUnshelved";
    case id::ShelvedStateMachineType_OneShotShelvedToTimedShelved: return "OneShotShelvedToTimedShelved";
    default: return "";
    }
}

bool hasText(const LocalizedText& t) { return !t.text.isEmpty(); }

} // namespace

ConditionState::ConditionState(AlarmDefinition def, NodeId conditionId, NodeId source, std::string sourceName)
    : m_def(std::move(def)), m_id(std::move(conditionId)), m_source(std::move(source)), m_sourceName(std::move(sourceName)),
      m_severity(m_def.severity), m_lastSeverity(m_def.severity) {
    const DateTime now = DateTime::now();
    m_enabledTime = m_activeTime = m_ackedTime = m_confirmedTime = m_severityTime = now;
    m_input.status = status::BadWaitingForInitialData;
}

NodeId ConditionState::typeId() const { return NodeId(alarmTypeId(m_def.kind)); }

bool ConditionState::active() const {
    switch (m_def.kind) {
    case AlarmKind::ExclusiveLevel: return m_exclusive != LimitState::None;
    case AlarmKind::NonExclusiveLevel: return m_nonExclusive != 0;
    case AlarmKind::OffNormal:
    case AlarmKind::Discrete: return m_discreteActive;
    }
    return false;
}

bool ConditionState::limitActive(LimitState s) const {
    if (m_def.kind == AlarmKind::ExclusiveLevel) return m_exclusive == s && s != LimitState::None;
    return (m_nonExclusive >> uint8_t(s)) & 1;
}

ByteString ConditionState::lastEventId() const {
    if (!m_last) return {};
    const Variant* v = m_last->field("EventId");
    const ByteString* b = v ? v->get<ByteString>() : nullptr;
    return b ? *b : ByteString();
}

bool ConditionState::applyValue(const Variant& value) {
    if (m_def.kind == AlarmKind::OffNormal || m_def.kind == AlarmKind::Discrete) {
        const std::optional<int> c = compareFilterValues(value, m_def.stateValue);
        if (!c) return false;  // not comparable: no state change
        const bool on = m_def.kind == AlarmKind::OffNormal ? *c != 0 : *c == 0;
        if (on == m_discreteActive) return false;
        m_discreteActive = on;
        return true;
    }
    const std::optional<double> number = numberOf(value);
    if (!number || std::isnan(*number)) return false;
    const double v = *number;
    if (m_def.kind == AlarmKind::NonExclusiveLevel) {
        uint8_t bits = 0;
        for (LimitState s : kBySeverity)
            if (exceeds(m_def, s, v, limitActive(s))) bits |= uint8_t(1u << uint8_t(s));
        if (bits == m_nonExclusive) return false;
        m_nonExclusive = bits;
        return true;
    }
    // Exclusive: the most severe state that holds. The current state, and a milder one on its side
    // (High while HighHigh holds), were exceeded already: their deadband applies.
    LimitState next = LimitState::None;
    for (LimitState s : kBySeverity)
        if (exceeds(m_def, s, v, s == m_exclusive || milderOnItsSide(m_def, s, m_exclusive))) {
            next = s;
            break;
        }
    if (next == m_exclusive) return false;
    m_exclusive = next;
    return true;
}

void ConditionState::afterActiveChange(bool activeBefore) {
    const DateTime now = DateTime::now();
    const bool isActive = active();
    if (isActive != activeBefore) {
        m_activeTime = now;
        if (isActive) {  // a new alarm: it must be acknowledged
            if (m_acked) m_ackedTime = now;
            m_acked = false;
        } else if (m_shelved == ShelvedState::OneShotShelved) {  // 5.8.17: a one-shot shelving ends
            m_lastShelvingTransition = shelvingTransition(m_shelved, ShelvedState::Unshelved);
            m_shelved = ShelvedState::Unshelved;
            m_shelvingTime = now;
        }
    }
    bool critical = false;
    for (LimitState s : {LimitState::HighHigh, LimitState::LowLow}) critical = critical || limitActive(s);
    const uint16_t severity = critical ? m_def.criticalSeverity : m_def.severity;
    if (severity != m_severity) {
        m_lastSeverity = m_severity;
        m_severity = severity;
        m_severityTime = now;
    }
    m_message = isActive ? activeMessage() : m_def.name + ": back to normal";
}

bool ConditionState::evaluate(const DataValue& value) {
    const bool activeBefore = active();
    const StatusCode before = m_input.status;
    m_input = value;
    if (value.status.isGood() && value.value.isNull()) m_input.status = status::BadNoData;
    const bool numeric = m_def.kind == AlarmKind::OffNormal || m_def.kind == AlarmKind::Discrete || numberOf(value.value);
    if (value.status.isGood() && !numeric && !value.value.isNull()) m_input.status = status::BadTypeMismatch;
    const bool qualityChanged = !(m_input.status == before);
    if (!m_enabled) return false;
    const bool changed = m_input.status.isGood() && applyValue(value.value);
    if (changed) afterActiveChange(activeBefore);
    return changed || qualityChanged || !m_last;
}

bool ConditionState::expireShelving(int64_t nowMs) {
    if (m_shelved != ShelvedState::TimedShelved || nowMs < m_unshelveAtMs) return false;
    m_lastShelvingTransition = shelvingTransition(m_shelved, ShelvedState::Unshelved);
    m_shelved = ShelvedState::Unshelved;
    m_shelvingTime = DateTime::now();
    return m_enabled;
}

std::string ConditionState::stateText() const {
    switch (m_def.kind) {
    case AlarmKind::ExclusiveLevel: return limitName(m_exclusive);
    case AlarmKind::NonExclusiveLevel:
        for (LimitState s : kBySeverity)
            if (limitActive(s)) return limitName(s);
        return "";
    case AlarmKind::OffNormal: return "off normal";
    case AlarmKind::Discrete: return "in alarm";
    }
    return "";
}

std::string ConditionState::activeMessage() const {
    if (!m_def.message.empty()) return m_def.message;
    std::string m = m_def.name + ": " + stateText();
    if (const std::optional<double> v = numberOf(m_input.value)) {
        char buf[48];
        std::snprintf(buf, sizeof buf, " (%g)", *v);
        m += buf;
    }
    return m;
}

StatusCode ConditionState::checkEventId(const ByteString& eventId) const {
    return m_last && eventId == lastEventId() ? StatusCode(status::Good) : StatusCode(status::BadEventIdUnknown);
}

void ConditionState::applyComment(const LocalizedText& comment, const std::string& user) {
    m_clientUserId = user;
    if (!hasText(comment)) return;
    m_comment = comment;
    m_commentTime = DateTime::now();
}

StatusCode ConditionState::enable(const std::string& user) {
    if (m_enabled) return status::BadConditionAlreadyEnabled;
    m_enabled = true;
    m_enabledTime = DateTime::now();
    m_clientUserId = user;
    // 5.5.5: the condition is evaluated again, from the last input value.
    const bool activeBefore = false;
    if (m_input.status.isGood()) applyValue(m_input.value);
    afterActiveChange(activeBefore);
    if (!active()) m_message = m_def.name + ": enabled";
    return status::Good;
}

StatusCode ConditionState::disable(const std::string& user) {
    if (!m_enabled) return status::BadConditionAlreadyDisabled;
    m_enabled = false;
    const DateTime now = DateTime::now();
    m_enabledTime = now;
    m_clientUserId = user;
    // The alarm's states are not meaningful while disabled (5.5.4): reset, so Retain is false.
    if (active()) m_activeTime = now;
    m_exclusive = LimitState::None;
    m_nonExclusive = 0;
    m_discreteActive = false;
    m_acked = m_confirmed = true;
    m_message = m_def.name + ": disabled";
    return status::Good;
}

StatusCode ConditionState::addComment(const ByteString& eventId, const LocalizedText& comment, const std::string& user) {
    if (!m_enabled) return status::BadConditionDisabled;
    if (StatusCode s = checkEventId(eventId); s.isBad()) return s;
    applyComment(comment, user);
    return status::Good;
}

StatusCode ConditionState::acknowledge(const ByteString& eventId, const LocalizedText& comment, const std::string& user) {
    if (!m_enabled) return status::BadConditionDisabled;
    if (StatusCode s = checkEventId(eventId); s.isBad()) return s;
    if (m_acked) return status::BadConditionBranchAlreadyAcked;
    const DateTime now = DateTime::now();
    m_acked = true;
    m_ackedTime = now;
    m_confirmed = false;  // 5.7.4: it now waits for Confirm
    m_confirmedTime = now;
    applyComment(comment, user);
    return status::Good;
}

StatusCode ConditionState::confirm(const ByteString& eventId, const LocalizedText& comment, const std::string& user) {
    if (!m_enabled) return status::BadConditionDisabled;
    if (StatusCode s = checkEventId(eventId); s.isBad()) return s;
    if (m_confirmed) return status::BadConditionBranchAlreadyConfirmed;
    m_confirmed = true;
    m_confirmedTime = DateTime::now();
    applyComment(comment, user);
    return status::Good;
}

StatusCode ConditionState::timedShelve(double shelvingTimeMs, int64_t nowMs, const LocalizedText& comment, const std::string& user) {
    if (!m_enabled) return status::BadConditionDisabled;
    if (!(shelvingTimeMs > 0) || shelvingTimeMs > kMaxTimeShelvedMs) return status::BadShelvingTimeOutOfRange;
    if (m_shelved == ShelvedState::TimedShelved) return status::BadConditionAlreadyShelved;
    m_lastShelvingTransition = shelvingTransition(m_shelved, ShelvedState::TimedShelved);
    m_shelved = ShelvedState::TimedShelved;
    m_unshelveAtMs = nowMs + int64_t(std::ceil(shelvingTimeMs));
    m_shelvingTime = DateTime::now();
    applyComment(comment, user);
    return status::Good;
}

StatusCode ConditionState::oneShotShelve(const LocalizedText& comment, const std::string& user) {
    if (!m_enabled) return status::BadConditionDisabled;
    if (m_shelved == ShelvedState::OneShotShelved) return status::BadConditionAlreadyShelved;
    m_lastShelvingTransition = shelvingTransition(m_shelved, ShelvedState::OneShotShelved);
    m_shelved = ShelvedState::OneShotShelved;
    m_shelvingTime = DateTime::now();
    applyComment(comment, user);
    return status::Good;
}

StatusCode ConditionState::unshelve(const LocalizedText& comment, const std::string& user) {
    if (!m_enabled) return status::BadConditionDisabled;
    if (m_shelved == ShelvedState::Unshelved) return status::BadConditionNotShelved;
    m_lastShelvingTransition = shelvingTransition(m_shelved, ShelvedState::Unshelved);
    m_shelved = ShelvedState::Unshelved;
    m_shelvingTime = DateTime::now();
    applyComment(comment, user);
    return status::Good;
}

EventPtr ConditionState::report(int64_t nowMs) {
    if (m_message.empty()) m_message = active() ? activeMessage() : m_def.name + ": normal";
    auto e = makeEvent(typeId(), m_source, m_sourceName, m_message, m_severity);
    e->set("", Variant(m_id));  // the ConditionId (OPC 10000-9 5.5.2: the NodeId attribute of the event)
    e->set("ConditionClassId", Variant(NodeId(id::ProcessConditionClassType)));
    e->set("ConditionClassName", Variant(text("Process")));
    e->set("ConditionName", Variant(String(m_def.name)));
    e->set("BranchId", Variant(NodeId()));
    e->set("Retain", Variant(retain()));
    setTwoState(*e, "EnabledState", m_enabled, "Enabled", "Disabled", m_enabledTime);
    e->set("Quality", Variant(m_input.status));
    e->set("Quality/SourceTimestamp", Variant(m_input.sourceTimestamp));
    e->set("LastSeverity", Variant(m_lastSeverity));
    e->set("LastSeverity/SourceTimestamp", Variant(m_severityTime));
    e->set("Comment", Variant(m_comment));
    e->set("Comment/SourceTimestamp", Variant(m_commentTime));
    e->set("ClientUserId", Variant(String(m_clientUserId)));
    setTwoState(*e, "AckedState", m_acked, "Acknowledged", "Unacknowledged", m_ackedTime);
    setTwoState(*e, "ConfirmedState", m_confirmed, "Confirmed", "Unconfirmed", m_confirmedTime);
    setTwoState(*e, "ActiveState", active(), "Active", "Inactive", m_activeTime);
    e->set("ActiveState/EffectiveDisplayName", Variant(text(active() ? stateText() + " active" : std::string("Inactive"))));
    e->set("InputNode", Variant(m_def.input));
    setTwoState(*e, "SuppressedState", false, "Suppressed", "Unsuppressed", DateTime{});
    e->set("ShelvingState/CurrentState", Variant(text(shelvedStateName(m_shelved))));
    e->set("ShelvingState/CurrentState/Id", Variant(NodeId(shelvedStateId(m_shelved))));
    if (m_lastShelvingTransition) {
        e->set("ShelvingState/LastTransition", Variant(text(shelvingTransitionName(m_lastShelvingTransition))));
        e->set("ShelvingState/LastTransition/Id", Variant(NodeId(m_lastShelvingTransition)));
        e->set("ShelvingState/LastTransition/TransitionTime", Variant(m_shelvingTime));
    }
    e->set("ShelvingState/UnshelveTime",
           Variant(m_shelved == ShelvedState::TimedShelved ? double(std::max<int64_t>(0, m_unshelveAtMs - nowMs)) : 0.0));
    e->set("SuppressedOrShelved", Variant(m_shelved != ShelvedState::Unshelved));
    e->set("MaxTimeShelved", Variant(kMaxTimeShelvedMs));
    if (m_def.kind == AlarmKind::ExclusiveLevel || m_def.kind == AlarmKind::NonExclusiveLevel) {
        if (m_def.highHigh) e->set("HighHighLimit", Variant(*m_def.highHigh));
        if (m_def.high) e->set("HighLimit", Variant(*m_def.high));
        if (m_def.low) e->set("LowLimit", Variant(*m_def.low));
        if (m_def.lowLow) e->set("LowLowLimit", Variant(*m_def.lowLow));
    }
    if (m_def.kind == AlarmKind::ExclusiveLevel) {
        if (m_exclusive != LimitState::None) {
            e->set("LimitState/CurrentState", Variant(text(limitName(m_exclusive))));
            e->set("LimitState/CurrentState/Id", Variant(NodeId(limitStateId(m_exclusive))));
        } else {
            e->set("LimitState/CurrentState", Variant());
            e->set("LimitState/CurrentState/Id", Variant());
        }
    } else if (m_def.kind == AlarmKind::NonExclusiveLevel) {
        for (LimitState s : kBySeverity)
            if (limitOf(m_def, s)) setTwoState(*e, std::string(limitName(s)) + "State", limitActive(s), limitName(s), "Normal", DateTime{});
    } else if (m_def.kind == AlarmKind::OffNormal) {
        e->set("NormalState", Variant(conditionChildId(m_id, "NormalValue")));
    }
    m_last = e;
    return e;
}

} // namespace ua

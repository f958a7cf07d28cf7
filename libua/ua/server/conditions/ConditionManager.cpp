#include "ua/server/conditions/ConditionManager.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/events/EventManager.h"

#include <cmath>

namespace ua {

struct ConditionManager::Entry {
    ConditionState state;
    ConditionCells cells;
    NodeId shelvingId;  // the ShelvingState object
};

namespace {

bool badLimit(const std::optional<double>& l) { return l && !std::isfinite(*l); }

// The definition's problems (Bad_InvalidArgument) with the reason.
StatusCode checkDefinition(const AlarmDefinition& d, std::string& why) {
    const auto bad = [&](std::string reason) {
        why = std::move(reason);
        return StatusCode(status::BadInvalidArgument);
    };
    if (d.name.empty()) return bad("an alarm needs a name");
    if (d.name.find('/') != std::string::npos) return bad("an alarm's name has no '/'");
    if (d.severity < 1 || d.severity > 1000 || d.criticalSeverity < 1 || d.criticalSeverity > 1000)
        return bad("a severity is 1..1000");
    if (!std::isfinite(d.deadband) || d.deadband < 0) return bad("the deadband is a finite number >= 0");
    if (d.kind == AlarmKind::ExclusiveLevel || d.kind == AlarmKind::NonExclusiveLevel) {
        if (badLimit(d.highHigh) || badLimit(d.high) || badLimit(d.low) || badLimit(d.lowLow)) return bad("limits are finite numbers");
        if (!d.highHigh && !d.high && !d.low && !d.lowLow) return bad("a level alarm needs at least one limit");
        std::vector<double> order;
        for (const auto& l : {d.lowLow, d.low, d.high, d.highHigh})
            if (l) order.push_back(*l);
        for (std::size_t i = 1; i < order.size(); ++i)
            if (!(order[i - 1] < order[i])) return bad("limits must be ordered LowLow < Low < High < HighHigh");
    } else if (d.stateValue.isNull()) {
        return bad(d.kind == AlarmKind::OffNormal ? "an off-normal alarm needs its normal value" : "a discrete alarm needs its alarm value");
    }
    return status::Good;
}

StatusCode resolve(const AddressSpace& space, const std::string& uri, NodeId& id) {
    if (uri.empty() || id.isNull()) return status::Good;
    const int ns = space.namespaceIndex(uri);
    if (ns < 0) return status::BadNodeIdUnknown;
    id.setNamespaceIndex(uint16_t(ns));
    return status::Good;
}

DataValue readInput(const AddressSpace& space, const NodeId& input) {
    const Node* n = space.find(input);
    DataValue v;
    if (!n) {
        v.setStatus(status::BadNodeIdUnknown);
        return v;
    }
    if (n->rare->source->read) return n->rare->source->read();
    if (n->value && n->value->copyTo(v)) return v;
    v.setStatus(status::BadWaitingForInitialData);
    return v;
}

template <class T>
const T* input(const Array<Variant>& in, std::size_t i) {
    return i < in.size() ? in[i].get<T>() : nullptr;
}

} // namespace

ConditionManager::ConditionManager(std::shared_ptr<EventManager> events) : m_events(std::move(events)) {}
ConditionManager::~ConditionManager() = default;

void ConditionManager::setUserOf(std::function<std::string(const NodeId&)> userOf) { m_userOf = std::move(userOf); }

void ConditionManager::setAuditing(bool on, QString serverId) {
    m_auditing = on;
    m_serverId = std::move(serverId);
}

StatusCode ConditionManager::add(AddressSpace& space, AlarmDefinition def, std::string* error) {
    std::string why;
    const auto fail = [&](StatusCode s, std::string reason) {
        if (error) *error = std::move(reason);
        return s;
    };
    if (StatusCode s = checkDefinition(def, why); s.isBad()) return fail(s, why);
    std::lock_guard lock(m_mutex);
    for (const auto& e : m_entries)  // O(alarms): adding is rare
        if (e->state.definition().name == def.name) return fail(status::BadBrowseNameDuplicated, "an alarm named " + def.name + " exists");
    if (resolve(space, def.namespaceUri, def.input).isBad() || resolve(space, def.namespaceUri, def.source).isBad())
        return fail(status::BadNodeIdUnknown, "the server has no namespace " + def.namespaceUri);
    def.namespaceUri.clear();
    const Node* in = space.find(def.input);
    if (!in) return fail(status::BadNodeIdUnknown, "no node " + def.input.toString());
    if (in->nodeClass != NodeClass::Variable) return fail(status::BadNodeClassInvalid, def.input.toString() + " is not a Variable");
    NodeId source = def.source.isNull() ? def.input : def.source;
    const Node* src = space.find(source);
    if (!src) return fail(status::BadNodeIdUnknown, "no source node " + source.toString());
    NodeId id = def.conditionId.isNull() ? NodeId(1, String("Alarms/" + def.name)) : def.conditionId;
    if (space.find(id)) return fail(status::BadNodeIdExists, "the NodeId " + id.toString() + " is taken");
    const std::string sourceName(src->browseName.name.view());
    auto entry = std::unique_ptr<Entry>(new Entry{ConditionState(def, id, source, sourceName), {}, conditionChildId(id, "ShelvingState")});
    const EventPtr first = entry->state.report(0);
    if (StatusCode s = addConditionNodes(space, id, def.name, *first, def.kind == AlarmKind::OffNormal ? def.stateValue : Variant(),
                                         entry->cells);
        s.isBad())
        return fail(s, "the condition's nodes: " + s.name());
    m_byObject[id] = entry.get();
    m_byObject[entry->shelvingId] = entry.get();
    m_entries.push_back(std::move(entry));
    return status::Good;
}

StatusCode ConditionManager::remove(AddressSpace& space, const std::string& name) {
    std::lock_guard lock(m_mutex);
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if ((*it)->state.definition().name != name) continue;
        removeConditionNodes(space, (*it)->state.conditionId(), (*it)->cells);
        m_byObject.erase((*it)->state.conditionId());
        m_byObject.erase((*it)->shelvingId);
        m_entries.erase(it);
        return status::Good;
    }
    return status::BadNotFound;
}

std::size_t ConditionManager::size() const {
    std::lock_guard lock(m_mutex);
    return m_entries.size();
}

void ConditionManager::raise(Entry& e, int64_t nowMs) {
    const EventPtr ev = e.state.report(nowMs);
    storeConditionFields(*ev, e.cells);
    if (m_events && m_events->hasSubscribers()) m_events->raise(ev);
}

void ConditionManager::poll(const AddressSpace& space, int64_t nowMs) {
    std::lock_guard lock(m_mutex);
    for (auto& e : m_entries) {
        const bool changed = e->state.evaluate(readInput(space, e->state.definition().input));
        const bool expired = e->state.expireShelving(nowMs);
        if (changed || expired) raise(*e, nowMs);
    }
}

ConditionManager::Entry* ConditionManager::findByObject(const NodeId& object, bool& shelving) {
    const auto it = m_byObject.find(object);
    if (it == m_byObject.end()) return nullptr;
    shelving = it->second->shelvingId == object;
    return it->second;
}

StatusCode ConditionManager::call(ConditionMethod method, const NodeId& object, const Array<Variant>& in,
                                  const std::string& user, int64_t nowMs) {
    std::lock_guard lock(m_mutex);
    bool onShelving = false;
    Entry* e = findByObject(object, onShelving);
    if (!e) return status::BadNodeIdInvalid;
    const bool shelvingMethod = method >= ConditionMethod::TimedShelve;
    if (shelvingMethod != onShelving) return status::BadMethodInvalid;
    ConditionState& c = e->state;
    const LocalizedText noComment;
    const auto comment = [&](std::size_t i) -> const LocalizedText* { return input<LocalizedText>(in, i); };
    StatusCode s = status::BadInvalidArgument;
    switch (method) {
    case ConditionMethod::Enable: s = c.enable(user); break;
    case ConditionMethod::Disable: s = c.disable(user); break;
    case ConditionMethod::AddComment:
    case ConditionMethod::Acknowledge:
    case ConditionMethod::Confirm: {
        const ByteString* eventId = input<ByteString>(in, 0);
        const LocalizedText* text = comment(1);
        if (!eventId || !text) break;
        s = method == ConditionMethod::AddComment    ? c.addComment(*eventId, *text, user)
            : method == ConditionMethod::Acknowledge ? c.acknowledge(*eventId, *text, user)
                                                     : c.confirm(*eventId, *text, user);
        break;
    }
    case ConditionMethod::TimedShelve:
    case ConditionMethod::TimedShelve2: {
        const double* ms = input<double>(in, 0);
        const LocalizedText* text = method == ConditionMethod::TimedShelve2 ? comment(1) : &noComment;
        if (ms && text) s = c.timedShelve(*ms, nowMs, *text, user);
        break;
    }
    case ConditionMethod::OneShotShelve:
    case ConditionMethod::OneShotShelve2: {
        const LocalizedText* text = method == ConditionMethod::OneShotShelve2 ? comment(0) : &noComment;
        if (text) s = c.oneShotShelve(*text, user);
        break;
    }
    case ConditionMethod::Unshelve:
    case ConditionMethod::Unshelve2: {
        const LocalizedText* text = method == ConditionMethod::Unshelve2 ? comment(0) : &noComment;
        if (text) s = c.unshelve(*text, user);
        break;
    }
    }
    if (s.isGood()) raise(*e, nowMs);
    return s;
}

std::vector<ConditionSummary> ConditionManager::summaries() const {
    std::lock_guard lock(m_mutex);
    std::vector<ConditionSummary> out;
    out.reserve(m_entries.size());
    for (const auto& e : m_entries) {
        const ConditionState& c = e->state;
        ConditionSummary s;
        s.name = c.definition().name;
        s.conditionId = c.conditionId();
        s.source = c.sourceNode();
        s.inputNode = c.definition().input;
        s.kind = c.definition().kind;
        s.enabled = c.enabled();
        s.active = c.active();
        s.acked = c.acked();
        s.confirmed = c.confirmed();
        s.retain = c.retain();
        s.shelved = c.shelved();
        s.severity = c.severity();
        for (LimitState l : {LimitState::HighHigh, LimitState::High, LimitState::Low, LimitState::LowLow})
            if (c.limitActive(l)) {
                s.limitState = l == LimitState::HighHigh ? "HighHigh" : l == LimitState::High ? "High" : l == LimitState::Low ? "Low" : "LowLow";
                break;
            }
        if (const EventPtr& last = c.lastEvent()) {
            if (const Variant* m = last->field("Message"); m && m->get<LocalizedText>()) s.message = std::string(m->get<LocalizedText>()->text.view());
            if (const Variant* t = last->field("Time"); t && t->get<DateTime>()) s.time = *t->get<DateTime>();
            s.eventId = c.lastEventId();
        }
        s.value = c.input();
        s.comment = c.comment();
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<EventPtr> ConditionManager::retainedEvents() const {
    std::lock_guard lock(m_mutex);
    std::vector<EventPtr> out;
    for (const auto& e : m_entries)
        if (e->state.retain() && e->state.lastEvent()) out.push_back(e->state.lastEvent());
    return out;
}

std::vector<AlarmDefinition> ConditionManager::definitions() const {
    std::lock_guard lock(m_mutex);
    std::vector<AlarmDefinition> out;
    for (const auto& e : m_entries) out.push_back(e->state.definition());
    return out;
}

} // namespace ua

// An Event (OPC 10000-3 4.7, OPC 10000-5 6.4.2 BaseEventType) as the server raises it: an immutable
// set of fields, each named by its browse path from the EventType (the path of an
// InstanceDeclaration, e.g. "Severity", or "0:EnabledState/0:Id"), shared by every MonitoredItem
// that reports it (EventPtr).
//
// Build one with makeEvent() (it fills the BaseEventType fields), add the fields of the subtype with
// set(), then hand it to EventManager::raise() (events/EventManager.h). Once raised it is never
// changed: the I/O threads read it without locks.
#pragma once

#include "ua/encoding/generated/Types.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ua {

// The key of a field: its browse path as "Name/Name" with "ns:" before names of namespaces other
// than 0 (QualifiedName::toString). An empty path is "".
std::string eventFieldKey(const Array<QualifiedName>& browsePath);

class Event {
public:
    struct Field {
        std::string key;  // eventFieldKey() of the browse path
        Variant value;
    };

    // The EventType (an ObjectType, subtype of BaseEventType) also set as the EventType field.
    const NodeId& eventType() const { return m_eventType; }
    // The field of that browse path, or nullptr when the event does not have it.
    const Variant* field(std::string_view key) const;
    const std::vector<Field>& fields() const { return m_fields; }

    // Sets (or replaces) a field. Only before the event is raised.
    void set(std::string key, Variant value);
    void setEventType(const NodeId& type);

private:
    NodeId m_eventType;
    std::vector<Field> m_fields;
};

using EventPtr = std::shared_ptr<const Event>;

// An event of `type` with the BaseEventType fields (OPC 10000-5 6.4.2): EventId (16 random bytes),
// EventType, SourceNode, SourceName, Time and ReceiveTime (now), Message (locale "en"), Severity
// (1..1000, clamped).
std::shared_ptr<Event> makeEvent(const NodeId& type, const NodeId& sourceNode, std::string_view sourceName,
                                 std::string_view message, uint16_t severity);

} // namespace ua

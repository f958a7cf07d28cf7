#include "ua/server/eventmodel/Event.h"

#include "ua/secure/AsymmetricCrypto.h"

#include <algorithm>

namespace ua {

std::string eventFieldKey(const Array<QualifiedName>& browsePath) {
    std::string key;
    for (const QualifiedName& q : browsePath) {
        if (!key.empty()) key += '/';
        key += q.toString();
    }
    return key;
}

const Variant* Event::field(std::string_view key) const {
    for (const Field& f : m_fields)
        if (f.key == key) return &f.value;
    return nullptr;
}

void Event::set(std::string key, Variant value) {
    for (Field& f : m_fields)
        if (f.key == key) {
            f.value = std::move(value);
            return;
        }
    m_fields.push_back({std::move(key), std::move(value)});
}

void Event::setEventType(const NodeId& type) {
    m_eventType = type;
    set("EventType", Variant(type));
}

std::shared_ptr<Event> makeEvent(const NodeId& type, const NodeId& sourceNode, std::string_view sourceName,
                                 std::string_view message, uint16_t severity) {
    auto e = std::make_shared<Event>();
    const std::vector<uint8_t> id = crypto::randomBytes(16);
    const DateTime now = DateTime::now();
    e->set("EventId", Variant(ByteString(reinterpret_cast<const char*>(id.data()), id.size())));
    e->setEventType(type);
    e->set("SourceNode", Variant(sourceNode));
    e->set("SourceName", Variant(String(sourceName)));
    e->set("Time", Variant(now));
    e->set("ReceiveTime", Variant(now));
    e->set("Message", Variant(LocalizedText{String("en"), String(message)}));
    e->set("Severity", Variant(uint16_t(std::clamp<uint16_t>(severity, 1, 1000))));
    return e;
}

} // namespace ua

#include "ua/server/history/EventHistory.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/history/HistoryDatabase.h"

#include <algorithm>

namespace ua {

namespace {

// The time domain of a request (see the header): where the read starts, which way, where it ends.
struct EventDomain {
    bool ascending = true;
    int64_t from = 0;
    int64_t to = 0;       // inclusive
    std::size_t max = 0;  // numValuesPerNode; 0: all
};

EventDomain domainOf(const ReadEventDetails& d) {
    EventDomain m;
    const bool startSet = !d.startTime.isMin(), endSet = !d.endTime.isMin();
    m.ascending = startSet && (!endSet || d.endTime >= d.startTime);
    m.from = startSet ? d.startTime.ticks : d.endTime.ticks;
    const bool bounded = startSet && endSet;
    const bool point = bounded && d.startTime == d.endTime;
    if (m.ascending) m.to = !bounded ? INT64_MAX : point ? d.endTime.ticks : d.endTime.ticks - 1;
    else m.to = !bounded ? INT64_MIN : d.endTime.ticks + 1;
    m.max = d.numValuesPerNode;
    return m;
}

int64_t eventTime(const Event& e) {
    if (const Variant* t = e.field("Time"))
        if (const DateTime* dt = t->get<DateTime>()) return dt->ticks;
    return 0;
}

} // namespace

StatusCode checkReadEventDetails(const ReadEventDetails& d) {
    const int given = int(!d.startTime.isMin()) + int(!d.endTime.isMin()) + int(d.numValuesPerNode != 0);
    return given < 2 ? StatusCode(status::BadInvalidTimestampArgument) : StatusCode(status::Good);
}

QByteArray encodeEvent(const Event& e) {
    Buffer buf;
    BinaryEncoder enc(buf, EncodingLimits::defaults());
    encode(enc, e.eventType());
    enc.writePod<uint32_t>(uint32_t(e.fields().size()));
    for (const Event::Field& f : e.fields()) {
        encode(enc, String(f.key));
        encode(enc, f.value);
    }
    if (!enc.ok()) return {};
    return QByteArray(reinterpret_cast<const char*>(buf.data()), qsizetype(buf.size()));
}

std::shared_ptr<Event> decodeEvent(const QByteArray& data) {
    BinaryDecoder d(reinterpret_cast<const uint8_t*>(data.constData()), std::size_t(data.size()), EncodingLimits::defaults());
    auto e = std::make_shared<Event>();
    NodeId type;
    decode(d, type);
    const uint32_t n = d.readPod<uint32_t>();
    if (!d.ok() || n > d.remaining()) return nullptr;
    e->setEventType(type);
    for (uint32_t i = 0; i < n && d.ok(); ++i) {
        String key;
        Variant value;
        decode(d, key);
        decode(d, value);
        e->set(key.str(), std::move(value));
    }
    if (!d.ok() || !d.atEnd()) return nullptr;
    return e;
}

void EventHistory::record(const EventPtr& e, const std::vector<std::string>& notifiers) {
    if (!e || notifiers.empty()) return;
    const QByteArray data = encodeEvent(*e);
    if (data.isEmpty()) return;
    const int64_t time = eventTime(*e);
    for (const std::string& n : notifiers) m_pending.push_back({n, time, data});
}

int EventHistory::flush() {
    if (m_pending.empty()) return 0;
    m_db.begin();
    int written = 0;
    for (const Pending& p : m_pending) written += int(m_db.addEvent(p.notifier, p.time, p.data));
    m_db.commit();
    m_pending.clear();
    return written;
}

void EventHistory::trim(const std::string& notifier, int64_t olderThanTicks) {
    flush();
    m_db.removeEventsBefore(notifier, olderThanTicks);
}

EventReadOutcome EventHistory::read(const std::string& notifier, const ReadEventDetails& d, const CompiledEventFilter& filter,
                                    const AddressSpace& space, EventReadPosition at) {
    EventReadOutcome r;
    if (const StatusCode s = checkReadEventDetails(d); s.isBad()) {
        r.status = s;
        return r;
    }
    flush();  // what was recorded before this read is part of it
    const EventDomain m = domainOf(d);
    if (!at.started) at = {true, m.from, m.ascending ? int64_t(-1) : INT64_MAX};
    // At most numValuesPerNode, and never more than kMaxReturnEventValues in one response.
    const std::size_t cap = m.max == 0 ? kMaxReturnEventValues : std::min(m.max, kMaxReturnEventValues);
    std::vector<HistoryEventFieldList> out;
    EventReadPosition last = at;
    bool full = false;
    m_db.visitEvents(notifier, at.time, at.id, m.to, m.ascending, [&](int64_t id, int64_t time, const QByteArray& data) {
        if (out.size() >= cap) {
            full = true;  // one more exists: the read pauses at the last one returned
            return false;
        }
        last = {true, time, id};
        const std::shared_ptr<Event> e = decodeEvent(data);
        if (!e || !filter.matches(space, *e)) return true;
        HistoryEventFieldList fields;
        fields.eventFields = std::move(filter.select(space, *e, 0).eventFields);
        out.push_back(std::move(fields));
        return true;
    });
    r.events.events = Array<HistoryEventFieldList>(std::move(out));
    // Stopped by numValuesPerNode itself: the client asked for that many (6.5.2.2: a
    // ContinuationPoint when more remain). Stopped by the server's cap alone: the same.
    if (full) {
        r.more = true;
        r.next = last;
        r.status = status::GoodMoreData;
    } else {
        r.status = r.events.events.empty() ? StatusCode(status::GoodNoData) : StatusCode(status::Good);
    }
    return r;
}

} // namespace ua

// EventFilter (OPC 10000-4 1.05.03 7.22.3) compiled for one MonitoredItem: the selectClauses
// resolved to event fields and the whereClause (ContentFilter.h).
//
// compile() returns, for CreateMonitoredItems / ModifyMonitoredItems:
//   Good                    the item can be created; result lists per-clause errors if there
//                           are any (hasErrors), the fields of bad clauses are then always Null
//   Bad_EventFilterInvalid  no selectClauses, every selectClause bad, or a whereClause element
//                           bad (result.whereClauseResult says which element and operand)
// Select clause statuses (Table 145): those of compileSelector() (ContentFilter.h).
#pragma once

#include "ua/server/eventmodel/ContentFilter.h"

#include <vector>

namespace ua {

class CompiledEventFilter {
public:
    StatusCode compile(const AddressSpace& space, const EventFilter& filter, EventFilterResult& result, bool& hasErrors);
    // The whereClause (the EventQueueOverflowEventType bypasses it: the caller skips this).
    bool matches(const AddressSpace& space, const Event& e) const { return m_where.evaluate(space, e); }
    // The selected fields of an event, in selectClause order.
    EventFieldList select(const AddressSpace& space, const Event& e, uint32_t clientHandle) const;
    std::size_t fieldCount() const { return m_select.size(); }

private:
    struct Clause {
        FieldSelector field;
        bool valid = false;
    };
    std::vector<Clause> m_select;
    CompiledContentFilter m_where;
};

} // namespace ua

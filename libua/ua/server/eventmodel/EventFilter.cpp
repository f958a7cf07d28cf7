#include "ua/server/eventmodel/EventFilter.h"

#include "ua/encoding/generated/StatusCodes.h"

namespace ua {

StatusCode CompiledEventFilter::compile(const AddressSpace& space, const EventFilter& filter, EventFilterResult& result,
                                        bool& hasErrors) {
    result = EventFilterResult{};
    result.selectClauseResults = Array<StatusCode>::emptyArray();
    result.selectClauseDiagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    m_select.clear();
    hasErrors = false;
    std::size_t valid = 0;
    Array<StatusCode> codes = Array<StatusCode>::emptyArray();
    for (const SimpleAttributeOperand& op : filter.selectClauses) {
        Clause c;
        const StatusCode s = compileSelector(space, op, c.field);
        c.valid = s.isGood();
        if (c.valid) ++valid;
        else hasErrors = true;
        codes.push_back(s);
        m_select.push_back(std::move(c));
    }
    if (hasErrors) result.selectClauseResults = std::move(codes);
    const bool whereOk = m_where.compile(space, filter.whereClause, result.whereClauseResult);
    if (!whereOk) hasErrors = true;
    if (filter.selectClauses.empty()) {
        hasErrors = true;
        return status::BadEventFilterInvalid;
    }
    if (valid == 0 || !whereOk) return status::BadEventFilterInvalid;
    return status::Good;
}

EventFieldList CompiledEventFilter::select(const AddressSpace& space, const Event& e, uint32_t clientHandle) const {
    EventFieldList out;
    out.clientHandle = clientHandle;
    out.eventFields = Array<Variant>::emptyArray();
    out.eventFields.reserve(m_select.size());
    for (const Clause& c : m_select) out.eventFields.push_back(c.valid ? selectField(space, e, c.field) : Variant());
    return out;
}

} // namespace ua

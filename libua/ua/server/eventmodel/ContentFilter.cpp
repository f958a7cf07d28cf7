#include "ua/server/eventmodel/ContentFilter.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace ua {

namespace {

// --- Browse paths on the EventType hierarchy ---

NodeIndex findChild(const AddressSpace& space, NodeIndex parent, const QualifiedName& name, NodeIndex hierarchical) {
    for (const Reference& r : space.node(parent).references) {
        if (!r.isForward || !space.isSubtypeOf(r.referenceType, hierarchical)) continue;
        if (space.node(r.target).browseName == name) return r.target;
    }
    return kNoNode;
}

// The InstanceDeclaration at path below the fully inherited type (the type, then its supertypes).
NodeIndex resolvePath(const AddressSpace& space, NodeIndex type, const Array<QualifiedName>& path) {
    const NodeIndex hierarchical = space.indexOf(NodeId(id::HierarchicalReferences));
    for (int depth = 0; type != kNoNode && depth < 64; ++depth, type = space.node(type).superType) {
        NodeIndex n = findChild(space, type, path[0], hierarchical);
        for (std::size_t i = 1; n != kNoNode && i < path.size(); ++i) n = findChild(space, n, path[i], hierarchical);
        if (n != kNoNode) return n;
    }
    return kNoNode;
}

bool isEventType(const AddressSpace& space, NodeIndex type) {
    return type != kNoNode && space.node(type).nodeClass == NodeClass::ObjectType &&
           space.isSubtypeOf(type, space.indexOf(NodeId(id::BaseEventType)));
}

// --- Values and the conversions of 7.7.3 ---

// Table 123's precedence: 1 is the highest; 0 for types not in the table.
int precedence(BuiltInType t) {
    switch (t) {
    case BuiltInType::Double: return 1;
    case BuiltInType::Float: return 2;
    case BuiltInType::Int64: return 3;
    case BuiltInType::UInt64: return 4;
    case BuiltInType::Int32: return 5;
    case BuiltInType::UInt32: return 6;
    case BuiltInType::StatusCode: return 7;
    case BuiltInType::Int16: return 8;
    case BuiltInType::UInt16: return 9;
    case BuiltInType::SByte: return 10;
    case BuiltInType::Byte: return 11;
    case BuiltInType::Boolean: return 12;
    case BuiltInType::Guid: return 13;
    case BuiltInType::String: return 14;
    case BuiltInType::ExpandedNodeId: return 15;
    case BuiltInType::NodeId: return 16;
    case BuiltInType::LocalizedText: return 17;
    case BuiltInType::QualifiedName: return 18;
    default: return 0;
    }
}

bool isNumber(BuiltInType t) { return precedence(t) >= 1 && precedence(t) <= 12; }
bool isFloating(BuiltInType t) { return t == BuiltInType::Double || t == BuiltInType::Float; }

// An exact number: an integer as sign and magnitude, or a double.
struct Num {
    bool isDouble = false;
    double d = 0;
    bool neg = false;
    uint64_t mag = 0;
};

Num fromSigned(int64_t v) {
    Num n;
    n.neg = v < 0;
    n.mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    return n;
}
Num fromUnsigned(uint64_t v) { Num n; n.mag = v; return n; }
Num fromDouble(double v) { Num n; n.isDouble = true; n.d = v; return n; }
double asDouble(const Num& n) { return n.isDouble ? n.d : (n.neg ? -double(n.mag) : double(n.mag)); }

bool toNum(const Variant& v, Num& out) {
    switch (v.type()) {
    case BuiltInType::Boolean: out = fromUnsigned(*v.get<bool>() ? 1 : 0); return true;
    case BuiltInType::SByte: out = fromSigned(*v.get<int8_t>()); return true;
    case BuiltInType::Byte: out = fromUnsigned(*v.get<uint8_t>()); return true;
    case BuiltInType::Int16: out = fromSigned(*v.get<int16_t>()); return true;
    case BuiltInType::UInt16: out = fromUnsigned(*v.get<uint16_t>()); return true;
    case BuiltInType::Int32: out = fromSigned(*v.get<int32_t>()); return true;
    case BuiltInType::UInt32: out = fromUnsigned(*v.get<uint32_t>()); return true;
    case BuiltInType::StatusCode: out = fromUnsigned(v.get<StatusCode>()->code); return true;
    case BuiltInType::Int64: out = fromSigned(*v.get<int64_t>()); return true;
    case BuiltInType::UInt64: out = fromUnsigned(*v.get<uint64_t>()); return true;
    case BuiltInType::Float: out = fromDouble(*v.get<float>()); return true;
    case BuiltInType::Double: out = fromDouble(*v.get<double>()); return true;
    default: return false;
    }
}

// String -> number (7.7.3 Table 124): the text of an integer for integer types, of a real for
// Float and Double; "true"/"false" for Boolean.
bool parseNum(std::string_view s, BuiltInType target, Num& out) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    if (s.empty()) return false;
    if (target == BuiltInType::Boolean) {
        if (s == "true" || s == "1") { out = fromUnsigned(1); return true; }
        if (s == "false" || s == "0") { out = fromUnsigned(0); return true; }
        return false;
    }
    const char* b = s.data();
    const char* e = s.data() + s.size();
    if (isFloating(target)) {
        double d = 0;
        auto [p, ec] = std::from_chars(b, e, d);
        if (ec != std::errc() || p != e) return false;
        out = fromDouble(d);
        return true;
    }
    if (*b == '-') {
        int64_t i = 0;
        auto [p, ec] = std::from_chars(b, e, i);
        if (ec != std::errc() || p != e) return false;
        out = fromSigned(i);
        return true;
    }
    if (*b == '+') ++b;
    uint64_t u = 0;
    auto [p, ec] = std::from_chars(b, e, u);
    if (ec != std::errc() || p != e) return false;
    out = fromUnsigned(u);
    return true;
}

// Does an integer fit the target type (7.7.3: a conversion out of range fails)?
bool fits(const Num& n, BuiltInType t) {
    if (n.isDouble) return isFloating(t);
    auto within = [&](int64_t lo, uint64_t hi) {
        if (n.neg) return lo < 0 && n.mag <= uint64_t(0) - uint64_t(lo);
        return n.mag <= hi;
    };
    switch (t) {
    case BuiltInType::Double:
    case BuiltInType::Float: return true;
    case BuiltInType::Int64: return within(std::numeric_limits<int64_t>::min(), uint64_t(std::numeric_limits<int64_t>::max()));
    case BuiltInType::UInt64: return within(0, std::numeric_limits<uint64_t>::max());
    case BuiltInType::Int32: return within(INT32_MIN, INT32_MAX);
    case BuiltInType::UInt32:
    case BuiltInType::StatusCode: return within(0, UINT32_MAX);
    case BuiltInType::Int16: return within(INT16_MIN, INT16_MAX);
    case BuiltInType::UInt16: return within(0, UINT16_MAX);
    case BuiltInType::SByte: return within(INT8_MIN, INT8_MAX);
    case BuiltInType::Byte: return within(0, UINT8_MAX);
    case BuiltInType::Boolean: return within(0, 1);
    default: return false;
    }
}

int cmpNum(const Num& a, const Num& b) {
    if (a.isDouble || b.isDouble) {
        const double x = asDouble(a), y = asDouble(b);
        return x < y ? -1 : (x > y ? 1 : 0);
    }
    if (a.neg != b.neg) return a.neg ? -1 : 1;
    if (a.mag == b.mag) return 0;
    const bool less = a.mag < b.mag;
    return (less != a.neg) ? -1 : 1;
}

// The text form of a value converted to String (7.7.3 Table 124).
bool toText(const Variant& v, std::string& out) {
    switch (v.type()) {
    case BuiltInType::String: out = v.get<String>()->str(); return true;
    case BuiltInType::LocalizedText: out = v.get<LocalizedText>()->text.str(); return true;
    case BuiltInType::QualifiedName: out = v.get<QualifiedName>()->toString(); return true;
    case BuiltInType::NodeId: out = v.get<NodeId>()->toString(); return true;
    default: return false;
    }
}

constexpr int kUnordered = 2;  // equal: no; less/greater: undefined

} // namespace

std::optional<int> compareFilterValues(const Variant& a, const Variant& b) {
    if (a.isNull() || b.isNull() || a.isArray() || b.isArray()) return std::nullopt;
    const BuiltInType ta = a.type(), tb = b.type();
    if (ta == tb) {
        Num x, y;
        if (toNum(a, x) && toNum(b, y)) return cmpNum(x, y);
        switch (ta) {
        case BuiltInType::String: {
            const int c = a.get<String>()->str().compare(b.get<String>()->str());
            return c < 0 ? -1 : (c > 0 ? 1 : 0);
        }
        case BuiltInType::DateTime: {
            const int64_t x1 = a.get<DateTime>()->ticks, y1 = b.get<DateTime>()->ticks;
            return x1 < y1 ? -1 : (x1 > y1 ? 1 : 0);
        }
        default: return a == b ? 0 : kUnordered;
        }
    }
    const int pa = precedence(ta), pb = precedence(tb);
    if (pa == 0 || pb == 0) return std::nullopt;
    // The operand of lower precedence (larger number) is converted to the other's type.
    const bool aIsTarget = pa < pb;
    const Variant& target = aIsTarget ? a : b;
    const Variant& source = aIsTarget ? b : a;
    const BuiltInType tt = target.type();
    const int sign = aIsTarget ? 1 : -1;  // the result is for (a, b)
    if (isNumber(tt)) {
        Num t, s;
        toNum(target, t);
        if (toNum(source, s)) {
            if (!fits(s, tt)) return std::nullopt;
        } else if (source.type() == BuiltInType::String) {
            if (!parseNum(source.get<String>()->view(), tt, s) || !fits(s, tt)) return std::nullopt;
        } else {
            return std::nullopt;
        }
        return sign * cmpNum(t, s);
    }
    if (tt == BuiltInType::String) {
        std::string s;
        if (!toText(source, s)) return std::nullopt;
        const int c = target.get<String>()->str().compare(s);
        return sign * (c < 0 ? -1 : (c > 0 ? 1 : 0));
    }
    if (tt == BuiltInType::ExpandedNodeId && source.type() == BuiltInType::NodeId) {
        const ExpandedNodeId& e = *target.get<ExpandedNodeId>();
        return e == ExpandedNodeId(*source.get<NodeId>()) ? 0 : kUnordered;
    }
    return std::nullopt;
}

StatusCode compileSelector(const AddressSpace& space, const SimpleAttributeOperand& op, FieldSelector& out) {
    out = FieldSelector{};
    if (op.typeDefinitionId.isNull()) return status::BadTypeDefinitionInvalid;
    const NodeIndex type = space.indexOf(op.typeDefinitionId);
    if (type == kNoNode) return status::BadNodeIdUnknown;
    if (!isEventType(space, type)) return status::BadTypeDefinitionInvalid;
    // 7.22.3: with BaseEventType the path is evaluated without considering the type.
    out.type = op.typeDefinitionId == NodeId(id::BaseEventType) ? kNoNode : type;
    if (op.browsePath.empty()) {
        if (op.attributeId == uint32_t(AttributeId::NodeId)) { out.conditionId = true; return status::Good; }
        if (op.attributeId == uint32_t(AttributeId::Value)) return status::BadBrowseNameInvalid;
        return status::BadAttributeIdInvalid;
    }
    for (const QualifiedName& q : op.browsePath)
        if (q.name.isEmpty()) return status::BadBrowseNameInvalid;
    const NodeIndex field = resolvePath(space, type, op.browsePath);
    if (field == kNoNode) return status::BadBrowseNameInvalid;
    const NodeClass nc = space.node(field).nodeClass;
    if (nc == NodeClass::Variable) {
        if (op.attributeId != uint32_t(AttributeId::Value)) return status::BadAttributeIdInvalid;
    } else if (nc == NodeClass::Object) {
        // Object fields are available only for events visible in the address space (7.22.3):
        // none of ours are, so the NodeId of such a field is Null.
        if (op.attributeId != uint32_t(AttributeId::NodeId)) return status::BadAttributeIdInvalid;
        out.objectField = true;
        return status::Good;
    } else {
        return status::BadBrowseNameInvalid;
    }
    if (StatusCode s = NumericRange::parse(op.indexRange.view(), out.range); s.isBad()) return status::BadIndexRangeInvalid;
    out.key = eventFieldKey(op.browsePath);
    return status::Good;
}

Variant selectField(const AddressSpace& space, const Event& event, const FieldSelector& s) {
    if (s.objectField) return Variant();
    if (s.type != kNoNode && !space.isSubtypeOf(space.indexOf(event.eventType()), s.type)) return Variant();
    if (s.conditionId) {  // OPC 10000-9 5.5.2: the ConditionId of a condition's event, else Null
        const Variant* id = event.field("");
        return id ? *id : Variant();
    }
    const Variant* v = event.field(s.key);
    if (!v) return Variant();
    if (s.range.isEmpty()) return *v;
    Variant out;
    if (readRange(*v, s.range, out).isBad()) return Variant();
    return out;
}

// --- ContentFilter ---

namespace {

// Operand counts of Table 122: {min, max}; max 0 means unbounded.
bool operandCount(FilterOperator op, std::size_t& min, std::size_t& max) {
    switch (op) {
    case FilterOperator::IsNull:
    case FilterOperator::Not:
    case FilterOperator::OfType:
    case FilterOperator::InView: min = max = 1; return true;
    case FilterOperator::Equals:
    case FilterOperator::GreaterThan:
    case FilterOperator::LessThan:
    case FilterOperator::GreaterThanOrEqual:
    case FilterOperator::LessThanOrEqual:
    case FilterOperator::Like:
    case FilterOperator::And:
    case FilterOperator::Or:
    case FilterOperator::Cast:
    case FilterOperator::BitwiseAnd:
    case FilterOperator::BitwiseOr: min = max = 2; return true;
    case FilterOperator::Between: min = max = 3; return true;
    case FilterOperator::InList: min = 2; max = 0; return true;
    case FilterOperator::RelatedTo: min = max = 6; return true;
    }
    return false;
}

bool supported(FilterOperator op) {
    switch (op) {
    case FilterOperator::Like:
    case FilterOperator::Cast:
    case FilterOperator::InView:
    case FilterOperator::RelatedTo:
    case FilterOperator::BitwiseAnd:
    case FilterOperator::BitwiseOr: return false;
    default: return true;
    }
}

int fromBool(const Variant& v) {
    if (const bool* b = v.get<bool>()) return *b ? 1 : 0;
    return -1;
}

Variant truthVariant(int t) { return t < 0 ? Variant() : Variant(t == 1); }

} // namespace

bool CompiledContentFilter::compile(const AddressSpace& space, const ContentFilter& filter, ContentFilterResult& result) {
    m_elements.clear();
    result = ContentFilterResult{};
    result.elementResults = Array<ContentFilterElementResult>::emptyArray();
    result.elementDiagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    Array<ContentFilterElementResult> results = Array<ContentFilterElementResult>::emptyArray();
    bool ok = true;
    const std::size_t n = filter.elements.size();
    for (std::size_t i = 0; i < n; ++i) {
        const ContentFilterElement& in = filter.elements[i];
        ContentFilterElementResult r;
        r.operandStatusCodes = Array<StatusCode>::emptyArray();
        r.operandDiagnosticInfos = Array<DiagnosticInfo>::emptyArray();
        Element el;
        el.op = in.filterOperator;
        std::size_t min = 0, max = 0;
        if (!operandCount(in.filterOperator, min, max)) {
            r.statusCode = status::BadFilterOperatorInvalid;
        } else if (!supported(in.filterOperator)) {
            r.statusCode = status::BadFilterOperatorUnsupported;
        } else if (in.filterOperands.size() < min || (max && in.filterOperands.size() > max)) {
            r.statusCode = status::BadFilterOperandCountMismatch;
        } else {
            bool operandsOk = true;
            Array<StatusCode> codes = Array<StatusCode>::emptyArray();
            for (const ExtensionObject& x : in.filterOperands) {
                Operand op;
                StatusCode s = status::Good;
                if (const LiteralOperand* l = x.get<LiteralOperand>()) {
                    op.kind = Operand::Kind::Literal;
                    op.literal = l->value;
                    if (in.filterOperator == FilterOperator::OfType) {
                        const NodeId* t = l->value.get<NodeId>();
                        const NodeIndex ti = t ? space.indexOf(*t) : kNoNode;
                        if (!isEventType(space, ti)) s = status::BadFilterOperandInvalid;
                        op.ofType = ti;
                    }
                } else if (const ElementOperand* e = x.get<ElementOperand>()) {
                    op.kind = Operand::Kind::Element;
                    op.element = e->index;
                    if (e->index <= i || e->index >= n) s = status::BadFilterElementInvalid;  // no loops
                } else if (const SimpleAttributeOperand* a = x.get<SimpleAttributeOperand>()) {
                    op.kind = Operand::Kind::Field;
                    s = compileSelector(space, *a, op.field);
                } else {
                    s = status::BadFilterOperandInvalid;  // AttributeOperand, unknown or undecoded
                }
                if (in.filterOperator == FilterOperator::OfType && op.kind != Operand::Kind::Literal)
                    s = status::BadFilterOperandInvalid;
                if (s.isBad()) operandsOk = false;
                codes.push_back(s);
                el.operands.push_back(std::move(op));
            }
            if (!operandsOk) {
                r.statusCode = status::BadFilterOperandInvalid;
                r.operandStatusCodes = std::move(codes);
            }
        }
        if (r.statusCode.isBad()) ok = false;
        results.push_back(std::move(r));
        m_elements.push_back(std::move(el));
    }
    if (!ok) {
        result.elementResults = std::move(results);
        m_elements.clear();
    }
    return ok;
}

bool CompiledContentFilter::evaluate(const AddressSpace& space, const Event& event) const {
    if (m_elements.empty()) return true;
    // One result per element, computed from the last element to the first: the work is linear in
    // the number of elements (a filter whose elements each reference the next one twice would
    // otherwise cost 2^n evaluations). The buffer is the home thread's and keeps its capacity.
    thread_local std::vector<int8_t> results;
    results.assign(m_elements.size(), int8_t(-1));
    for (std::size_t i = m_elements.size(); i-- > 0;)
        results[i] = int8_t(truth(space, event, uint32_t(i), results.data()));
    return results[0] == 1;
}

Variant CompiledContentFilter::value(const AddressSpace& space, const Event& event, const Operand& op,
                                     const int8_t* results) const {
    switch (op.kind) {
    case Operand::Kind::Literal: return op.literal;
    case Operand::Kind::Field: return selectField(space, event, op.field);
    case Operand::Kind::Element:
        return truthVariant(op.element < m_elements.size() ? results[op.element] : -1);
    }
    return Variant();
}

int CompiledContentFilter::truth(const AddressSpace& space, const Event& event, uint32_t index,
                                 const int8_t* results) const {
    if (index >= m_elements.size()) return -1;
    const Element& el = m_elements[index];
    const auto& ops = el.operands;
    auto v = [&](std::size_t k) { return value(space, event, ops[k], results); };
    auto cmp = [&](std::size_t x, std::size_t y) { return compareFilterValues(v(x), v(y)); };
    switch (el.op) {
    case FilterOperator::Equals: {
        const auto c = cmp(0, 1);
        return c ? (*c == 0 ? 1 : 0) : -1;
    }
    case FilterOperator::IsNull: return v(0).isNull() ? 1 : 0;
    case FilterOperator::GreaterThan:
    case FilterOperator::LessThan:
    case FilterOperator::GreaterThanOrEqual:
    case FilterOperator::LessThanOrEqual: {
        const auto c = cmp(0, 1);
        if (!c || *c == kUnordered) return -1;
        switch (el.op) {
        case FilterOperator::GreaterThan: return *c > 0 ? 1 : 0;
        case FilterOperator::LessThan: return *c < 0 ? 1 : 0;
        case FilterOperator::GreaterThanOrEqual: return *c >= 0 ? 1 : 0;
        default: return *c <= 0 ? 1 : 0;
        }
    }
    case FilterOperator::Not: {
        const int t = fromBool(v(0));
        return t < 0 ? -1 : 1 - t;
    }
    case FilterOperator::And: {
        const int a = fromBool(v(0));
        if (a == 0) return 0;
        const int b = fromBool(v(1));
        if (b == 0) return 0;
        return (a == 1 && b == 1) ? 1 : -1;
    }
    case FilterOperator::Or: {
        const int a = fromBool(v(0));
        if (a == 1) return 1;
        const int b = fromBool(v(1));
        if (b == 1) return 1;
        return (a == 0 && b == 0) ? 0 : -1;
    }
    case FilterOperator::Between: {
        const Variant x = v(0);
        const auto lo = compareFilterValues(x, v(1));
        const auto hi = compareFilterValues(x, v(2));
        if (!lo || !hi || *lo == kUnordered || *hi == kUnordered) return -1;
        return (*lo >= 0 && *hi <= 0) ? 1 : 0;
    }
    case FilterOperator::InList: {
        const Variant x = v(0);
        if (x.isNull()) return -1;
        for (std::size_t k = 1; k < ops.size(); ++k) {
            const auto c = compareFilterValues(x, v(k));
            if (c && *c == 0) return 1;
        }
        return 0;
    }
    case FilterOperator::OfType:
        return space.isSubtypeOf(space.indexOf(event.eventType()), ops[0].ofType) ? 1 : 0;
    default: return -1;
    }
}

} // namespace ua

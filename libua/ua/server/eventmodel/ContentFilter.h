// ContentFilter (OPC 10000-4 1.05.03 7.7) as the EventFilter's whereClause uses it, and the
// SimpleAttributeOperand (7.7.4.5) that names event fields in select and where clauses.
//
// compile*() validates a filter against the address space once (on CreateMonitoredItems /
// ModifyMonitoredItems) and keeps what evaluation needs; evaluate() then runs per event on the
// item's home thread without allocating (operands are resolved to keys and type indexes).
//
// Operators (Table 122): Equals, IsNull, GreaterThan, LessThan, GreaterThanOrEqual,
// LessThanOrEqual, Not, Between, InList, And, Or, OfType. Like, Cast, InView, RelatedTo,
// BitwiseAnd and BitwiseOr are Bad_FilterOperatorUnsupported; a value outside the enumeration is
// Bad_FilterOperatorInvalid.
//
// Element status codes (7.7.2 Table 120): Bad_FilterOperandCountMismatch (too few or too many
// operands), Bad_FilterOperatorInvalid, Bad_FilterOperatorUnsupported, Bad_FilterOperandInvalid
// (an element with an invalid operand; operandStatusCodes then says which).
// Operand status codes (Table 121): Bad_FilterOperandInvalid (an AttributeOperand, which an
// EventFilter may not use, an undecoded or unknown operand, an OfType operand that is not the
// NodeId of an EventType), Bad_FilterElementInvalid (an ElementOperand that points outside the
// filter or back to its own or an earlier element: loops are not allowed), and for a
// SimpleAttributeOperand the statuses of compileSelector().
//
// Evaluation (7.7.1, 7.7.3): each element gives TRUE, FALSE or NULL; the event passes when the
// first element is TRUE. Comparisons convert the operand of lower precedence to the type of the
// other (7.7.3 Table 123: Double, Float, Int64, UInt64, Int32, UInt32, StatusCode, Int16, UInt16,
// SByte, Byte, Boolean, Guid, String, ExpandedNodeId, NodeId, LocalizedText, QualifiedName); a
// failed conversion (out of range, unparsable string) or a Null operand gives NULL, so the event
// does not pass. DateTime compares with DateTime, ByteString with ByteString (Equals only).
#pragma once

#include "ua/encoding/generated/Types.h"
#include "ua/server/addressspace/AddressSpace.h"
#include "ua/server/eventmodel/Event.h"
#include "ua/server/common/NumericRange.h"

#include <optional>
#include <string>
#include <vector>

namespace ua {

// A resolved SimpleAttributeOperand: the field it names.
struct FieldSelector {
    NodeIndex type = kNoNode;  // the typeDefinitionId; kNoNode for BaseEventType (any event)
    std::string key;           // eventFieldKey() of the browsePath
    bool conditionId = false;  // NodeId attribute with an empty path: the ConditionId (the event's "" field)
    bool objectField = false;  // NodeId attribute of an Object field: always Null (not in the address space)
    NumericRange range;
};

// Validates a SimpleAttributeOperand (7.7.4.5, 7.22.3 Table 145): Good, or
//   Bad_TypeDefinitionInvalid  typeDefinitionId null, or not an ObjectType below BaseEventType
//   Bad_NodeIdUnknown          typeDefinitionId not in the address space
//   Bad_BrowseNameInvalid      a browse path that no InstanceDeclaration of the fully inherited
//                              type has (or an empty path with the Value attribute)
//   Bad_AttributeIdInvalid     an attribute other than Value (Variables) or NodeId (Objects, the
//                              empty path)
//   Bad_IndexRangeInvalid      an indexRange that does not parse (7.27)
StatusCode compileSelector(const AddressSpace& space, const SimpleAttributeOperand& op, FieldSelector& out);

// The value of a selected field for an event: Null when the event is not of the selector's type
// or has no such field (7.22.3).
Variant selectField(const AddressSpace& space, const Event& event, const FieldSelector& s);

class CompiledContentFilter {
public:
    struct Operand {
        enum class Kind : uint8_t { Literal, Element, Field } kind = Kind::Literal;
        Variant literal;
        uint32_t element = 0;
        FieldSelector field;
        NodeIndex ofType = kNoNode;  // OfType: the EventType
    };
    struct Element {
        FilterOperator op = FilterOperator::Equals;
        std::vector<Operand> operands;
    };

    bool empty() const { return m_elements.empty(); }
    // True when the event passes (an empty filter passes everything).
    bool evaluate(const AddressSpace& space, const Event& event) const;

    // Validates filter; result gets one ContentFilterElementResult per element (empty
    // elementResults when every element is Good). Returns false when any element is Bad.
    bool compile(const AddressSpace& space, const ContentFilter& filter, ContentFilterResult& result);

private:
    // 1 TRUE, 0 FALSE, -1 NULL for logical results; values for operands. An ElementOperand reads
    // the result of a later element from `results`: evaluate() computes the elements from the last
    // to the first (compile() only accepts references to later elements), so each element is
    // evaluated once per event, without recursion, however the elements share sub-elements.
    Variant value(const AddressSpace& space, const Event& event, const Operand& op, const int8_t* results) const;
    int truth(const AddressSpace& space, const Event& event, uint32_t index, const int8_t* results) const;

    std::vector<Element> m_elements;
};

// Comparison of two values under the conversion rules of 7.7.3: -1, 0, 1, or nullopt when the
// values cannot be compared (NULL). Exposed for the tests.
std::optional<int> compareFilterValues(const Variant& a, const Variant& b);

} // namespace ua

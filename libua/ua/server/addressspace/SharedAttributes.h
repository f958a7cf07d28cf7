// The Attributes of a Node that many nodes have with the same values (OPC 10000-3 5.2 and 5.6.2:
// WriteMask, UserWriteMask, AccessRestrictions; a Variable's DataType, ValueRank,
// ArrayDimensions, AccessLevel, UserAccessLevel, AccessLevelEx, MinimumSamplingInterval and
// Historizing), kept once and shared by those nodes (Node::attrs, an OutOfLine: 8 bytes in the
// Node instead of 128).
//
// A NodeSet's variables of one type mostly differ in none of them: the importer and the loader of
// namespace 0 intern them (SharedAttributesPool), so a million such variables share a few blocks.
// A node that changes one of them gets a block of its own first (OutOfLine::edit()).
#pragma once

#include "ua/server/addressspace/OutOfLine.h"
#include "ua/types/NodeId.h"
#include "ua/types/Common.h"

#include <bit>
#include <cstdint>
#include <optional>
#include <unordered_map>

namespace ua {

// AccessLevelType bits (OPC 10000-3 8.57).
namespace access {
inline constexpr uint8_t CurrentRead = 0x01;
inline constexpr uint8_t CurrentWrite = 0x02;
inline constexpr uint8_t HistoryRead = 0x04;
inline constexpr uint8_t HistoryWrite = 0x08;
inline constexpr uint8_t SemanticChange = 0x10;
inline constexpr uint8_t StatusWrite = 0x20;
inline constexpr uint8_t TimestampWrite = 0x40;
} // namespace access

struct SharedAttributes {
    // Variable, VariableType.
    NodeId dataType;
    Array<uint32_t> arrayDimensions;    // null when not given
    // Variable.
    double minimumSamplingInterval = 0;  // ms; 0 fastest, -1 indeterminate
    // Every NodeClass.
    uint32_t writeMask = 0;              // AttributeWriteMask bits (OPC 10000-3 8.60)
    uint32_t userWriteMask = 0;
    // Variable, VariableType.
    int32_t valueRank = -1;              // -3 ScalarOrOneDimension, -2 Any, -1 Scalar, 0 OneOrMore, n
    // Variable.
    std::optional<uint32_t> accessLevelEx;       // absent: the AccessLevel bits
    // Every NodeClass.
    std::optional<uint16_t> accessRestrictions;  // AccessRestrictionType; absent when empty
    // Variable.
    uint8_t accessLevel = access::CurrentRead;
    uint8_t userAccessLevel = access::CurrentRead;
    bool historizing = false;

    // Field by field; MinimumSamplingInterval by its bits, so that a NaN a file gives equals
    // itself and its nodes share a block too.
    friend bool operator==(const SharedAttributes& a, const SharedAttributes& b) {
        return a.dataType == b.dataType && a.arrayDimensions == b.arrayDimensions &&
               std::bit_cast<uint64_t>(a.minimumSamplingInterval) == std::bit_cast<uint64_t>(b.minimumSamplingInterval) &&
               a.writeMask == b.writeMask && a.userWriteMask == b.userWriteMask && a.valueRank == b.valueRank &&
               a.accessLevelEx == b.accessLevelEx && a.accessRestrictions == b.accessRestrictions &&
               a.accessLevel == b.accessLevel && a.userAccessLevel == b.userAccessLevel && a.historizing == b.historizing;
    }
    std::size_t hash() const;
};

// Hands out one shared block per distinct SharedAttributes. Not thread-safe: one pool per thread.
class SharedAttributesPool {
public:
    // The pool's block equal to a (added when new).
    OutOfLine<SharedAttributes> intern(const SharedAttributes& a);
    std::size_t size() const { return m_blocks.size(); }

private:
    struct Hash {
        std::size_t operator()(const SharedAttributes& a) const { return a.hash(); }
    };
    std::unordered_map<SharedAttributes, OutOfLine<SharedAttributes>, Hash> m_blocks;
};

inline std::size_t SharedAttributes::hash() const {
    std::size_t h = dataType.hash();
    const auto mix = [&h](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    mix(std::size_t(uint32_t(valueRank)) | std::size_t(accessLevel) << 32 | std::size_t(userAccessLevel) << 40 |
        std::size_t(historizing) << 48);
    mix(std::size_t(writeMask) | std::size_t(userWriteMask) << 32);
    mix(arrayDimensions.size());
    mix(std::bit_cast<uint64_t>(minimumSamplingInterval));
    mix(accessLevelEx ? *accessLevelEx + 1 : 0);
    mix(accessRestrictions ? *accessRestrictions + 1 : 0);
    return h;
}

inline OutOfLine<SharedAttributes> SharedAttributesPool::intern(const SharedAttributes& a) {
    if (const auto it = m_blocks.find(a); it != m_blocks.end()) return it->second;
    return m_blocks.emplace(a, OutOfLine<SharedAttributes>(a)).first->second;
}

} // namespace ua

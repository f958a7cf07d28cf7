// The standard AggregateFunctions of OPC 10000-13 (5.4.3), ns=0 Objects of AggregateFunctionType,
// by BrowseName and NodeId, for a client that names an aggregate in text ("Average", i=2342).
// Which of them a server computes it lists in Server.ServerCapabilities.AggregateFunctions; a
// Read Processed of another answers Bad_AggregateNotSupported.
#pragma once

#include "ua/types/NodeId.h"

#include <optional>
#include <span>
#include <string_view>

namespace ua {

struct AggregateName {
    const char* name;  // the BrowseName, "TimeAverage2"
    uint32_t id;       // its numeric NodeId in namespace 0 (id::AggregateFunction_TimeAverage2)
};

// Every standard aggregate of the generated NodeIds (37), in the order of OPC 10000-13 5.4.3.
std::span<const AggregateName> standardAggregates();
// "average", "Average" -> i=2342 (ASCII case ignored); nullopt for a name not in the table.
std::optional<NodeId> aggregateFromName(std::string_view name);
// i=2342 -> "Average"; nullptr for a NodeId not in the table.
const char* aggregateNameOf(const NodeId& id);

} // namespace ua

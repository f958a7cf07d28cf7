// The text form of a RelativePath (OPC 10000-4 A.2), for TranslateBrowsePathsToNodeIds:
//   "/0:Objects/0:Server.0:ServerStatus"   '/' follows HierarchicalReferences, '.' Aggregates
//   "<HasComponent>1:Boiler"               a ReferenceType by BrowseName ('#' no subtypes, '!' inverse)
// A BrowseName may carry a namespace index prefix "2:"; without it the index is 0. '&' escapes the
// reserved characters / . < > : # ! &. ReferenceTypes in '<...>' are looked up among the standard
// ones of namespace 0 (HasComponent, Organizes, HasProperty, ...); others make the parse fail.
#pragma once

#include "ua/encoding/generated/Types.h"

#include <optional>
#include <string_view>

namespace ua {

std::optional<RelativePath> parseRelativePath(std::string_view text);
// A BrowsePath from a start node and a RelativePath text; nullopt when the text does not parse.
std::optional<BrowsePath> makeBrowsePath(const NodeId& startingNode, std::string_view relativePath);

} // namespace ua

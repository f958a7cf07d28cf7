// The NodeManager of namespace 0 (http://opcfoundation.org/UA/): loads every node, attribute and
// reference of Opc.Ua.NodeSet2.xml from the generated tables (Ns0Tables.h) into an AddressSpace.
// Install it first, into an AddressSpace without namespace-0 nodes. Loading takes a few ms
// (docs/AddressSpace.md has the measured figure).
//
// Everything is loaded as the NodeSet gives it: Variables whose value the NodeSet leaves out
// (ServerStatus, NamespaceArray, ...) have a null Value until the server runtime sets a value or
// a ValueSource on them.
#pragma once

#include "ua/server/addressspace/NodeManager.h"

namespace ua {

class Ns0NodeManager final : public NodeManager {
public:
    Ns0NodeManager() : NodeManager(std::string(AddressSpace::kNs0Uri)) {}

protected:
    // Bad_NodeIdExists when a namespace-0 node is present already; Bad_DecodingError when a
    // table value does not decode (a generator bug).
    StatusCode populate(AddressSpace& space) override;
};

} // namespace ua

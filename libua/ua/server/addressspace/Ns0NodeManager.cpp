#include "ua/server/addressspace/Ns0NodeManager.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/NodeAttributes.h"
#include "ua/server/addressspace/Ns0Tables.h"

namespace ua {

StatusCode Ns0NodeManager::populate(AddressSpace& space) {
    const ns0::Tables& t = ns0::tables();
    const auto base = NodeIndex(space.size());
    space.reserve(base + t.nodes.size());

    // References per node (both directions), so each node's list is allocated once.
    std::vector<uint32_t> refCount(t.nodes.size(), 0);
    for (const ns0::ReferenceRecord& r : t.references) {
        ++refCount[r.source];
        ++refCount[r.target];
    }

    SharedAttributesPool attributes;  // nodes with equal attributes share one block
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
        const ns0::NodeRecord& r = t.nodes[i];
        Node n;
        n.nodeId = NodeId(r.id);
        n.nodeClass = NodeClass(r.nodeClass);
        n.browseName = {0, String(t.string(r.browseName))};
        n.setDisplayName(LocalizedText{String(), String(t.string(r.displayName))});
        n.isAbstract = r.flags & ns0::IsAbstract;
        n.symmetric = r.flags & ns0::Symmetric;
        n.containsNoLoops = r.flags & ns0::ContainsNoLoops;
        n.executable = r.flags & ns0::Executable;
        n.userExecutable = r.flags & ns0::UserExecutable;
        n.eventNotifier = r.eventNotifier;
        SharedAttributes a;
        a.historizing = r.flags & ns0::Historizing;
        if (n.nodeClass == NodeClass::Variable || n.nodeClass == NodeClass::VariableType) {
            a.dataType = NodeId(r.dataType);
            a.valueRank = r.valueRank;
        }
        a.accessLevel = r.accessLevel;
        a.userAccessLevel = r.userAccessLevel;
        n.attrs = attributes.intern(a);
        n.references.reserve(refCount[i]);
        const StatusCode s = space.addNode(std::move(n));
        if (s.isBad()) return s;
    }

    for (const ns0::ReferenceRecord& r : t.references)
        space.addReferenceUnchecked(base + r.source, base + r.referenceType, base + r.target);

    for (const ns0::AttributeRecord& a : t.attributes) {
        BinaryDecoder d(t.blob.data() + a.offset, t.blob.size() - a.offset);
        Variant v;
        decode(d, v);
        if (!d.ok()) return status::BadDecodingError;
        const StatusCode s = setAttribute(space.nodeMutable(base + a.node), AttributeId(a.attributeId), v);
        if (s.isBad()) return s;
    }
    return status::Good;
}

} // namespace ua

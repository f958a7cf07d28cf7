#include "ua/server/conditions/ConditionNodes.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/conditions/ConditionState.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace ua {

namespace {

struct Declaration {
    NodeIndex node = kNoNode;
    NodeIndex referenceType = kNoNode;  // from its parent
};

// The child of parent (forward hierarchical references) with that BrowseName.
Declaration childNamed(const AddressSpace& s, NodeIndex parent, std::string_view name, NodeIndex hierarchical) {
    for (const Reference& r : s.node(parent).references.forward()) {
        if (!s.isSubtypeOf(r.referenceType, hierarchical)) continue;
        const QualifiedName& b = s.node(r.target).browseName;
        if (b.namespaceIndex == 0 && b.name.view() == name) return {r.target, r.referenceType};
    }
    return {};
}

// The declaration of name below parent: parent's own children, then those of parent's type (for
// an instance declaration: its TypeDefinition) and its supertypes.
Declaration declarationOf(const AddressSpace& s, NodeIndex parent, std::string_view name, NodeIndex hierarchical) {
    if (Declaration d = childNamed(s, parent, name, hierarchical); d.node != kNoNode) return d;
    const Node& p = s.node(parent);
    NodeIndex type = (p.nodeClass == NodeClass::Object || p.nodeClass == NodeClass::Variable) ? s.typeDefinition(parent) : p.superType;
    for (int depth = 0; type != kNoNode && depth < 32; ++depth, type = s.node(type).superType)
        if (Declaration d = childNamed(s, type, name, hierarchical); d.node != kNoNode) return d;
    return {};
}

std::vector<std::string_view> splitPath(std::string_view key) {
    std::vector<std::string_view> parts;
    while (!key.empty()) {
        const std::size_t slash = key.find('/');
        parts.push_back(key.substr(0, slash));
        if (slash == std::string_view::npos) break;
        key.remove_prefix(slash + 1);
    }
    return parts;
}

// The Methods made on instances, by the name of their declaration.
constexpr std::string_view kConditionMethods[] = {"Enable", "Disable", "AddComment", "Acknowledge", "Confirm"};
constexpr std::string_view kShelvingMethods[] = {"TimedShelve", "OneShotShelve", "Unshelve", "TimedShelve2", "OneShotShelve2", "Unshelve2"};

StatusCode addNodeFrom(AddressSpace& s, const NodeId& id, const NodeId& parent, const Declaration& d, const Variant* value,
                       const DateTime& time, ConditionCells* cells, const std::string& key) {
    const Node& decl = s.node(d.node);
    Node n;
    n.nodeId = id;
    n.nodeClass = decl.nodeClass;
    n.browseName = decl.browseName;
    n.setDisplayName(decl.displayName());
    if (decl.rare->description.isSet()) n.rare.edit().description = decl.rare->description;
    NodeId typeDefinition;
    if (decl.nodeClass == NodeClass::Variable) {
        n.attrs.edit().dataType = decl.attrs->dataType;
        n.attrs.edit().valueRank = decl.attrs->valueRank;
        n.attrs.edit().arrayDimensions = decl.attrs->arrayDimensions;
        n.attrs.edit().accessLevel = n.attrs.edit().userAccessLevel = access::CurrentRead;
        DataValue dv(value ? *value : Variant());
        if (!value && decl.value)
            if (auto held = decl.value->load()) dv.value = held->value;  // e.g. a Method's InputArguments
        dv.setStatus(status::Good);
        dv.setSourceTimestamp(time);
        n.value = ValueCell::make(std::move(dv));
        if (cells) (*cells)[key] = n.value;
    } else if (decl.nodeClass == NodeClass::Method) {
        n.executable = n.userExecutable = true;
        if (decl.rare->method) n.rare.edit().method = decl.rare->method;  // the declaration's handler (ConditionMethods.h installs it first)
    }
    const NodeIndex td = s.typeDefinition(d.node);
    if (td != kNoNode) typeDefinition = s.node(td).nodeId;
    const NodeId referenceType = s.node(d.referenceType).nodeId;
    StatusCode st = s.addNode(std::move(n));
    if (st.isGood()) st = s.addReference(parent, referenceType, id);
    if (st.isGood() && !typeDefinition.isNull()) st = s.addReference(id, NodeId(id::HasTypeDefinition), typeDefinition);
    return st;
}

// The Method declared as name below parentDecl (or its type), with its InputArguments, on parent.
StatusCode addMethodFrom(AddressSpace& s, const NodeId& condition, const std::string& parentPath, const NodeId& parent,
                         NodeIndex parentDecl, std::string_view name, NodeIndex hierarchical) {
    const Declaration d = declarationOf(s, parentDecl, name, hierarchical);
    if (d.node == kNoNode || s.node(d.node).nodeClass != NodeClass::Method) return status::Good;  // not in this schema
    const std::string path = parentPath.empty() ? std::string(name) : parentPath + "/" + std::string(name);
    const NodeId id = conditionChildId(condition, path);
    StatusCode st = addNodeFrom(s, id, parent, d, nullptr, DateTime::now(), nullptr, path);
    if (st.isBad()) return st;
    const Declaration args = childNamed(s, d.node, "InputArguments", hierarchical);
    if (args.node != kNoNode) st = addNodeFrom(s, conditionChildId(condition, path + "/InputArguments"), id, args, nullptr, DateTime::now(), nullptr, {});
    return st;
}

} // namespace

NodeId alarmsFolderId() { return NodeId(1, String("Alarms")); }

StatusCode addConditionNodes(AddressSpace& s, const NodeId& condition, const std::string& name, const Event& first,
                             const Variant& normalValue, ConditionCells& cells) {
    if (s.find(condition)) return status::BadNodeIdExists;
    const NodeIndex type = s.indexOf(first.eventType());
    const NodeIndex hierarchical = s.indexOf(NodeId(id::HierarchicalReferences));
    if (type == kNoNode || hierarchical == kNoNode) return status::BadTypeDefinitionInvalid;
    const Variant* sourceField = first.field("SourceNode");
    const NodeId* source = sourceField ? sourceField->get<NodeId>() : nullptr;
    if (!source || !s.find(*source)) return status::BadNodeIdUnknown;
    const Variant* timeField = first.field("Time");
    const DateTime time = timeField && timeField->get<DateTime>() ? *timeField->get<DateTime>() : DateTime::now();

    if (!s.find(alarmsFolderId())) {
        Node f;
        f.nodeId = alarmsFolderId();
        f.nodeClass = NodeClass::Object;
        f.browseName = {1, String("Alarms")};
        f.setDisplayName(LocalizedText{String(), String("Alarms")});
        f.rare.edit().description.edit().text = String("The alarm conditions the server watches (OPC 10000-9)");
        StatusCode st = s.addNode(std::move(f));
        if (st.isGood()) st = s.addReference(NodeId(id::ObjectsFolder), NodeId(id::Organizes), alarmsFolderId());
        if (st.isGood()) st = s.addReference(alarmsFolderId(), NodeId(id::HasTypeDefinition), NodeId(id::FolderType));
        if (st.isBad()) return st;
    }
    Node c;
    c.nodeId = condition;
    c.nodeClass = NodeClass::Object;
    c.browseName = {1, String(name)};
    c.setDisplayName(LocalizedText{String(), String(name)});
    StatusCode st = s.addNode(std::move(c));
    if (st.isGood()) st = s.addReference(alarmsFolderId(), NodeId(id::Organizes), condition);
    if (st.isGood()) st = s.addReference(condition, NodeId(id::HasTypeDefinition), first.eventType());
    if (st.isGood()) st = s.addReference(*source, NodeId(id::HasCondition), condition);
    if (st.isGood() && s.find(*source)->nodeClass == NodeClass::Object)
        st = s.addReference(*source, NodeId(id::HasComponent), condition);
    if (st.isBad()) return st;

    // The state: a node per field path, its parents first (the fields list them in that order).
    std::map<std::string, NodeIndex, std::less<>> declOf;  // path -> its declaration
    for (const Event::Field& f : first.fields()) {
        if (f.key.empty()) continue;  // the ConditionId: the condition's own NodeId
        NodeIndex parentDecl = type;
        NodeId parent = condition;
        std::string path;
        for (std::string_view part : splitPath(f.key)) {
            path = path.empty() ? std::string(part) : path + "/" + std::string(part);
            if (auto it = declOf.find(path); it != declOf.end()) {
                parentDecl = it->second;
                parent = conditionChildId(condition, path);
                continue;
            }
            const Declaration d = declarationOf(s, parentDecl, part, hierarchical);
            if (d.node == kNoNode) break;  // not a field of this type in this schema: no node
            const NodeId id = conditionChildId(condition, path);
            const bool leaf = path == f.key;
            const Variant* value = leaf ? &f.value : first.field(path);
            st = addNodeFrom(s, id, parent, d, value, time, &cells, path);
            if (st.isBad()) return st;
            declOf.emplace(path, d.node);
            parentDecl = d.node;
            parent = id;
        }
    }
    for (std::string_view m : kConditionMethods)
        if (st = addMethodFrom(s, condition, {}, condition, type, m, hierarchical); st.isBad()) return st;
    if (auto it = declOf.find("ShelvingState"); it != declOf.end())
        for (std::string_view m : kShelvingMethods)
            if (st = addMethodFrom(s, condition, "ShelvingState", conditionChildId(condition, "ShelvingState"), it->second, m,
                                   hierarchical);
                st.isBad())
                return st;
    if (!normalValue.isNull()) {
        Node v;
        v.nodeId = conditionChildId(condition, "NormalValue");
        v.nodeClass = NodeClass::Variable;
        v.browseName = {1, String("NormalValue")};
        v.setDisplayName(LocalizedText{String(), String("NormalValue")});
        v.rare.edit().description.edit().text = String("The value the input has when the alarm is normal (NormalState names this node)");
        v.attrs.edit().dataType = NodeId(id::BaseDataType);
        v.attrs.edit().valueRank = -2;
        DataValue dv(normalValue);
        dv.setStatus(status::Good);
        dv.setSourceTimestamp(time);
        v.value = ValueCell::make(std::move(dv));
        st = s.addNode(std::move(v));
        if (st.isGood()) st = s.addReference(condition, NodeId(id::HasProperty), conditionChildId(condition, "NormalValue"));
        if (st.isGood()) st = s.addReference(conditionChildId(condition, "NormalValue"), NodeId(id::HasTypeDefinition), NodeId(id::PropertyType));
    }
    return st;
}

StatusCode removeConditionNodes(AddressSpace& s, const NodeId& condition, const ConditionCells& cells) {
    if (!s.find(condition)) return status::BadNodeIdUnknown;
    // Children first (deepest paths first), then the Methods and their arguments, then the condition.
    std::vector<std::string> paths;
    for (const auto& [key, cell] : cells)  // each Variable and the Objects above it (ShelvingState, ...)
        for (std::size_t slash = key.find('/'); ; slash = key.find('/', slash + 1)) {
            paths.push_back(key.substr(0, slash));
            if (slash == std::string::npos) break;
        }
    for (std::string_view m : kConditionMethods) {
        paths.push_back(std::string(m) + "/InputArguments");
        paths.push_back(std::string(m));
    }
    for (std::string_view m : kShelvingMethods) {
        paths.push_back("ShelvingState/" + std::string(m) + "/InputArguments");
        paths.push_back("ShelvingState/" + std::string(m));
    }
    paths.push_back("NormalValue");
    std::sort(paths.begin(), paths.end(), [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    for (const std::string& p : paths) {
        const NodeId id = conditionChildId(condition, p);
        if (s.find(id)) s.removeNode(id);
    }
    return s.removeNode(condition);
}

void storeConditionFields(const Event& e, const ConditionCells& cells) {
    const Variant* timeField = e.field("Time");
    const DateTime time = timeField && timeField->get<DateTime>() ? *timeField->get<DateTime>() : DateTime::now();
    for (const Event::Field& f : e.fields()) {
        const auto it = cells.find(f.key);
        if (it == cells.end()) continue;
        DataValue dv(f.value);
        dv.setStatus(status::Good);
        dv.setSourceTimestamp(time);
        it->second->store(std::move(dv));
    }
}

} // namespace ua

#include "ua/server/diagnostics/DiagnosticsNodes.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/SharedAddressSpace.h"
#include "ua/server/common/SessionManager.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"
#include "ua/server/users/Roles.h"

#include <QTimer>
#include <algorithm>
#include <set>

namespace ua {

namespace {

// --- A structure's fields as Variants and DataTypes (by forEachField, the BrowseNames of the
// VariableTypes' children are the fields' names) ---

template <class T>
Variant toVariant(const T& v) {
    if constexpr (std::is_enum_v<T>) return Variant(int32_t(v));
    else if constexpr (std::is_same_v<T, ApplicationDescription> || std::is_same_v<T, ServiceCounterDataType>)
        return Variant(ExtensionObject::make(v));
    else return Variant(v);
}

template <class T>
uint32_t dataTypeOf(std::string_view field) {
    if constexpr (std::is_same_v<T, NodeId>) return id::NodeId;
    else if constexpr (std::is_same_v<T, String>) return id::String;
    else if constexpr (std::is_same_v<T, double>) return id::Duration;
    else if constexpr (std::is_same_v<T, uint32_t>) return id::UInt32;
    else if constexpr (std::is_same_v<T, DateTime>) return id::UtcTime;
    else if constexpr (std::is_same_v<T, ByteString>) return id::ByteString;
    else if constexpr (std::is_same_v<T, Array<String>>) return field == "LocaleIds" ? id::LocaleId : id::String;
    else if constexpr (std::is_same_v<T, ApplicationDescription>) return id::ApplicationDescription;
    else if constexpr (std::is_same_v<T, ServiceCounterDataType>) return id::ServiceCounterDataType;
    else if constexpr (std::is_same_v<T, MessageSecurityMode>) return id::MessageSecurityMode;
    else return id::BaseDataType;
}

template <class T>
constexpr int32_t valueRankOf() {
    if constexpr (std::is_same_v<T, Array<String>>) return 1;
    else return -1;
}

// Field `index` of a structure as a Variant.
template <class S>
Variant field(const S& s, std::size_t index) {
    Variant out;
    std::size_t i = 0;
    forEachField(s, [&](const char*, const auto& v) {
        if (i++ == index) out = toVariant(v);
    });
    return out;
}

template <class S>
std::size_t fieldIndex(std::string_view name) {
    S s{};
    std::size_t i = 0, found = SIZE_MAX;
    forEachField(s, [&](const char* n, const auto&) {
        if (name == n) found = i;
        ++i;
    });
    return found;
}

DataValue good(Variant v) {
    DataValue dv(std::move(v));
    dv.setSourceTimestamp(DateTime::now());
    return dv;
}

DataValue bad(StatusCode s) {
    DataValue dv;
    dv.setStatus(s);
    return dv;
}

template <class T>
Variant structures(const std::vector<T>& v) {
    Array<ExtensionObject> a = Array<ExtensionObject>::emptyArray();
    for (const T& x : v) a.push_back(ExtensionObject::make(x));
    return Variant(std::move(a));
}

// RolePermissions (OPC 10000-3 5.2.9): every well-known Role gets `all`, those in `extraRoles` also
// `extra`.
Variant rolePermissions(PermissionType all, RoleSet extraRoles, PermissionType extra) {
    Array<ExtensionObject> a;
    for (int r = 0; r < kRoleCount; ++r) {
        RolePermissionType p;
        p.roleId = roleNodeId(Role(r));
        p.permissions = (extraRoles & roleBit(Role(r))) ? (all | extra) : all;
        a.push_back(ExtensionObject::make(p));
    }
    return Variant(std::move(a));
}

constexpr PermissionType kSee = PermissionType::Browse | PermissionType::ReadRolePermissions;
constexpr PermissionType kRead = PermissionType::Read;

Variant securityAdminOnly() { return rolePermissions(kSee, roleBit(Role::SecurityAdmin), kRead); }

void setRead(AddressSpace& space, uint32_t id, std::function<DataValue()> read) {
    if (Node* n = space.findMutable(NodeId(id))) n->rare.edit().source.edit().read = std::move(read);
}

// The children of a structure Variable (HasComponent targets whose BrowseName is a field of S)
// read field by field from get().
template <class S>
void setFieldChildren(AddressSpace& space, uint32_t parent, std::function<std::optional<S>()> get) {
    const NodeIndex p = space.indexOf(NodeId(parent));
    if (p == kNoNode) return;
    const NodeIndex hasComponent = space.indexOf(NodeId(id::HasComponent));
    std::vector<std::pair<NodeIndex, std::size_t>> children;
    for (const Reference& r : space.node(p).references) {
        if (!r.isForward || r.referenceType != hasComponent) continue;
        const std::size_t i = fieldIndex<S>(space.node(r.target).browseName.name.view());
        if (i != SIZE_MAX) children.emplace_back(r.target, i);
    }
    for (const auto& [child, index] : children)
        space.nodeMutable(child).rare.edit().source.edit().read = [get, i = index] {  // clang 14 cannot capture a binding
            const std::optional<S> s = get();
            return s ? good(field(*s, i)) : bad(status::BadNodeIdUnknown);
        };
}

// --- One SessionDiagnosticsObject ---

struct Builder {
    AddressSpace& space;
    std::vector<NodeId>& added;
    uint32_t sessionScope = 0;  // every node added belongs to this Session (users/NodeVisibility.h)
    StatusCode status = status::Good;

    void add(Node n, const NodeId& parent, uint32_t reference, uint32_t type) {
        if (status.isBad()) return;
        n.sessionScope = sessionScope;
        const NodeId id = n.nodeId;
        status = space.addNode(std::move(n));
        if (status.isBad()) return;
        added.push_back(id);
        status = space.addReference(parent, NodeId(reference), id);
        if (status.isGood()) status = space.addReference(id, NodeId(id::HasTypeDefinition), NodeId(type));
    }

    Node variable(const NodeId& id, const std::string& name, uint32_t dataType, int32_t rank, std::function<DataValue()> read) {
        Node n;
        n.nodeId = id;
        n.nodeClass = NodeClass::Variable;
        n.browseName = {0, String(name)};
        n.setDisplayName(LocalizedText{String(), String(name)});
        SharedAttributes a;
        a.dataType = NodeId(dataType);
        a.valueRank = rank;
        if (rank == 1) a.arrayDimensions = Array<uint32_t>{0};
        a.accessLevel = a.userAccessLevel = access::CurrentRead;
        // Every Session has these variables: they share a few blocks (one pool per thread that
        // creates Sessions, kept for its lifetime: a block per DataType and rank).
        thread_local SharedAttributesPool pool;
        n.attrs = pool.intern(a);
        n.rare.edit().source.edit().read = std::move(read);
        return n;
    }

    // A structure Variable with a child per field, each read from get().
    template <class S>
    void structure(const NodeId& parent, const std::string& prefix, const std::string& name, uint32_t dataType,
                   uint32_t type, std::function<std::optional<S>()> get, const Variant& permissions) {
        const NodeId id(1, String(prefix + "." + name));
        Node n = variable(id, name, dataType, -1, [get] {
            const std::optional<S> s = get();
            return s ? good(Variant(ExtensionObject::make(*s))) : bad(status::BadNodeIdUnknown);
        });
        n.rare.edit().rolePermissions = permissions;
        add(std::move(n), parent, id::HasComponent, type);
        S empty{};
        std::size_t i = 0;
        forEachField(empty, [&](const char* fieldName, const auto& v) {
            using T = std::decay_t<decltype(v)>;
            const std::size_t index = i++;
            Node c = variable(NodeId(1, String(prefix + "." + name + "." + fieldName)), fieldName,
                              dataTypeOf<T>(fieldName), valueRankOf<T>(), [get, index] {
                                  const std::optional<S> s = get();
                                  return s ? good(field(*s, index)) : bad(status::BadNodeIdUnknown);
                              });
            c.rare.edit().rolePermissions = permissions;
            add(std::move(c), id, id::HasComponent, id::BaseDataVariableType);
        });
    }
};

std::vector<NodeId> addSessionObject(AddressSpace& space, const SessionPtr& session, const String& sessionName,
                                     ServerDiagnostics* diagnostics, StatusCode* result) {
    std::vector<NodeId> added;
    // The object and everything below it: visible to its own Session and to SecurityAdmin only.
    Builder b{space, added, session->scope};
    const NodeId& sid = session->sessionId;
    const std::string prefix = sid.idType() == NodeId::IdType::Guid ? sid.guid().toString() : sid.toString();
    Node object;
    object.nodeId = sid;
    object.nodeClass = NodeClass::Object;
    object.browseName = {1, sessionName};
    object.setDisplayName(LocalizedText{String(), sessionName});
    b.add(std::move(object), NodeId(id::Server_ServerDiagnostics_SessionsDiagnosticsSummary), id::HasComponent,
          id::SessionDiagnosticsObjectType);
    const std::weak_ptr<Session> weak = session;
    b.structure<SessionDiagnosticsDataType>(
        sid, prefix, "SessionDiagnostics", id::SessionDiagnosticsDataType, id::SessionDiagnosticsVariableType,
        [weak, diagnostics]() -> std::optional<SessionDiagnosticsDataType> {
            const SessionPtr s = weak.lock();
            if (!s) return std::nullopt;
            return diagnostics->describe(*s).diagnostics;
        },
        Variant());
    b.structure<SessionSecurityDiagnosticsDataType>(
        sid, prefix, "SessionSecurityDiagnostics", id::SessionSecurityDiagnosticsDataType,
        id::SessionSecurityDiagnosticsType,
        [weak, diagnostics]() -> std::optional<SessionSecurityDiagnosticsDataType> {
            const SessionPtr s = weak.lock();
            if (!s) return std::nullopt;
            return diagnostics->describe(*s).security;
        },
        securityAdminOnly());
    b.add(b.variable(NodeId(1, String(prefix + ".SubscriptionDiagnosticsArray")), "SubscriptionDiagnosticsArray",
                     id::SubscriptionDiagnosticsDataType, 1,
                     [sid, diagnostics] {
                         diagnostics->refresh(500);
                         std::vector<SubscriptionDiagnosticsDataType> mine;
                         if (const DiagnosticsSnapshotPtr snap = diagnostics->latest())
                             for (const auto& x : snap->subscriptions)
                                 if (x.sessionId == sid) mine.push_back(x);
                         return good(structures(mine));
                     }),
          sid, id::HasComponent, id::SubscriptionDiagnosticsArrayType);
    *result = b.status;
    return added;
}

} // namespace

StatusCode installDiagnosticsNodes(AddressSpace& space, ServerDiagnostics& diagnostics) {
    if (!space.find(NodeId(id::Server_ServerDiagnostics))) return status::BadNodeIdUnknown;
    ServerDiagnostics* d = &diagnostics;
    setRead(space, id::Server_ServerDiagnostics_ServerDiagnosticsSummary,
            [d] { return good(Variant(ExtensionObject::make(d->summary()))); });
    setFieldChildren<ServerDiagnosticsSummaryDataType>(
        space, id::Server_ServerDiagnostics_ServerDiagnosticsSummary,
        [d]() -> std::optional<ServerDiagnosticsSummaryDataType> { return d->summary(); });
    setRead(space, id::Server_ServerDiagnostics_SamplingIntervalDiagnosticsArray, [d] {
        d->refresh(500);
        const DiagnosticsSnapshotPtr snap = d->latest();
        if (!snap || !d->enabled()) return good(structures(std::vector<SamplingIntervalDiagnosticsDataType>{}));
        return good(structures(snap->samplingIntervals));
    });
    setRead(space, id::Server_ServerDiagnostics_SubscriptionDiagnosticsArray, [d] {
        d->refresh(500);
        const DiagnosticsSnapshotPtr snap = d->latest();
        if (!snap || !d->enabled()) return good(structures(std::vector<SubscriptionDiagnosticsDataType>{}));
        return good(structures(snap->subscriptions));
    });
    setRead(space, id::Server_ServerDiagnostics_SessionsDiagnosticsSummary_SessionDiagnosticsArray, [d] {
        std::vector<SessionDiagnosticsDataType> v;
        if (d->enabled())
            for (const SessionSnapshot& s : *d->sessionsNow()) v.push_back(s.diagnostics);
        return good(structures(v));
    });
    setRead(space, id::Server_ServerDiagnostics_SessionsDiagnosticsSummary_SessionSecurityDiagnosticsArray, [d] {
        std::vector<SessionSecurityDiagnosticsDataType> v;
        if (d->enabled())
            for (const SessionSnapshot& s : *d->sessionsNow()) v.push_back(s.security);
        return good(structures(v));
    });
    for (uint32_t id : {id::Server_ServerDiagnostics_SessionsDiagnosticsSummary_SessionDiagnosticsArray,
                        id::Server_ServerDiagnostics_SessionsDiagnosticsSummary_SessionSecurityDiagnosticsArray})
        if (Node* n = space.findMutable(NodeId(id))) n->rare.edit().rolePermissions = securityAdminOnly();
    if (Node* n = space.findMutable(NodeId(id::Server_ServerDiagnostics_EnabledFlag))) {
        n->attrs.edit().accessLevel |= access::CurrentWrite;
        n->attrs.edit().userAccessLevel |= access::CurrentWrite;
        n->rare.edit().rolePermissions = rolePermissions(kSee | kRead, roleBit(Role::SecurityAdmin) | roleBit(Role::ConfigureAdmin),
                                             PermissionType::Write);
        ValueSource& source = n->rare.edit().source.edit();
        source.read = [d] { return good(Variant(d->enabled())); };
        source.write = [d](const DataValue& v) -> StatusCode {
            const bool* on = v.value.get<bool>();
            if (!on) return status::BadTypeMismatch;
            d->setEnabled(*on);
            return status::Good;
        };
    }
    return status::Good;
}

SessionDiagnosticsNodes::SessionDiagnosticsNodes(ServerDiagnostics& diagnostics, SessionManager& sessions,
                                                 SharedAddressSpace& space, int maxObjects, QObject* parent)
    : QObject(parent), m_diagnostics(diagnostics), m_sessions(sessions), m_space(space), m_maxObjects(maxObjects),
      m_timer(new QTimer(this)) {
    m_timer->setInterval(kIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &SessionDiagnosticsNodes::tick);
    m_timer->start();
}

void SessionDiagnosticsNodes::tick() {
    ServerDiagnostics& d = m_diagnostics;
    const uint32_t version = d.sessionSetVersion();
    const bool enabled = d.enabled();
    if (version == m_version && enabled == m_enabled) return;
    // The open Sessions whose CreateSession has filled them in (a Session is in the manager a moment
    // before): those not yet filled are taken at a later tick.
    bool complete = true;
    std::map<NodeId, std::pair<SessionPtr, String>> open;
    std::map<NodeId, int64_t> createdTicks;  // read under the lock, for the order of the limit
    if (enabled) {
        for (const SessionPtr& s : m_sessions.snapshot()) {
            std::lock_guard lock(s->activationMutex);
            if (s->createdAt.isMin()) {
                complete = false;
                continue;
            }
            open.emplace(s->sessionId, std::make_pair(s, s->sessionName));
            createdTicks.emplace(s->sessionId, s->createdAt.ticks);
        }
    }
    std::vector<NodeId> gone;
    for (const auto& [id, nodes] : m_present)
        if (!open.count(id)) gone.push_back(id);
    // New objects up to the limit, for the Sessions created first (their ids are random Guids:
    // the order of creation, not of the map).
    const std::size_t limit = std::size_t(std::max(0, m_maxObjects));
    const std::size_t room = limit > m_present.size() - gone.size() ? limit - (m_present.size() - gone.size()) : 0;
    std::vector<const std::pair<SessionPtr, String>*> fresh;
    for (const auto& [id, entry] : open)
        if (!m_present.count(id)) fresh.push_back(&entry);
    if (fresh.size() > room) {
        std::sort(fresh.begin(), fresh.end(), [&createdTicks](const auto* a, const auto* b) {
            return createdTicks.at(a->first->sessionId) < createdTicks.at(b->first->sessionId);
        });
        fresh.resize(room);
    }
    if (!gone.empty() || !fresh.empty()) {
        ServerDiagnostics* diagnostics = &d;
        std::map<NodeId, std::vector<NodeId>> added;
        const StatusCode s = m_space.update([&](AddressSpace& space) {
            for (const NodeId& id : gone)
                for (const NodeId& n : m_present[id]) space.removeNode(n);
            for (const auto* entry : fresh) {
                StatusCode r;
                std::vector<NodeId> nodes = addSessionObject(space, entry->first, entry->second, diagnostics, &r);
                if (r.isBad()) {  // e.g. a duplicate NodeId: leave this Session without an object
                    for (const NodeId& n : nodes) space.removeNode(n);
                    continue;
                }
                added.emplace(entry->first->sessionId, std::move(nodes));
            }
            return StatusCode(status::Good);
        });
        if (s.isGood()) {
            for (const NodeId& id : gone) m_present.erase(id);
            for (auto& [id, nodes] : added) m_present[id] = std::move(nodes);
            ++m_updates;
        }
    }
    if (complete) {
        m_version = version;
        m_enabled = enabled;
    }
}

} // namespace ua

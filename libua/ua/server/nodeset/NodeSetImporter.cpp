#include "ua/server/nodeset/NodeSetImporter.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/nodeset/XmlValueDecoder.h"

#include <QFile>
#include <QThread>
#include <QRegularExpression>
#include <QVersionNumber>

#include <algorithm>
#include <bitset>
#include <functional>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace ua {

QString NodeSetIssue::toString() const {
    QString s = file;
    if (line > 0) s += QStringLiteral(":%1").arg(line);
    s += QStringLiteral(": ");
    if (!nodeId.isEmpty()) s += nodeId + QStringLiteral(": ");
    return s + message;
}

namespace {

QString propertyText(const Variant& v) {
    if (const String* s = v.get<String>()) return s->toQString();
    return {};
}

const Variant* storedValue(const Node& n, ValueCell::Ref& hold) {
    if (!n.value) return nullptr;
    hold = n.value->load();
    return hold ? &hold->value : nullptr;
}

// True when required is newer than loaded (both dotted numbers); false when either is not.
bool versionOlder(const QString& loaded, const QString& required) {
    static const QRegularExpression dotted(QStringLiteral("^\\d+(\\.\\d+)*$"));
    if (!dotted.match(loaded).hasMatch() || !dotted.match(required).hasMatch()) return false;
    return QVersionNumber::fromString(loaded) < QVersionNumber::fromString(required);
}

bool xmlBool(XmlElementView e, QStringView name, bool def) {
    const QStringView v = e.attribute(name).trimmed();
    if (v.isEmpty()) return def;
    return v == u"true" || v == u"1";
}

// An unsigned attribute, or def when absent (no text is made for the default).
uint32_t uintAttribute(XmlElementView e, QStringView name, uint32_t def) {
    if (!e.hasAttribute(name)) return def;
    return e.attribute(name).toUInt();
}

// QString keys found by a QStringView.
struct ViewHash {
    using is_transparent = void;
    std::size_t operator()(QStringView s) const { return qHash(s); }
};

// One document's import: see NodeSetImporter.h for the rules.
class DocumentImport {
public:
    DocumentImport(AddressSpace& space, const NodeSetDocument& doc, NodeSetImportResult& result)
        : m_space(space), m_doc(doc), m_result(result) {}

    bool run() {
        const bool ok = runSteps();
        giveValueCells();
        return ok;
    }

private:
    bool runSteps() {
        if (!checkModels()) return false;
        mapNamespaces();
        m_values = std::make_unique<XmlValueDecoder>(m_space, m_nsMap);
        // Each Alias resolved once (a file names its ReferenceTypes and DataTypes by alias: two
        // or three lookups per node otherwise parse the same text again).
        for (auto it = m_doc.aliases.cbegin(); it != m_doc.aliases.cend(); ++it) {
            m_aliasIds.emplace(it.key(), m_values->mapNodeId(*it));
            m_aliasShapes.set(aliasShape(it.key()));
        }
        if (!readNodes()) return false;
        m_result.nodes += m_added.size();
        const bool referencesOk = addReferences();
        const bool dataTypesOk = checkDataTypes();  // listed with the reference errors, if any
        if (!referencesOk || !dataTypesOk) return false;
        if (!addDefinitions()) return false;
        if (!addValues()) return false;
        addNamespaceMetadata();
        return m_failed == false;
    }

    // The nodes are added without a ValueCell and get one here, with their Value when the file
    // gives one (addValues) or empty (AddressSpace::addNode's rule), each in one allocation made
    // after the nodes: an empty cell replaced later would leave a hole per Variable in the heap.
    void giveValueCells() {
        for (const auto& [e, at] : m_added) {
            const Node& n = m_space.node(at);
            if ((n.nodeClass == NodeClass::Variable || n.nodeClass == NodeClass::VariableType) && !n.value)
                m_space.nodeMutable(at).value = ValueCell::make();
        }
    }
    // Errors found away from m_result (a node converted on the helper thread), reported later.
    struct Issues {
        std::vector<NodeSetIssue> list;
        StatusCode first = status::Good;
    };
    // A node element, converted (ok) or with the errors that stopped it.
    struct Converted {
        Node node;
        Issues issues;
        bool ok = false;
    };
    NodeSetIssue issueAt(XmlElementView e, QString message, XmlElementView owner) const {
        return {m_doc.fileName, e.line(), (owner ? owner : e).attribute(u"NodeId").toString(), std::move(message)};
    }
    bool issue(Issues& to, XmlElementView e, QString message, StatusCode s, XmlElementView owner = {}) const {
        to.list.push_back(issueAt(e, std::move(message), owner));
        if (to.first.isGood()) to.first = s;
        return false;
    }
    void report(Issues& issues) {
        for (NodeSetIssue& i : issues.list) m_result.errors.push_back(std::move(i));
        if (m_result.status.isGood()) m_result.status = issues.first;
        m_failed = true;
    }
    // An error at element e (a node, or one of its References or Fields: owner is then the node).
    bool error(XmlElementView e, QString message, StatusCode s, XmlElementView owner = {}) {
        m_result.errors.push_back(issueAt(e, std::move(message), owner));
        if (m_result.status.isGood()) m_result.status = s;
        m_failed = true;
        return false;
    }
    bool fileError(QString message, StatusCode s) {
        m_result.errors.push_back({m_doc.fileName, 0, {}, std::move(message)});
        if (m_result.status.isGood()) m_result.status = s;
        m_failed = true;
        return false;
    }

    static QString describe(const NodeSetModel& m) {
        QString s = m.modelUri;
        if (!m.version.isEmpty()) s += QStringLiteral(" version %1").arg(m.version);
        if (m.publicationDate) s += QStringLiteral(" of %1").arg(m.publicationDate->toQDateTime().toString(Qt::ISODate));
        return s;
    }

    bool checkModels() {
        const auto loaded = loadedModels(m_space);
        bool ok = true;
        if (m_doc.models.empty()) ok = fileError(QStringLiteral("the file defines no Model (OPC 10000-6 F.2)"), status::BadInvalidArgument);
        for (const NodeSetModel& m : m_doc.models) {
            if (const auto it = loaded.find(m.modelUri); it != loaded.end()) {
                ok = fileError(QStringLiteral("the model %1 is already loaded (version %2)").arg(m.modelUri, it->second.version),
                               status::BadNodeIdExists);
                continue;
            }
            for (const NodeSetModel& r : m.requiredModels) {
                const auto it = loaded.find(r.modelUri);
                if (it == loaded.end()) {
                    ok = fileError(QStringLiteral("requires the model %1, which is not loaded").arg(describe(r)), status::BadNotFound);
                } else if (r.publicationDate && it->second.publicationDate && *it->second.publicationDate < *r.publicationDate) {
                    ok = fileError(QStringLiteral("requires the model %1, but the loaded one is older (version %2 of %3)")
                                       .arg(describe(r), it->second.version,
                                            it->second.publicationDate->toQDateTime().toString(Qt::ISODate)),
                                   status::BadNotFound);
                } else if (versionOlder(it->second.version, r.version)) {
                    ok = fileError(QStringLiteral("requires the model %1, but the loaded one is older (version %2)")
                                       .arg(describe(r), it->second.version),
                                   status::BadNotFound);
                }
            }
        }
        return ok;
    }

    void mapNamespaces() {
        m_nsMap.push_back(0);
        for (const QString& uri : m_doc.namespaceUris) m_nsMap.push_back(m_space.addNamespace(uri.toStdString()));
    }

    // An Alias or a NodeId's text. Most texts are NodeIds ("ns=1;i=5"): a text whose length and
    // first character no Alias has is not looked up.
    std::optional<NodeId> resolve(QStringView text) const {
        const QStringView t = text.trimmed();
        if (m_aliasShapes.test(aliasShape(t)))
            if (const auto alias = m_aliasIds.find(t); alias != m_aliasIds.end()) return alias->second;
        return m_values->mapNodeId(t);
    }
    static std::size_t aliasShape(QStringView t) {
        return t.isEmpty() ? 0 : (std::size_t(t.size() & 31) << 6) | (t.front().unicode() & 63);
    }

    // "1:Name" (the file's namespace index, mapped) or "Name" (namespace 0).
    std::optional<QualifiedName> browseName(QStringView text) const {
        qsizetype digits = 0;
        while (digits < text.size() && text[digits].isDigit()) ++digits;
        if (digits == 0 || digits >= text.size() || text[digits] != u':') return QualifiedName{0, xmlString(text)};
        const auto ns = m_values->mapNamespace(text.left(digits).toUInt());
        if (!ns) return std::nullopt;
        return QualifiedName{*ns, xmlString(text.mid(digits + 1))};
    }

    static LocalizedText localized(XmlElementView e) {
        LocalizedText l;
        if (!e) return l;
        const QStringView locale = e.attribute(u"Locale");
        if (!locale.isEmpty()) l.locale = xmlString(locale);
        l.text = xmlString(e.text().trimmed());  // the line breaks and indentation of the XML are not text
        return l;
    }

    bool readNodes() {
        static constexpr std::pair<QStringView, NodeClass> classes[] = {
            {u"UAVariable", NodeClass::Variable},         {u"UAObject", NodeClass::Object},
            {u"UAMethod", NodeClass::Method},             {u"UAObjectType", NodeClass::ObjectType},
            {u"UAVariableType", NodeClass::VariableType}, {u"UAReferenceType", NodeClass::ReferenceType},
            {u"UADataType", NodeClass::DataType},         {u"UAView", NodeClass::View}};
        bool definesNamespaceZero = false;
        for (const NodeSetModel& m : m_doc.models) definesNamespaceZero = definesNamespaceZero || m.modelUri == QLatin1String(AddressSpace::kNs0Uri.data());
        m_space.reserve(m_space.size() + m_doc.nodes.size());
        // One pass: each node is converted once and added. After the first error nothing more is
        // added, but every node is still checked so that every error is listed; the caller drops
        // the space of a failed import (importNodeSets), so a half-added file is never seen.
        // The conversion of a batch of elements is split between this thread and a helper (it
        // only reads the space and the document); the batch is then added here, in file order.
        m_added.reserve(m_doc.nodes.size());
        std::unordered_set<NodeId> notAdded;  // after the first error
        bool ok = true;
        constexpr std::size_t kBatch = 4096;
        std::vector<Converted> batch;
        SharedAttributesPool pools[2];  // one per converting thread
        for (std::size_t start = 0; start < m_doc.nodes.size(); start += kBatch) {
            const std::size_t count = std::min(kBatch, m_doc.nodes.size() - start);
            batch.clear();
            batch.resize(count);
            const auto convert = [&](std::size_t from, std::size_t to, int half) {
                for (std::size_t i = from; i < to; ++i) {
                    const XmlTree& e = m_doc.nodes[start + i];
                    Converted& c = batch[i];
                    const auto cls = std::find_if(std::begin(classes), std::end(classes), [&](const auto& k) { return e.name() == k.first; });
                    if (cls == std::end(classes)) {
                        issue(c.issues, e, QStringLiteral("unknown node element <%1>").arg(e.name()), status::BadNodeClassInvalid);
                        continue;
                    }
                    c.node.nodeClass = cls->second;
                    c.ok = readNode(e, c.node, definesNamespaceZero, c.issues, pools[half]);
                }
            };
            inHalves(count, [&](std::size_t from, std::size_t to, int half) { convert(from, to, half); });
            for (std::size_t i = 0; i < count; ++i) {
                const XmlTree& e = m_doc.nodes[start + i];
                Converted& c = batch[i];
                if (!c.ok) {
                    report(c.issues);
                    ok = false;
                    continue;
                }
                // A NodeId given twice in the file, or taken already: found here, in file order.
                if (const NodeIndex there = m_space.indexOf(c.node.nodeId); there != kNoNode) {
                    if (there < m_addedHere.size() && m_addedHere[there]) ok = error(e, QStringLiteral("the NodeId is used twice in the file"), status::BadNodeIdExists);
                    else ok = error(e, QStringLiteral("a node with this NodeId exists already"), status::BadNodeIdExists);
                    continue;
                }
                if (!ok) {  // no longer added: the file's own duplicates are found here
                    if (!notAdded.insert(c.node.nodeId).second) error(e, QStringLiteral("the NodeId is used twice in the file"), status::BadNodeIdExists);
                    continue;
                }
                NodeIndex at = kNoNode;
                const StatusCode added = m_space.addNode(std::move(c.node), &at, AddressSpace::ValueCellLater);
                if (added.isBad()) {
                    ok = error(e, QStringLiteral("cannot be added: %1").arg(QString::fromStdString(added.name())), added);
                    continue;
                }
                if (m_addedHere.size() <= at) m_addedHere.resize(std::max<std::size_t>(at + 1, m_addedHere.size() * 2));
                m_addedHere[at] = true;
                m_added.emplace_back(e, at);
            }
        }
        return ok;
    }

    // Threads that convert node elements and resolve references: UA_NODESET_THREADS (as the
    // reader), else the cores; at most 2.
    static int conversionThreads() {
        bool set = false;
        const int wanted = qEnvironmentVariableIntValue("UA_NODESET_THREADS", &set);
        return std::clamp(set ? wanted : QThread::idealThreadCount(), 1, 2);
    }
    // Runs work(from, to, half) over [0, n): the first half (0) here and the second (1) on a helper
    // thread, or all of it here as half 0 with one thread or fewer than 512 items (a thread's start
    // would cost more). work must only read the space and the document.
    template <class Work>
    void inHalves(std::size_t n, Work work) const {
        if (m_threads < 2 || n < 512) {
            work(std::size_t(0), n, 0);
            return;
        }
        std::unique_ptr<QThread> helper(QThread::create([&] { work(n / 2, n, 1); }));
        helper->start();
        work(std::size_t(0), n / 2, 0);
        helper->wait();
    }

    // One node element's attributes into n (its NodeClass set); false after listing the error in
    // issues. Reads the space and the document only: runs on the helper thread too.
    // attributes: the pool of this thread (the nodes of a file share equal SharedAttributes).
    bool readNode(XmlElementView e, Node& n, bool definesNamespaceZero, Issues& issues, SharedAttributesPool& attributes) const {
        const auto id = resolve(e.attribute(u"NodeId"));
        if (!id || id->isNull()) return issue(issues, e, QStringLiteral("the NodeId does not parse"), status::BadNodeIdInvalid);
        n.nodeId = *id;
        // Namespace 0 is the OPC Foundation's: only its own NodeSet adds nodes to it.
        if (n.nodeId.namespaceIndex() == 0 && !definesNamespaceZero) {
            return issue(issues, e, QStringLiteral("a node of namespace 0 in a model of another namespace"), status::BadNodeIdInvalid);
        }
        const auto bn = browseName(e.attribute(u"BrowseName"));
        if (!bn || bn->name.isEmpty()) return issue(issues, e, QStringLiteral("the BrowseName is missing or names an unknown namespace"), status::BadBrowseNameInvalid);
        n.browseName = *bn;
        const XmlElementView displayName = e.child(u"DisplayName");
        n.setDisplayName(displayName ? localized(displayName) : LocalizedText{{}, bn->name});
        if (const XmlElementView d = e.child(u"Description")) n.rare.edit().description = localized(d);
        SharedAttributes a;
        a.writeMask = uintAttribute(e, u"WriteMask", 0);
        a.userWriteMask = uintAttribute(e, u"UserWriteMask", a.writeMask);
        if (e.hasAttribute(u"AccessRestrictions")) a.accessRestrictions = uint16_t(e.attribute(u"AccessRestrictions").toUInt());
        if (const XmlElementView rp = e.child(u"RolePermissions")) {
            Array<ExtensionObject> perms = Array<ExtensionObject>::emptyArray();
            for (XmlElementView p : rp.children()) {
                const auto role = resolve(p.text());
                if (!role) return issue(issues, p, QStringLiteral("RolePermission names an unknown role NodeId '%1'").arg(p.text().trimmed()), status::BadNodeIdInvalid, e);
                perms.push_back(ExtensionObject::make(RolePermissionType{*role, PermissionType(p.attribute(u"Permissions").toUInt())}));
            }
            n.rare.edit().rolePermissions = Variant(std::move(perms));
        }
        n.isAbstract = xmlBool(e, u"IsAbstract", false);
        n.symmetric = xmlBool(e, u"Symmetric", false);
        if (const XmlElementView inv = e.child(u"InverseName")) n.rare.edit().inverseName = localized(inv);
        n.containsNoLoops = xmlBool(e, u"ContainsNoLoops", false);
        n.eventNotifier = uint8_t(uintAttribute(e, u"EventNotifier", 0));
        n.executable = xmlBool(e, u"Executable", true);
        n.userExecutable = xmlBool(e, u"UserExecutable", n.executable);
        if (n.nodeClass == NodeClass::Variable || n.nodeClass == NodeClass::VariableType) {
            const auto dt = resolve(e.attribute(u"DataType", u"i=24"));
            if (!dt) return issue(issues, e, QStringLiteral("the DataType '%1' does not parse").arg(e.attribute(u"DataType")), status::BadDataTypeIdUnknown);
            a.dataType = *dt;
            a.valueRank = e.attribute(u"ValueRank", u"-1").toInt();
            const QStringView dims = e.attribute(u"ArrayDimensions").trimmed();
            if (!dims.isEmpty()) {
                a.arrayDimensions = Array<uint32_t>::emptyArray();
                for (QStringView d : dims.split(u',')) a.arrayDimensions.push_back(d.trimmed().toUInt());
            }
            a.accessLevel = uint8_t(uintAttribute(e, u"AccessLevel", 1));
            a.userAccessLevel = uint8_t(uintAttribute(e, u"UserAccessLevel", a.accessLevel));
            if (e.hasAttribute(u"AccessLevelEx")) a.accessLevelEx = e.attribute(u"AccessLevelEx").toUInt();
            a.minimumSamplingInterval = e.attribute(u"MinimumSamplingInterval", u"0").toDouble();
            a.historizing = xmlBool(e, u"Historizing", false);
        }
        n.attrs = attributes.intern(a);
        return true;
    }

    // A reference of the file, resolved.
    struct Found {
        NodeIndex source, type, target;
        uint32_t order;  // position in the file's references
    };

    // Every reference of the file, once: a NodeSet may give a reference on both of its nodes (forward
    // on the source, inverse on the target). They are added in the order of their first mention.
    bool addReferences() {
        // Resolved on this thread and a helper, each over half of the nodes (the space is only
        // read until the references are added below), then joined in file order.
        struct Part {
            std::vector<Found> found;
            Issues issues;
        };
        const auto resolveRefs = [this](std::size_t from, std::size_t to, Part& part) {
            for (std::size_t i = from; i < to; ++i) {
                const auto& [e, me] = m_added[i];
                const XmlElementView refs = e.child(u"References");
                if (!refs) continue;
                for (XmlElementView r : refs.children()) {
                    const auto type = resolve(r.attribute(u"ReferenceType"));
                    const NodeIndex t = type ? m_space.indexOf(*type) : kNoNode;
                    if (t == kNoNode || m_space.node(t).nodeClass != NodeClass::ReferenceType) {
                        issue(part.issues, r, QStringLiteral("the ReferenceType '%1' is unknown").arg(r.attribute(u"ReferenceType")),
                              status::BadReferenceTypeIdInvalid, e);
                        continue;
                    }
                    const auto target = resolve(r.text());
                    const NodeIndex other = target ? m_space.indexOf(*target) : kNoNode;
                    if (other == kNoNode) {
                        issue(part.issues, r, QStringLiteral("the reference target '%1' does not exist").arg(r.text().trimmed()),
                              status::BadNodeIdUnknown, e);
                        continue;
                    }
                    const bool forward = xmlBool(r, u"IsForward", true);
                    part.found.push_back(forward ? Found{me, t, other, 0} : Found{other, t, me, 0});
                }
            }
        };
        Part parts[2];
        inHalves(m_added.size(), [&](std::size_t from, std::size_t to, int half) { resolveRefs(from, to, parts[half]); });
        bool ok = true;
        std::vector<Found> found = std::move(parts[0].found);
        found.insert(found.end(), parts[1].found.begin(), parts[1].found.end());
        parts[1].found = {};
        for (Part& part : parts) {
            if (part.issues.list.empty()) continue;
            report(part.issues);
            ok = false;
        }
        for (std::size_t i = 0; i < found.size(); ++i) found[i].order = uint32_t(i);
        // The duplicates: sorted by reference, each after the first mention of its reference.
        // (A sort of 16-byte records instead of a std::set: no allocation per reference.)
        std::vector<Found> sorted = found;
        std::sort(sorted.begin(), sorted.end(), [](const Found& a, const Found& b) {
            return std::tie(a.source, a.type, a.target, a.order) < std::tie(b.source, b.type, b.target, b.order);
        });
        std::vector<bool> repeated(found.size());
        for (std::size_t i = 1; i < sorted.size(); ++i) {
            const Found& a = sorted[i - 1];
            const Found& b = sorted[i];
            if (a.source == b.source && a.type == b.type && a.target == b.target) repeated[b.order] = true;
        }
        sorted = {};
        std::size_t added = 0;
        for (const Found& f : found) {
            if (repeated[f.order]) continue;
            m_space.addReferenceUnchecked(f.source, f.type, f.target);
            ++added;
        }
        m_result.references += added;
        return ok;
    }

    NodeIndex superTypeOf(NodeIndex dt) const { return m_space.node(dt).superType; }

    // The StructureDefinition of a DataType: the supertype's fields first (a NodeSet lists only a
    // type's own fields, the attribute carries all of them, OPC 10000-3 8.48).
    bool addDefinitions() {
        std::function<bool(NodeIndex, XmlElementView)> build;
        std::set<NodeIndex> done;
        std::unordered_map<NodeIndex, XmlElementView> byIndex;
        for (const auto& [e, at] : m_added)
            if (e.name() == u"UADataType" && e.child(u"Definition")) byIndex[at] = e;
        const NodeIndex enumeration = m_space.indexOf(NodeId(id::Enumeration));
        const NodeIndex structure = m_space.indexOf(NodeId(id::Structure));
        const NodeIndex hasEncoding = m_space.indexOf(NodeId(id::HasEncoding));
        bool ok = true;
        build = [&](NodeIndex at, XmlElementView e) -> bool {
            if (!done.insert(at).second) return true;
            const XmlElementView d = e.child(u"Definition");
            Node& node = m_space.nodeMutable(at);
            const NodeIndex base = node.superType;
            if (base != kNoNode && byIndex.count(base) && !build(base, byIndex[base])) return false;
            const bool optionSet = xmlBool(d, u"IsOptionSet", false);
            if (optionSet || m_space.isSubtypeOf(at, enumeration)) {
                EnumDefinition def;
                def.fields = Array<EnumField>::emptyArray();
                int64_t next = 0;
                for (XmlElementView f : d.children()) {
                    if (f.name() != u"Field") continue;
                    EnumField ef;
                    ef.name = xmlString(f.attribute(u"Name"));
                    ef.value = f.hasAttribute(u"Value") ? f.attribute(u"Value").toLongLong() : next;
                    next = ef.value + 1;
                    ef.displayName = f.child(u"DisplayName") ? localized(f.child(u"DisplayName")) : LocalizedText{{}, ef.name};
                    if (const XmlElementView desc = f.child(u"Description")) ef.description = localized(desc);
                    def.fields.push_back(std::move(ef));
                }
                m_space.nodeMutable(at).rare.edit().dataTypeDefinition = Variant(ExtensionObject::make(std::move(def)));
                return true;
            }
            if (!m_space.isSubtypeOf(at, structure)) return true;  // a Definition on a simple type: nothing to keep
            StructureDefinition def;
            def.fields = Array<StructureField>::emptyArray();
            def.baseDataType = base == kNoNode ? NodeId(id::Structure) : m_space.node(base).nodeId;
            if (base != kNoNode)
                if (const ExtensionObject* bx = m_space.node(base).rare->dataTypeDefinition->get<ExtensionObject>())
                    if (const StructureDefinition* bd = bx->get<StructureDefinition>())
                        for (const StructureField& f : bd->fields) def.fields.push_back(f);
            bool anyOptional = false, anySubtyped = false;
            for (XmlElementView f : d.children()) {
                if (f.name() != u"Field") continue;
                StructureField sf;
                sf.name = xmlString(f.attribute(u"Name"));
                const auto dt = resolve(f.attribute(u"DataType", u"i=24"));
                if (!dt || m_space.indexOf(*dt) == kNoNode) {
                    ok = error(f, QStringLiteral("field %1: the DataType '%2' is unknown").arg(f.attribute(u"Name"), f.attribute(u"DataType")),
                               status::BadDataTypeIdUnknown, e);
                    return false;
                }
                sf.dataType = *dt;
                sf.valueRank = f.attribute(u"ValueRank", u"-1").toInt();
                const QStringView dims = f.attribute(u"ArrayDimensions").trimmed();
                if (!dims.isEmpty()) {
                    sf.arrayDimensions = Array<uint32_t>::emptyArray();
                    for (QStringView x : dims.split(u',')) sf.arrayDimensions.push_back(x.trimmed().toUInt());
                }
                sf.maxStringLength = f.attribute(u"MaxStringLength", u"0").toUInt();
                sf.isOptional = xmlBool(f, u"IsOptional", false);
                if (xmlBool(f, u"AllowSubTypes", false)) anySubtyped = true;
                anyOptional = anyOptional || sf.isOptional;
                if (const XmlElementView desc = f.child(u"Description")) sf.description = localized(desc);
                def.fields.push_back(std::move(sf));
            }
            const bool isUnion = xmlBool(d, u"IsUnion", false) || m_space.isSubtypeOf(at, m_space.indexOf(NodeId(id::Union)));
            if (isUnion) {
                def.structureType = anySubtyped ? StructureType::UnionWithSubtypedValues : StructureType::Union;
                for (StructureField& f : def.fields) f.isOptional = false;
            } else if (anySubtyped) {
                def.structureType = StructureType::StructureWithSubtypedValues;
            } else {
                def.structureType = anyOptional ? StructureType::StructureWithOptionalFields : StructureType::Structure;
            }
            for (const Reference& r : node.references)
                if (r.isForward && r.referenceType == hasEncoding && m_space.node(r.target).browseName.name.view() == "Default Binary")
                    def.defaultEncodingId = m_space.node(r.target).nodeId;
            m_space.nodeMutable(at).rare.edit().dataTypeDefinition = Variant(ExtensionObject::make(std::move(def)));
            return true;
        };
        for (const auto& [at, e] : byIndex)
            if (!build(at, e)) ok = false;
        return ok;
    }

    // A Variable's or VariableType's DataType must be a DataType node (OPC 10000-3 5.6.2), of
    // this file or already in the server.
    bool checkDataTypes() {
        bool ok = true;
        for (const auto& [e, at] : m_added) {
            const Node& n = m_space.node(at);
            if (n.nodeClass != NodeClass::Variable && n.nodeClass != NodeClass::VariableType) continue;
            const NodeIndex dt = m_space.indexOf(n.attrs->dataType);
            if (dt == kNoNode || m_space.node(dt).nodeClass != NodeClass::DataType)
                ok = error(e, QStringLiteral("the DataType '%1' is not a DataType node of the server or the file")
                                   .arg(e.attribute(u"DataType")), status::BadDataTypeIdUnknown);
        }
        return ok;
    }

    bool addValues() {
        bool ok = true;
        const DateTime now = DateTime::now();
        for (const auto& [e, at] : m_added) {
            const XmlElementView v = e.child(u"Value");
            if (!v || v.childCount() == 0) continue;
            m_values->clearError();
            auto value = m_values->decode(v.firstChild());
            if (!value) { ok = error(e, QStringLiteral("the Value cannot be read: %1").arg(m_values->error()), status::BadDecodingError); continue; }
            DataValue dv(std::move(*value));
            dv.setSourceTimestamp(now);
            m_space.nodeMutable(at).value = ValueCell::make(std::move(dv));
        }
        return ok;
    }

    NodeIndex addProperty(NodeIndex parent, uint16_t ns, const QString& parentId, const char* name, uint32_t dataType,
                          int32_t valueRank, Variant value) {
        Node p;
        p.nodeClass = NodeClass::Variable;
        p.nodeId = NodeId(ns, String::fromQString(parentId + QLatin1Char('.') + QLatin1String(name)));
        p.browseName = QualifiedName{0, String(name)};
        p.setDisplayName(LocalizedText{{}, String(name)});
        SharedAttributes a;
        a.dataType = NodeId(dataType);
        a.valueRank = valueRank;
        p.attrs = std::move(a);
        p.value = ValueCell::make(DataValue(std::move(value)));
        NodeIndex at = kNoNode;
        if (m_space.addNode(std::move(p), &at).isBad()) return kNoNode;
        m_space.addReferenceUnchecked(parent, m_space.indexOf(NodeId(id::HasProperty)), at);
        m_space.addReferenceUnchecked(at, m_space.indexOf(NodeId(id::HasTypeDefinition)), m_space.indexOf(NodeId(id::PropertyType)));
        ++m_result.nodes;
        m_result.references += 2;
        return at;
    }

    // A NamespaceMetadata object (OPC 10000-5 6.3.13) under Server/Namespaces for each Model the file
    // does not describe itself, so that later imports see the model as loaded.
    void addNamespaceMetadata() {
        const auto loaded = loadedModels(m_space);
        const NodeIndex namespaces = m_space.indexOf(NodeId(id::Server_Namespaces));
        for (const NodeSetModel& m : m_doc.models) {
            const uint16_t ns = m_space.addNamespace(m.modelUri.toStdString());
            NodeSetImportResult::Model info{m.modelUri, m.version, m.publicationDate.value_or(DateTime{}), ns, m_doc.fileName};
            m_result.models.push_back(info);
            if (loaded.count(m.modelUri) || namespaces == kNoNode) continue;
            Node o;
            o.nodeClass = NodeClass::Object;
            const QString id = QStringLiteral("NamespaceMetadata");
            o.nodeId = NodeId(ns, String::fromQString(id));
            o.browseName = QualifiedName{ns, String::fromQString(m.modelUri)};
            o.setDisplayName(LocalizedText{{}, String::fromQString(m.modelUri)});
            NodeIndex at = kNoNode;
            if (m_space.addNode(std::move(o), &at).isBad()) continue;
            ++m_result.nodes;
            m_space.addReferenceUnchecked(namespaces, m_space.indexOf(NodeId(id::HasComponent)), at);
            m_space.addReferenceUnchecked(at, m_space.indexOf(NodeId(id::HasTypeDefinition)), m_space.indexOf(NodeId(id::NamespaceMetadataType)));
            m_result.references += 2;
            addProperty(at, ns, id, "NamespaceUri", id::String, -1, Variant(String::fromQString(m.modelUri)));
            addProperty(at, ns, id, "NamespaceVersion", id::String, -1, Variant(String::fromQString(m.version)));
            addProperty(at, ns, id, "NamespacePublicationDate", id::DateTime, -1, Variant(m.publicationDate.value_or(DateTime{})));
            addProperty(at, ns, id, "IsNamespaceSubset", id::Boolean, -1, Variant(false));
            addProperty(at, ns, id, "StaticNodeIdTypes", id::IdType, 1, Variant(Array<int32_t>{std::vector<int32_t>{0}}));
            addProperty(at, ns, id, "StaticNumericNodeIdRange", id::NumericRange, 1, Variant(Array<String>::emptyArray()));
            addProperty(at, ns, id, "StaticStringNodeIdPattern", id::String, -1, Variant(String("")));
        }
    }

    AddressSpace& m_space;
    const NodeSetDocument& m_doc;
    NodeSetImportResult& m_result;
    std::vector<uint16_t> m_nsMap;
    std::unique_ptr<XmlValueDecoder> m_values;
    // The file's Aliases, resolved; and the shapes (aliasShape()) of their names.
    std::unordered_map<QString, std::optional<NodeId>, ViewHash, std::equal_to<>> m_aliasIds;
    std::bitset<2048> m_aliasShapes;
    std::vector<std::pair<XmlElementView, NodeIndex>> m_added;
    std::vector<bool> m_addedHere;  // by NodeIndex: added by this document
    const int m_threads = conversionThreads();
    bool m_failed = false;
};

// Updates Server.NamespaceArray with a new ValueCell (the old one belongs to the snapshot in use).
void publishNamespaceArray(AddressSpace& space) {
    const NodeIndex at = space.indexOf(NodeId(id::Server_NamespaceArray));
    if (at == kNoNode) return;
    Array<String> uris = Array<String>::emptyArray();
    for (const String& u : space.namespaces()) uris.push_back(u);
    space.nodeMutable(at).value = ValueCell::make(DataValue(Variant(std::move(uris))));
}

} // namespace

std::map<QString, LoadedModel> loadedModels(const AddressSpace& space) {
    std::map<QString, LoadedModel> out;
    const NodeIndex namespaces = space.indexOf(NodeId(id::Server_Namespaces));
    const NodeIndex hasProperty = space.indexOf(NodeId(id::HasProperty));
    if (namespaces == kNoNode) return out;
    for (const Reference& r : space.node(namespaces).references) {
        if (!r.isForward || space.node(r.target).nodeClass != NodeClass::Object) continue;
        LoadedModel m;
        for (const Reference& p : space.node(r.target).references) {
            if (!p.isForward || p.referenceType != hasProperty) continue;
            const Node& prop = space.node(p.target);
            ValueCell::Ref hold;
            const Variant* v = storedValue(prop, hold);
            if (!v) continue;
            const std::string_view name = prop.browseName.name.view();
            if (name == "NamespaceUri") m.uri = propertyText(*v);
            else if (name == "NamespaceVersion") m.version = propertyText(*v);
            else if (name == "NamespacePublicationDate" && v->get<DateTime>()) m.publicationDate = *v->get<DateTime>();
        }
        if (!m.uri.isEmpty()) out[m.uri] = m;
    }
    return out;
}

NodeSetImportResult importNodeSets(AddressSpace& space, const std::vector<NodeSetDocument>& docs) {
    NodeSetImportResult result;
    // Dependency order: a document goes after those that define the Models it requires.
    std::vector<const NodeSetDocument*> left;
    for (const NodeSetDocument& d : docs) left.push_back(&d);
    std::set<QString> defined;  // by a document already ordered, or loaded
    for (const auto& [uri, m] : loadedModels(space)) defined.insert(uri);
    std::set<QString> inBatch;
    for (const NodeSetDocument& d : docs)
        for (const NodeSetModel& m : d.models) inBatch.insert(m.modelUri);
    std::vector<const NodeSetDocument*> order;
    while (!left.empty()) {
        auto ready = std::find_if(left.begin(), left.end(), [&](const NodeSetDocument* d) {
            for (const NodeSetModel& m : d->models)
                for (const NodeSetModel& r : m.requiredModels)
                    if (!defined.count(r.modelUri) && inBatch.count(r.modelUri)) return false;
            return true;
        });
        if (ready == left.end()) ready = left.begin();  // a cycle: the first one reports it
        for (const NodeSetModel& m : (*ready)->models) defined.insert(m.modelUri);
        order.push_back(*ready);
        left.erase(ready);
    }
    for (const NodeSetDocument* d : order) {
        DocumentImport one(space, *d, result);
        if (!one.run()) {
            if (result.status.isGood()) result.status = status::BadInvalidArgument;
            return result;
        }
    }
    publishNamespaceArray(space);
    return result;
}

NodeSetImportResult importNodeSetFiles(AddressSpace& space, const QStringList& paths) {
    NodeSetImportResult result;
    std::vector<NodeSetDocument> docs;
    for (const QString& path : paths) {
        QString error;
        auto doc = NodeSetDocument::load(path, &error);
        if (!doc) {
            if (error.startsWith(path + QLatin1Char(':'))) error = error.mid(path.size() + 1).trimmed();  // the issue names the file
            result.errors.push_back({path, 0, {}, error});
            if (result.status.isGood()) result.status = QFile::exists(path) ? status::BadDecodingError : status::BadNotFound;
            continue;
        }
        docs.push_back(std::move(*doc));
    }
    if (!result.ok()) return result;
    return importNodeSets(space, docs);
}

} // namespace ua

#include "ua/server/nodeset/NodeSetExporter.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/server/nodeset/NodeSetImporter.h"
#include "ua/server/nodeset/XmlValueEncoder.h"

#include <QDateTime>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

#include <algorithm>
#include <map>
#include <set>

namespace ua {

namespace {

const char* elementOf(NodeClass c) {
    switch (c) {
    case NodeClass::Object: return "UAObject";
    case NodeClass::Variable: return "UAVariable";
    case NodeClass::Method: return "UAMethod";
    case NodeClass::ObjectType: return "UAObjectType";
    case NodeClass::VariableType: return "UAVariableType";
    case NodeClass::ReferenceType: return "UAReferenceType";
    case NodeClass::DataType: return "UADataType";
    case NodeClass::View: return "UAView";
    default: return nullptr;
    }
}

QString isoDate(const DateTime& t) { return t.toQDateTime().toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ssZ")); }

class Writer {
public:
    Writer(const AddressSpace& space, const std::vector<uint16_t>& namespaces) : m_space(space), m_exported(namespaces.begin(), namespaces.end()) {
        for (uint16_t ns : namespaces) fileIndex(ns);
    }

    NodeSetExport run() {
        // Which nodes, and which other namespaces and ns0 names they use (first pass).
        std::vector<NodeIndex> nodes;
        for (NodeIndex i = 0; i < m_space.size(); ++i) {
            const Node& n = m_space.node(i);
            if (n.nodeId.isNull() || n.sessionScope != 0 || !m_exported.count(n.nodeId.namespaceIndex())) continue;
            nodes.push_back(i);
        }
        std::sort(nodes.begin(), nodes.end(), [&](NodeIndex a, NodeIndex b) { return m_space.node(a).nodeId < m_space.node(b).nodeId; });
        // Body first (it discovers the namespaces and aliases), then the header in front of it.
        QString body;
        QXmlStreamWriter w(&body);
        w.setAutoFormatting(true);
        w.writeStartElement(QStringLiteral("Body"));
        for (NodeIndex i : nodes) writeNode(w, i);
        w.writeEndElement();

        QString doc;
        QXmlStreamWriter h(&doc);
        h.setAutoFormatting(true);
        h.writeStartDocument();
        h.writeDefaultNamespace(QStringLiteral("http://opcfoundation.org/UA/2011/03/UANodeSet.xsd"));
        h.writeStartElement(QStringLiteral("UANodeSet"));
        h.writeAttribute(QStringLiteral("LastModified"), isoDate(DateTime::now()));
        h.writeStartElement(QStringLiteral("NamespaceUris"));
        for (uint16_t ns : m_fileOrder) h.writeTextElement(QStringLiteral("Uri"), m_space.namespaces()[ns].toQString());
        h.writeEndElement();
        const auto loaded = loadedModels(m_space);
        auto modelAttributes = [&](const QString& uri) {
            const auto it = loaded.find(uri);
            if (it == loaded.end()) return;
            if (!it->second.version.isEmpty()) h.writeAttribute(QStringLiteral("Version"), it->second.version);
            if (it->second.publicationDate) h.writeAttribute(QStringLiteral("PublicationDate"), isoDate(*it->second.publicationDate));
        };
        h.writeStartElement(QStringLiteral("Models"));
        for (uint16_t ns : m_fileOrder) {
            if (!m_exported.count(ns)) continue;
            const QString uri = m_space.namespaces()[ns].toQString();
            h.writeStartElement(QStringLiteral("Model"));
            h.writeAttribute(QStringLiteral("ModelUri"), uri);
            modelAttributes(uri);
            std::vector<uint16_t> required{0};
            for (uint16_t other : m_fileOrder)
                if (!m_exported.count(other)) required.push_back(other);
            for (uint16_t r : required) {
                h.writeStartElement(QStringLiteral("RequiredModel"));
                const QString ruri = m_space.namespaces()[r].toQString();
                h.writeAttribute(QStringLiteral("ModelUri"), ruri);
                modelAttributes(ruri);
                h.writeEndElement();
            }
            h.writeEndElement();
        }
        h.writeEndElement();
        h.writeStartElement(QStringLiteral("Aliases"));
        for (const auto& [alias, id] : m_aliases) {
            h.writeStartElement(QStringLiteral("Alias"));
            h.writeAttribute(QStringLiteral("Alias"), alias);
            h.writeCharacters(id);
            h.writeEndElement();
        }
        h.writeEndElement();
        h.writeCharacters(QString());  // close the start tag before the body goes in
        const qsizetype bodyStart = body.indexOf(u'>') + 1, bodyEnd = body.lastIndexOf(QStringLiteral("</Body>"));
        if (bodyEnd > bodyStart) doc += body.mid(bodyStart, bodyEnd - bodyStart);
        doc += QStringLiteral("</UANodeSet>\n");

        m_result.xml = doc.toUtf8();
        m_result.nodes = nodes.size();
        return std::move(m_result);
    }

private:
    uint32_t fileIndex(uint16_t ns) {
        if (ns == 0) return 0;
        const auto it = std::find(m_fileOrder.begin(), m_fileOrder.end(), ns);
        if (it != m_fileOrder.end()) return uint32_t(it - m_fileOrder.begin()) + 1;
        m_fileOrder.push_back(ns);
        return uint32_t(m_fileOrder.size());
    }

    // A NodeId as written in attributes and References: an alias for namespace 0 ReferenceTypes
    // and DataTypes, else the id with the file's namespace index.
    QString idText(NodeIndex i) {
        const Node& n = m_space.node(i);
        if (n.nodeId.namespaceIndex() == 0 && (n.nodeClass == NodeClass::ReferenceType || n.nodeClass == NodeClass::DataType)) {
            const QString alias = n.browseName.name.toQString();
            m_aliases[alias] = QString::fromStdString(n.nodeId.toString());
            return alias;
        }
        return idText(n.nodeId);
    }
    QString idText(const NodeId& id) {
        NodeId copy = id;
        copy.setNamespaceIndex(uint16_t(fileIndex(id.namespaceIndex())));
        return QString::fromStdString(copy.toString());
    }
    QString qualifiedName(const QualifiedName& q) {
        const uint32_t ns = fileIndex(q.namespaceIndex);
        return ns == 0 ? q.name.toQString() : QStringLiteral("%1:%2").arg(ns).arg(q.name.toQString());
    }
    static void localized(QXmlStreamWriter& w, const char* name, const LocalizedText& t) {
        w.writeStartElement(QLatin1String(name));
        if (!t.locale.isEmpty()) w.writeAttribute(QStringLiteral("Locale"), t.locale.toQString());
        w.writeCharacters(t.text.toQString());
        w.writeEndElement();
    }

    void writeNode(QXmlStreamWriter& w, NodeIndex i) {
        const Node& n = m_space.node(i);
        const char* element = elementOf(n.nodeClass);
        if (!element) return;
        w.writeStartElement(QLatin1String(element));
        w.writeAttribute(QStringLiteral("NodeId"), idText(n.nodeId));
        w.writeAttribute(QStringLiteral("BrowseName"), qualifiedName(n.browseName));
        if (n.attrs->writeMask) w.writeAttribute(QStringLiteral("WriteMask"), QString::number(n.attrs->writeMask));
        if (n.attrs->userWriteMask != n.attrs->writeMask) w.writeAttribute(QStringLiteral("UserWriteMask"), QString::number(n.attrs->userWriteMask));
        if (n.attrs->accessRestrictions) w.writeAttribute(QStringLiteral("AccessRestrictions"), QString::number(*n.attrs->accessRestrictions));
        if (n.isAbstract) w.writeAttribute(QStringLiteral("IsAbstract"), QStringLiteral("true"));
        if (n.nodeClass == NodeClass::ReferenceType && n.symmetric) w.writeAttribute(QStringLiteral("Symmetric"), QStringLiteral("true"));
        if (n.eventNotifier) w.writeAttribute(QStringLiteral("EventNotifier"), QString::number(n.eventNotifier));
        if (n.nodeClass == NodeClass::View && n.containsNoLoops) w.writeAttribute(QStringLiteral("ContainsNoLoops"), QStringLiteral("true"));
        if (n.nodeClass == NodeClass::Method) {
            if (!n.executable) w.writeAttribute(QStringLiteral("Executable"), QStringLiteral("false"));
            if (n.userExecutable != n.executable) w.writeAttribute(QStringLiteral("UserExecutable"), n.userExecutable ? QStringLiteral("true") : QStringLiteral("false"));
        }
        const bool variable = n.nodeClass == NodeClass::Variable || n.nodeClass == NodeClass::VariableType;
        if (variable) {
            const NodeIndex dt = m_space.indexOf(n.attrs->dataType);
            w.writeAttribute(QStringLiteral("DataType"), dt == kNoNode ? idText(n.attrs->dataType) : idText(dt));
            if (n.attrs->valueRank != -1) w.writeAttribute(QStringLiteral("ValueRank"), QString::number(n.attrs->valueRank));
            if (!n.attrs->arrayDimensions.isNull()) {
                QStringList dims;
                for (uint32_t d : n.attrs->arrayDimensions) dims << QString::number(d);
                w.writeAttribute(QStringLiteral("ArrayDimensions"), dims.join(u','));
            }
        }
        if (n.nodeClass == NodeClass::Variable) {
            if (n.attrs->accessLevel != 1) w.writeAttribute(QStringLiteral("AccessLevel"), QString::number(n.attrs->accessLevel));
            if (n.attrs->userAccessLevel != n.attrs->accessLevel) w.writeAttribute(QStringLiteral("UserAccessLevel"), QString::number(n.attrs->userAccessLevel));
            if (n.attrs->accessLevelEx) w.writeAttribute(QStringLiteral("AccessLevelEx"), QString::number(*n.attrs->accessLevelEx));
            if (n.attrs->minimumSamplingInterval != 0)
                w.writeAttribute(QStringLiteral("MinimumSamplingInterval"), QString::number(n.attrs->minimumSamplingInterval, 'g', 17));
            if (n.attrs->historizing) w.writeAttribute(QStringLiteral("Historizing"), QStringLiteral("true"));
        }
        localized(w, "DisplayName", n.displayName());
        if (!n.rare->description->text.isNull() || !n.rare->description->locale.isNull()) localized(w, "Description", n.rare->description);
        if (n.nodeClass == NodeClass::ReferenceType && !n.rare->inverseName->text.isNull()) localized(w, "InverseName", n.rare->inverseName);
        if (const auto* perms = n.rare->rolePermissions->get<Array<ExtensionObject>>()) {
            w.writeStartElement(QStringLiteral("RolePermissions"));
            for (const ExtensionObject& x : *perms)
                if (const RolePermissionType* p = x.get<RolePermissionType>()) {
                    w.writeStartElement(QStringLiteral("RolePermission"));
                    w.writeAttribute(QStringLiteral("Permissions"), QString::number(uint32_t(p->permissions)));
                    w.writeCharacters(idText(p->roleId));
                    w.writeEndElement();
                }
            w.writeEndElement();
        }
        w.writeStartElement(QStringLiteral("References"));
        for (const Reference& r : n.references) {
            const Node& other = m_space.node(r.target);
            if (other.sessionScope != 0) continue;
            // Between two exported nodes a reference is written once, on its source.
            if (!r.isForward && m_exported.count(other.nodeId.namespaceIndex()) && other.sessionScope == 0) continue;
            w.writeStartElement(QStringLiteral("Reference"));
            w.writeAttribute(QStringLiteral("ReferenceType"), idText(r.referenceType));
            if (!r.isForward) w.writeAttribute(QStringLiteral("IsForward"), QStringLiteral("false"));
            w.writeCharacters(idText(other.nodeId));
            w.writeEndElement();
            ++m_result.references;
        }
        w.writeEndElement();
        if (n.nodeClass == NodeClass::DataType) writeDefinition(w, i);
        if (variable && n.value && !n.rare->source->read) {
            const auto dv = n.value->load();
            if (dv && dv->hasValue && !dv->value.isNull()) {
                // Written to a scratch document first: a value that cannot be written leaves no half element.
                QString scratch;
                QXmlStreamWriter sw(&scratch);
                sw.writeStartElement(QStringLiteral("Value"));
                XmlValueEncoder one(m_space, [this](uint16_t ns) { return fileIndex(ns); });
                if (one.write(sw, dv->value)) {
                    sw.writeEndElement();
                    // A field or DataType name that is no XML name (a NodeSet may hold any string)
                    // makes the scratch document malformed: checked whole before it is copied, so
                    // the file never gets half a Value.
                    QXmlStreamReader check(scratch);
                    while (!check.atEnd()) check.readNext();
                    if (check.hasError()) {
                        m_result.errors << QStringLiteral("%1: the Value is not written: its XML is not well-formed (%2); a field or type name is no XML name")
                                               .arg(QString::fromStdString(n.nodeId.toString()), check.errorString());
                    } else {
                        QXmlStreamReader r(scratch);
                        while (!r.atEnd()) {
                            r.readNext();
                            if (!r.isStartDocument() && !r.isEndDocument()) w.writeCurrentToken(r);
                        }
                    }
                } else {
                    m_result.errors << QStringLiteral("%1: the Value is not written: %2").arg(QString::fromStdString(n.nodeId.toString()), one.error());
                }
            }
        }
        w.writeEndElement();
    }

    void writeDefinition(QXmlStreamWriter& w, NodeIndex i) {
        const Node& n = m_space.node(i);
        const ExtensionObject* x = n.rare->dataTypeDefinition->get<ExtensionObject>();
        if (!x) return;
        w.writeStartElement(QStringLiteral("Definition"));
        w.writeAttribute(QStringLiteral("Name"), qualifiedName(n.browseName));
        if (const StructureDefinition* def = x->get<StructureDefinition>()) {
            if (def->structureType == StructureType::Union || def->structureType == StructureType::UnionWithSubtypedValues)
                w.writeAttribute(QStringLiteral("IsUnion"), QStringLiteral("true"));
            // The supertype's fields are not repeated (F.12: a NodeSet lists a type's own fields).
            std::size_t inherited = 0;
            if (n.superType != kNoNode)
                if (const ExtensionObject* bx = m_space.node(n.superType).rare->dataTypeDefinition->get<ExtensionObject>())
                    if (const StructureDefinition* bd = bx->get<StructureDefinition>()) inherited = bd->fields.size();
            const bool subtyped = def->structureType == StructureType::StructureWithSubtypedValues ||
                                  def->structureType == StructureType::UnionWithSubtypedValues;
            for (std::size_t f = inherited; f < def->fields.size(); ++f) {
                const StructureField& sf = def->fields[f];
                w.writeStartElement(QStringLiteral("Field"));
                w.writeAttribute(QStringLiteral("Name"), sf.name.toQString());
                const NodeIndex dt = m_space.indexOf(sf.dataType);
                w.writeAttribute(QStringLiteral("DataType"), dt == kNoNode ? idText(sf.dataType) : idText(dt));
                if (sf.valueRank != -1) w.writeAttribute(QStringLiteral("ValueRank"), QString::number(sf.valueRank));
                if (!sf.arrayDimensions.isNull() && !sf.arrayDimensions.empty()) {
                    QStringList dims;
                    for (uint32_t d : sf.arrayDimensions) dims << QString::number(d);
                    w.writeAttribute(QStringLiteral("ArrayDimensions"), dims.join(u','));
                }
                if (sf.maxStringLength) w.writeAttribute(QStringLiteral("MaxStringLength"), QString::number(sf.maxStringLength));
                if (sf.isOptional) w.writeAttribute(QStringLiteral("IsOptional"), subtyped ? QStringLiteral("false") : QStringLiteral("true"));
                if (subtyped && sf.isOptional) w.writeAttribute(QStringLiteral("AllowSubTypes"), QStringLiteral("true"));
                if (!sf.description.text.isEmpty()) localized(w, "Description", sf.description);
                w.writeEndElement();
            }
        } else if (const EnumDefinition* def = x->get<EnumDefinition>()) {
            if (!m_space.isSubtypeOf(i, m_space.indexOf(NodeId(id::Enumeration))))
                w.writeAttribute(QStringLiteral("IsOptionSet"), QStringLiteral("true"));
            for (const EnumField& f : def->fields) {
                w.writeStartElement(QStringLiteral("Field"));
                w.writeAttribute(QStringLiteral("Name"), f.name.toQString());
                w.writeAttribute(QStringLiteral("Value"), QString::number(f.value));
                if (f.displayName.text != f.name) localized(w, "DisplayName", f.displayName);
                if (!f.description.text.isEmpty()) localized(w, "Description", f.description);
                w.writeEndElement();
            }
        }
        w.writeEndElement();
    }

    const AddressSpace& m_space;
    std::set<uint16_t> m_exported;
    std::vector<uint16_t> m_fileOrder;  // server namespace of file index i + 1
    std::map<QString, QString> m_aliases;
    NodeSetExport m_result;
};

} // namespace

NodeSetExport exportNodeSet(const AddressSpace& space, const std::vector<uint16_t>& namespaces) {
    Writer w(space, namespaces);
    return w.run();
}

} // namespace ua

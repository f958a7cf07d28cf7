#include "ua/client/DataTypeCache.h"

#include "ua/encoding/DataTypeInfo.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QMetaObject>

namespace ua {

namespace {

constexpr uint32_t kStructure = 22, kBaseDataType = 24, kNumber = 26, kInteger = 27, kUInteger = 28,
                   kEnumeration = 29, kOptionSet = 12755, kUnion = 12756;
constexpr uint32_t kAttrBrowseName = 3, kAttrIsAbstract = 8, kAttrDataTypeDefinition = 23, kAttrValue = 13;
constexpr uint32_t kNodeClassDataType = 64;
constexpr int kMaxRounds = 64;     // round trips of one load at most (a server that never ends a chain)
constexpr int kMaxSupertypes = 64;  // a supertype chain longer than this is a loop

std::optional<uint32_t> ns0Numeric(const NodeId& id) {
    if (id.namespaceIndex() != 0 || !id.isNumeric()) return std::nullopt;
    return id.numeric();
}

// The namespace 0 types the stack knows without asking the server.
bool isKnownNs0(uint32_t n) {
    return (n >= 1 && n <= 29) || n == kUnion || findDataTypeByTypeId(n) != nullptr;
}

BrowseDescription browseOf(const NodeId& node, BrowseDirection direction, uint32_t referenceType, uint32_t nodeClassMask = 0) {
    BrowseDescription b;
    b.nodeId = node;
    b.browseDirection = direction;
    b.referenceTypeId = NodeId(referenceType);
    b.includeSubtypes = false;
    b.nodeClassMask = nodeClassMask;
    b.resultMask = 0x3F;
    return b;
}

ReadValueId readOf(const NodeId& node, uint32_t attribute) {
    ReadValueId r;
    r.nodeId = node;
    r.attributeId = attribute;
    return r;
}

// The first local target of a BrowseResult (null when none); with a BrowseName, the one of that name.
NodeId firstTarget(const BrowseResult& r, const char* browseName = nullptr) {
    for (const ReferenceDescription& ref : r.references) {
        if (ref.nodeId.serverIndex != 0 || !ref.nodeId.namespaceUri.isNull()) continue;
        if (browseName && ref.browseName.name.toQString() != QLatin1String(browseName)) continue;
        return ref.nodeId.nodeId;
    }
    return {};
}

void collectOpaque(const Variant& value, std::vector<NodeId>& out, int depth);

void collectOpaqueObject(const ExtensionObject& x, std::vector<NodeId>& out) {
    if (x.encoding() == ExtensionObject::Encoding::Binary && !x.isDecoded() && x.encodingId().namespaceIndex() != 0)
        out.push_back(x.encodingId());
}

void collectOpaque(const Variant& value, std::vector<NodeId>& out, int depth) {
    if (depth > 8) return;
    if (const auto* x = value.get<ExtensionObject>()) collectOpaqueObject(*x, out);
    else if (const auto* xs = value.get<Array<ExtensionObject>>()) for (const ExtensionObject& x : *xs) collectOpaqueObject(x, out);
    else if (const auto* vs = value.get<Array<Variant>>()) for (const Variant& v : *vs) collectOpaque(v, out, depth + 1);
    else if (const DataValue* dv = value.dataValue()) collectOpaque(dv->value, out, depth + 1);
    else if (const auto* dvs = value.get<Array<DataValue>>()) for (const DataValue& v : *dvs) collectOpaque(v.value, out, depth + 1);
}

// The OptionSet structure (OPC 10000-5 12.18): how its subtypes with bit names are encoded.
const StructureDefinition& optionSetStructure() {
    static const StructureDefinition def = [] {
        StructureDefinition d;
        d.baseDataType = NodeId(kStructure);
        d.fields = Array<StructureField>::emptyArray();
        for (const char* name : {"Value", "ValidBits"}) {
            StructureField f;
            f.name = String(name);
            f.dataType = NodeId(uint32_t(BuiltInType::ByteString));
            f.valueRank = -1;
            d.fields.push_back(std::move(f));
        }
        return d;
    }();
    return def;
}

} // namespace

struct DataTypeCache::TypeEntry {
    bool read = false;  // BrowseName, IsAbstract, DataTypeDefinition and the supertype have come
    QString name;
    bool isAbstract = false;
    NodeId supertype;
    std::optional<StructureDefinition> structure;
    std::optional<EnumDefinition> enumeration;
    // The DataTypeDictionary fallback, one step a round trip.
    enum class Dictionary : uint8_t { NotTried, Encoding, Description, Variable, Done } dictionary = Dictionary::NotTried;
    NodeId description;     // the DataTypeDescription variable
    NodeId dictionaryNode;  // the DataTypeDictionary variable
    QString dictionaryName; // the type's name in it (the description's Value)
};

struct DataTypeCache::Job {
    std::vector<NodeId> encodings;
    std::vector<NodeId> types;
    std::function<void()> done;
    int rounds = 0;
    bool learned = false;
};

DataTypeCache::DataTypeCache(Client* client, QObject* parent) : QObject(parent) { setClient(client); }

DataTypeCache::~DataTypeCache() = default;

void DataTypeCache::setClient(Client* client) {
    delete m_context;  // the callbacks of loads in progress are dropped with it
    m_context = new QObject(this);
    m_client = client;
    m_types.clear();
    m_encodingToType.clear();
    m_typeToBinaryEncoding.clear();
    m_failures.clear();
    m_dictionaries.clear();
    m_dictionaryTypes.clear();
}

std::vector<NodeId> DataTypeCache::opaqueEncodings(const Variant& value) {
    std::vector<NodeId> out;
    collectOpaque(value, out, 0);
    return out;
}

bool DataTypeCache::needsLoad(const Variant& value) const {
    for (const NodeId& enc : opaqueEncodings(value)) {
        if (m_failures.count(enc)) continue;
        const NodeId type = dataTypeOfEncoding(enc);
        if (type.isNull()) return true;
        if (!m_failures.count(type) && !resolve(type)) return true;
    }
    return false;
}

void DataTypeCache::load(const Variant& value, std::function<void()> done) {
    loadEncodings(opaqueEncodings(value), std::move(done));
}

void DataTypeCache::loadEncodings(std::vector<NodeId> encodingIds, std::function<void()> done) {
    auto job = std::make_shared<Job>();
    job->encodings = std::move(encodingIds);
    job->done = std::move(done);
    step(job);
}

void DataTypeCache::loadDataTypes(std::vector<NodeId> dataTypes, std::function<void()> done) {
    auto job = std::make_shared<Job>();
    job->types = std::move(dataTypes);
    job->done = std::move(done);
    step(job);
}

void DataTypeCache::finish(const std::shared_ptr<Job>& job) {
    // Always from the event loop: a caller's done never runs inside its own load() call.
    QMetaObject::invokeMethod(m_context, [this, job] {
        if (job->learned) emit typesLoaded();
        if (job->done) job->done();
    }, Qt::QueuedConnection);
}

void DataTypeCache::step(const std::shared_ptr<Job>& job) {
    if (!m_client || ++job->rounds > kMaxRounds) {
        finish(job);
        return;
    }
    std::vector<NodeId> unknownEncodings;
    for (const NodeId& enc : job->encodings) {
        if (m_failures.count(enc)) continue;
        const auto it = m_encodingToType.find(enc);
        if (it == m_encodingToType.end()) unknownEncodings.push_back(enc);
    }
    if (!unknownEncodings.empty()) {
        browseEncodings(job, std::move(unknownEncodings));
        return;
    }
    for (const NodeId& enc : job->encodings)
        if (auto it = m_encodingToType.find(enc); it != m_encodingToType.end()) job->types.push_back(it->second);
    job->encodings.clear();

    std::set<NodeId> seen;
    std::vector<NodeId> missing, needDictionary;
    for (const NodeId& t : job->types) collectMissing(t, seen, missing, needDictionary);
    if (!missing.empty()) {
        readTypes(job, std::move(missing));
    } else if (!needDictionary.empty()) {
        dictionaryStep(job, std::move(needDictionary));
    } else {
        finish(job);
    }
}

bool DataTypeCache::isTerminal(const NodeId& type) const {
    if (const auto n = ns0Numeric(type)) return isKnownNs0(*n);
    QString ns, name;
    return splitDictionaryTypeId(type, &ns, &name);
}

void DataTypeCache::collectMissing(const NodeId& type, std::set<NodeId>& seen, std::vector<NodeId>& missing,
                                   std::vector<NodeId>& needDictionary) const {
    if (type.isNull() || !seen.insert(type).second || isTerminal(type) || m_failures.count(type)) return;
    const auto it = m_types.find(type);
    if (it == m_types.end() || !it->second->read) {
        missing.push_back(type);
        return;
    }
    const TypeEntry& e = *it->second;
    if (!e.supertype.isNull()) collectMissing(e.supertype, seen, missing, needDictionary);
    const StructureDefinition* def = e.structure ? &*e.structure : nullptr;
    if (def) {
        for (const StructureField& f : def->fields) collectMissing(f.dataType, seen, missing, needDictionary);
        return;
    }
    if (e.enumeration || e.isAbstract || e.dictionary == TypeEntry::Dictionary::Done) return;
    bool complete = false;
    const uint32_t root = rootOf(type, &complete);
    if (complete && (root == kStructure || root == kUnion)) needDictionary.push_back(type);
}

uint32_t DataTypeCache::rootOf(const NodeId& type, bool* complete) const {
    *complete = false;
    NodeId cur = type;
    for (int i = 0; i < kMaxSupertypes; ++i) {
        if (const auto n = ns0Numeric(cur); n && isKnownNs0(*n)) {
            *complete = true;
            return *n;
        }
        const auto it = m_types.find(cur);
        if (it == m_types.end() || !it->second->read) return 0;
        if (it->second->supertype.isNull()) {
            *complete = true;  // a DataType of no known kind
            return 0;
        }
        cur = it->second->supertype;
    }
    *complete = true;
    return 0;
}

void DataTypeCache::browseEncodings(const std::shared_ptr<Job>& job, std::vector<NodeId> encodings) {
    BrowseRequest req;
    req.nodesToBrowse = Array<BrowseDescription>::emptyArray();
    for (const NodeId& enc : encodings) req.nodesToBrowse.push_back(browseOf(enc, BrowseDirection::Inverse, id::HasEncoding, kNodeClassDataType));
    m_client->browse(std::move(req), {}, m_context, [this, job, encodings](const ServiceResult<BrowseResponse>& r) {
        for (std::size_t i = 0; i < encodings.size(); ++i) {
            const BrowseResult* br = r.status.isGood() && i < r.response.results.size() ? &r.response.results[i] : nullptr;
            const NodeId type = br && br->statusCode.isGood() ? firstTarget(*br) : NodeId();
            if (type.isNull()) {
                m_failures[encodings[i]] = !r.status.isGood() ? QString::fromStdString(r.status.name())
                                           : br && !br->statusCode.isGood() ? QString::fromStdString(br->statusCode.name())
                                                                            : tr("no DataType has this encoding (inverse HasEncoding)");
                continue;
            }
            m_encodingToType[encodings[i]] = type;
            m_typeToBinaryEncoding.emplace(type, encodings[i]);
            job->learned = true;
        }
        step(job);
    });
}

void DataTypeCache::readTypes(const std::shared_ptr<Job>& job, std::vector<NodeId> types) {
    ReadRequest read;
    read.nodesToRead = Array<ReadValueId>::emptyArray();
    BrowseRequest browse;
    browse.nodesToBrowse = Array<BrowseDescription>::emptyArray();
    for (const NodeId& t : types) {
        for (uint32_t a : {kAttrBrowseName, kAttrIsAbstract, kAttrDataTypeDefinition}) read.nodesToRead.push_back(readOf(t, a));
        browse.nodesToBrowse.push_back(browseOf(t, BrowseDirection::Inverse, id::HasSubtype, kNodeClassDataType));
    }
    // Both answers, then one step.
    struct Pair {
        std::optional<ServiceResult<ReadResponse>> read;
        std::optional<ServiceResult<BrowseResponse>> browse;
    };
    auto pair = std::make_shared<Pair>();
    auto both = [this, job, types, pair] {
        if (!pair->read || !pair->browse) return;
        const ServiceResult<ReadResponse>& rr = *pair->read;
        const ServiceResult<BrowseResponse>& br = *pair->browse;
        for (std::size_t i = 0; i < types.size(); ++i) {
            const NodeId& t = types[i];
            if (!rr.status.isGood() || rr.response.results.size() < 3 * (i + 1)) {
                m_failures[t] = tr("Read: %1").arg(QString::fromStdString((rr.status.isGood() ? StatusCode(0x80000000u) : rr.status).name()));
                continue;
            }
            const DataValue& name = rr.response.results[3 * i];
            const DataValue& abstract = rr.response.results[3 * i + 1];
            const DataValue& definition = rr.response.results[3 * i + 2];
            if (name.hasStatus && !name.status.isGood()) {
                m_failures[t] = tr("Read BrowseName: %1").arg(QString::fromStdString(name.status.name()));
                continue;
            }
            auto e = std::make_unique<TypeEntry>();
            e->read = true;
            if (const auto* q = name.value.get<QualifiedName>()) e->name = q->name.toQString();
            if (const auto* b = abstract.value.get<bool>()) e->isAbstract = *b;
            if (const auto* x = definition.value.get<ExtensionObject>()) {
                if (const auto* s = x->get<StructureDefinition>()) e->structure = *s;
                if (const auto* en = x->get<EnumDefinition>()) e->enumeration = *en;
            }
            if (br.status.isGood() && i < br.response.results.size()) e->supertype = firstTarget(br.response.results[i]);
            if (e->structure && !e->structure->defaultEncodingId.isNull())
                m_typeToBinaryEncoding.emplace(t, e->structure->defaultEncodingId);
            m_types[t] = std::move(e);
            job->learned = true;
        }
        step(job);
    };
    m_client->read(std::move(read), m_context, [pair, both](const ServiceResult<ReadResponse>& r) {
        pair->read = r;
        both();
    });
    m_client->browse(std::move(browse), {}, m_context, [pair, both](const ServiceResult<BrowseResponse>& r) {
        pair->browse = r;
        both();
    });
}

void DataTypeCache::dictionaryStep(const std::shared_ptr<Job>& job, std::vector<NodeId> types) {
    // The types at the earliest step go first, all in one request; the others wait for a later round.
    using D = TypeEntry::Dictionary;
    D stage = D::Done;
    for (const NodeId& t : types) stage = std::min(stage, m_types.at(t)->dictionary);
    std::vector<NodeId> batch;
    for (const NodeId& t : types)
        if (m_types.at(t)->dictionary == stage) batch.push_back(t);
    const auto failAll = [this](const std::vector<NodeId>& ts, const QString& why) {
        for (const NodeId& t : ts) m_failures[t] = why;
    };

    if (stage == D::NotTried) {  // Default Binary: forward HasEncoding
        BrowseRequest req;
        req.nodesToBrowse = Array<BrowseDescription>::emptyArray();
        for (const NodeId& t : batch) req.nodesToBrowse.push_back(browseOf(t, BrowseDirection::Forward, id::HasEncoding));
        m_client->browse(std::move(req), {}, m_context, [this, job, batch, failAll](const ServiceResult<BrowseResponse>& r) {
            if (!r.status.isGood()) failAll(batch, tr("Browse HasEncoding: %1").arg(QString::fromStdString(r.status.name())));
            for (std::size_t i = 0; r.status.isGood() && i < batch.size(); ++i) {
                const NodeId enc = i < r.response.results.size() ? firstTarget(r.response.results[i], "Default Binary") : NodeId();
                if (enc.isNull()) {
                    m_failures[batch[i]] = tr("no DataTypeDefinition, and no Default Binary encoding");
                    continue;
                }
                m_typeToBinaryEncoding[batch[i]] = enc;
                m_encodingToType[enc] = batch[i];
                m_types.at(batch[i])->dictionary = D::Encoding;
            }
            step(job);
        });
    } else if (stage == D::Encoding) {  // the DataTypeDescription: forward HasDescription of the encoding
        BrowseRequest req;
        req.nodesToBrowse = Array<BrowseDescription>::emptyArray();
        for (const NodeId& t : batch) req.nodesToBrowse.push_back(browseOf(m_typeToBinaryEncoding.at(t), BrowseDirection::Forward, id::HasDescription));
        m_client->browse(std::move(req), {}, m_context, [this, job, batch, failAll](const ServiceResult<BrowseResponse>& r) {
            if (!r.status.isGood()) failAll(batch, tr("Browse HasDescription: %1").arg(QString::fromStdString(r.status.name())));
            for (std::size_t i = 0; r.status.isGood() && i < batch.size(); ++i) {
                const NodeId d = i < r.response.results.size() ? firstTarget(r.response.results[i]) : NodeId();
                if (d.isNull()) {
                    m_failures[batch[i]] = tr("no DataTypeDefinition, and no DataTypeDictionary (HasDescription)");
                    continue;
                }
                m_types.at(batch[i])->description = d;
                m_types.at(batch[i])->dictionary = D::Description;
            }
            step(job);
        });
    } else if (stage == D::Description) {  // its Value (the name) and its dictionary (inverse HasComponent)
        ReadRequest read;
        read.nodesToRead = Array<ReadValueId>::emptyArray();
        BrowseRequest browse;
        browse.nodesToBrowse = Array<BrowseDescription>::emptyArray();
        for (const NodeId& t : batch) {
            read.nodesToRead.push_back(readOf(m_types.at(t)->description, kAttrValue));
            browse.nodesToBrowse.push_back(browseOf(m_types.at(t)->description, BrowseDirection::Inverse, id::HasComponent));
        }
        auto names = std::make_shared<std::optional<ServiceResult<ReadResponse>>>();
        auto parents = std::make_shared<std::optional<ServiceResult<BrowseResponse>>>();
        auto both = [this, job, batch, names, parents] {
            if (!*names || !*parents) return;
            for (std::size_t i = 0; i < batch.size(); ++i) {
                TypeEntry& e = *m_types.at(batch[i]);
                const auto& rr = **names;
                const auto& br = **parents;
                const String* name = rr.status.isGood() && i < rr.response.results.size() ? rr.response.results[i].value.get<String>() : nullptr;
                const NodeId dict = br.status.isGood() && i < br.response.results.size() ? firstTarget(br.response.results[i]) : NodeId();
                if (!name || dict.isNull()) {
                    m_failures[batch[i]] = tr("the DataTypeDescription %1 has no name or no dictionary").arg(QString::fromStdString(e.description.toString()));
                    continue;
                }
                e.dictionaryName = name->toQString();
                e.dictionaryNode = dict;
                e.dictionary = D::Variable;
            }
            step(job);
        };
        m_client->read(std::move(read), m_context, [names, both](const ServiceResult<ReadResponse>& r) { *names = r; both(); });
        m_client->browse(std::move(browse), {}, m_context, [parents, both](const ServiceResult<BrowseResponse>& r) { *parents = r; both(); });
    } else {  // D::Variable: the dictionary's XML, once per dictionary
        const auto takeDefinitions = [this, job](const std::vector<NodeId>& ts) {
            for (const NodeId& t : ts) {
                TypeEntry& e = *m_types.at(t);
                const auto dict = m_dictionaries.find(e.dictionaryNode);
                if (dict == m_dictionaries.end()) {
                    if (!m_failures.count(t)) m_failures[t] = tr("the DataTypeDictionary could not be read");
                    continue;
                }
                e.dictionary = D::Done;
                job->learned = true;
                if (auto s = dict->second.structures.find(e.dictionaryName); s != dict->second.structures.end()) {
                    e.structure = s->second;
                    e.structure->defaultEncodingId = m_typeToBinaryEncoding[t];
                } else if (auto en = dict->second.enumerations.find(e.dictionaryName); en != dict->second.enumerations.end()) {
                    e.enumeration = en->second;
                } else {
                    const auto why = dict->second.unsupported.find(e.dictionaryName);
                    m_failures[t] = why != dict->second.unsupported.end() ? tr("DataTypeDictionary: %1").arg(why->second)
                                                                          : tr("%1 is not in its DataTypeDictionary").arg(e.dictionaryName);
                }
            }
        };
        std::vector<NodeId> unread;
        for (const NodeId& t : batch) {
            const NodeId& d = m_types.at(t)->dictionaryNode;
            if (!m_dictionaries.count(d) && std::find(unread.begin(), unread.end(), d) == unread.end()) unread.push_back(d);
        }
        if (unread.empty()) {
            takeDefinitions(batch);
            step(job);
            return;
        }
        ReadRequest read;
        read.nodesToRead = Array<ReadValueId>::emptyArray();
        for (const NodeId& d : unread) read.nodesToRead.push_back(readOf(d, kAttrValue));
        m_client->read(std::move(read), m_context, [this, job, batch, unread, takeDefinitions](const ServiceResult<ReadResponse>& r) {
            for (std::size_t i = 0; i < unread.size(); ++i) {
                const ByteString* xml = r.status.isGood() && i < r.response.results.size() ? r.response.results[i].value.get<ByteString>() : nullptr;
                QString error;
                auto dict = xml ? parseTypeDictionary(QByteArray(xml->data(), qsizetype(xml->size())), &error) : std::nullopt;
                if (!dict) {
                    const QString why = tr("DataTypeDictionary %1: %2").arg(QString::fromStdString(unread[i].toString()),
                                                                            xml ? error : tr("its Value is no ByteString"));
                    for (const NodeId& t : batch)
                        if (m_types.at(t)->dictionaryNode == unread[i]) m_failures[t] = why;
                    continue;
                }
                useDictionary(unread[i], *dict);
                m_dictionaries[unread[i]] = std::move(*dict);
            }
            takeDefinitions(batch);
            step(job);
        });
    }
}

void DataTypeCache::useDictionary(const NodeId&, const TypeDictionary& dictionary) {
    for (const auto& [name, def] : dictionary.structures) {
        auto e = std::make_unique<TypeEntry>();
        e->read = true;
        e->name = name;
        e->structure = def;
        m_dictionaryTypes[dictionaryTypeId(dictionary.targetNamespace, name)] = std::move(e);
    }
    for (const auto& [name, def] : dictionary.enumerations) {
        auto e = std::make_unique<TypeEntry>();
        e->read = true;
        e->name = name;
        e->enumeration = def;
        m_dictionaryTypes[dictionaryTypeId(dictionary.targetNamespace, name)] = std::move(e);
    }
}

std::optional<ResolvedDataType> DataTypeCache::resolve(const NodeId& dataType) const {
    ResolvedDataType r;
    if (const auto n = ns0Numeric(dataType); n && isKnownNs0(*n)) {
        if (*n >= 1 && *n <= 25) {
            r.builtIn = BuiltInType(*n);
            if (*n == kBaseDataType) r.builtIn = BuiltInType::Null;
            r.name = QLatin1String(builtInTypeName(BuiltInType(*n)));
        } else if (*n == kEnumeration) {
            r.kind = ResolvedDataType::Kind::Enumeration;
            r.name = QStringLiteral("Enumeration");
        } else if (*n == kNumber || *n == kInteger || *n == kUInteger) {
            r.name = *n == kNumber ? QStringLiteral("Number") : *n == kInteger ? QStringLiteral("Integer") : QStringLiteral("UInteger");
        } else if (*n == kUnion) {
            r.builtIn = BuiltInType::ExtensionObject;
            r.name = QStringLiteral("Union");
        } else {
            r.generated = findDataTypeByTypeId(*n);
            r.builtIn = BuiltInType::ExtensionObject;
            r.name = QLatin1String(r.generated->name);
        }
        return r;
    }
    if (const auto d = m_dictionaryTypes.find(dataType); d != m_dictionaryTypes.end()) {
        r.name = d->second->name;
        if (d->second->structure) {
            r.kind = ResolvedDataType::Kind::Structure;
            r.builtIn = BuiltInType::ExtensionObject;
            r.structure = &*d->second->structure;
        } else {
            r.kind = ResolvedDataType::Kind::Enumeration;
            r.enumeration = d->second->enumeration ? &*d->second->enumeration : nullptr;
        }
        return r;
    }
    const auto it = m_types.find(dataType);
    if (it == m_types.end() || !it->second->read) return std::nullopt;
    const TypeEntry& e = *it->second;
    bool complete = false;
    const uint32_t root = rootOf(dataType, &complete);
    if (!complete || root == 0) return std::nullopt;
    r.name = e.name;
    r.enumeration = e.enumeration ? &*e.enumeration : nullptr;
    const StructureDefinition* def = e.structure ? &*e.structure : nullptr;
    if (root == kEnumeration) {
        r.kind = ResolvedDataType::Kind::Enumeration;
    } else if (root == kOptionSet && r.enumeration && !e.isAbstract) {
        r.kind = ResolvedDataType::Kind::Structure;
        r.builtIn = BuiltInType::ExtensionObject;
        r.structure = &optionSetStructure();
    } else if (root == kStructure || root == kUnion || findDataTypeByTypeId(root)) {
        r.builtIn = BuiltInType::ExtensionObject;
        if (def && !e.isAbstract) {
            r.kind = ResolvedDataType::Kind::Structure;
            r.structure = def;
        } else if (root != kStructure && root != kUnion) {
            r.generated = findDataTypeByTypeId(root);  // a subtype without fields of its own
        } else if (!e.isAbstract) {
            return std::nullopt;  // a concrete structure with no definition: cannot be read
        }
    } else if (root == kBaseDataType || root == kNumber || root == kInteger || root == kUInteger) {
        r.builtIn = BuiltInType::Null;
    } else {
        r.builtIn = BuiltInType(root);
    }
    return r;
}

NodeId DataTypeCache::dataTypeOfEncoding(const NodeId& encodingId) const {
    const auto it = m_encodingToType.find(encodingId);
    return it == m_encodingToType.end() ? NodeId() : it->second;
}

NodeId DataTypeCache::binaryEncodingOf(const NodeId& dataType) const {
    const auto it = m_typeToBinaryEncoding.find(dataType);
    return it == m_typeToBinaryEncoding.end() ? NodeId() : it->second;
}

QString DataTypeCache::failure(const NodeId& id) const {
    const auto it = m_failures.find(id);
    return it == m_failures.end() ? QString() : it->second;
}

std::optional<DynamicValue> DataTypeCache::decode(const ExtensionObject& object, QString* error) const {
    const auto setError = [&](const QString& e) {
        if (error) *error = e;
        return std::nullopt;
    };
    if (object.encoding() != ExtensionObject::Encoding::Binary || object.isDecoded())
        return setError(tr("not an opaque Binary body"));
    const NodeId type = dataTypeOfEncoding(object.encodingId());
    if (type.isNull()) {
        const QString why = failure(object.encodingId());
        return setError(why.isEmpty() ? tr("the DataType of encoding %1 is not loaded").arg(QString::fromStdString(object.encodingId().toString())) : why);
    }
    if (!resolve(type)) {
        const QString why = failure(type);
        return setError(why.isEmpty() ? tr("DataType %1 is not loaded").arg(QString::fromStdString(type.toString())) : why);
    }
    StructureCodec codec(*this);
    auto v = codec.decodeBody(object.body(), type);
    if (!v) return setError(codec.error());
    return v;
}

std::optional<ExtensionObject> DataTypeCache::encode(const DynamicValue& v, QString* error) const {
    StructureCodec codec(*this);
    auto body = codec.encodeBody(v);
    if (!body) {
        if (error) *error = codec.error();
        return std::nullopt;
    }
    const NodeId enc = binaryEncodingOf(v.dataType);
    if (enc.isNull()) {
        if (error) *error = tr("DataType %1 has no known Default Binary encoding").arg(QString::fromStdString(v.dataType.toString()));
        return std::nullopt;
    }
    return ExtensionObject::opaque(enc, std::move(*body));
}

std::optional<DynamicValue> DataTypeCache::defaultValue(const NodeId& dataType, QString* error) const {
    StructureCodec codec(*this);
    auto v = codec.defaultValue(dataType);
    if (!v && error) *error = codec.error();
    return v;
}

} // namespace ua

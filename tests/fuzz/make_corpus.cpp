// fuzz_make_corpus DIR: writes the seed corpus of the decode fuzzer (tests/fuzz/corpus).
//
// Each seed is the UInt16 type selector of FuzzTypes.h followed by the UA Binary encoding of a value:
//   seed-<Type>-default   every generated structure, default-constructed
//   seed-<Type>-filled    every generated structure with every field set (a generic filler walks the
//                         fields with the generated forEachField(); arrays get two elements, nested
//                         structures are filled too, ExtensionObjects carry a decoded body)
//   seed-<Type>-<what>    hand-made realistic messages (ReadRequest, ReadResponse, BrowseResponse,
//                         PublishResponse, CreateSessionRequest, ...) and built-in values (every
//                         Variant type, scalars and arrays, matrices, nested DataValue, ExtensionObject
//                         in its three encodings, NodeId in all its encodings, ...)
// Regenerate after the schema changes (the selectors of generated types shift):
//   cmake --build build --target fuzz_make_corpus && rm -f tests/fuzz/corpus/seed-* &&
//   build/tests/fuzz/fuzz_make_corpus tests/fuzz/corpus
#include "FuzzTypes.h"

#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/Buffer.h"
#include "ua/encoding/DataTypeInfo.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/Types.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <type_traits>

namespace {

std::filesystem::path g_dir;
int g_written = 0;
bool g_failed = false;

template <class T>
void writeSeed(uint16_t selector, const std::string& name, const T& value) {
    ua::Buffer b;
    b.append(&selector, 2);
    ua::BinaryEncoder e(b);
    encode(e, value);
    if (!e.ok()) {
        std::fprintf(stderr, "fuzz_make_corpus: encoding %s failed: %s\n", name.c_str(), e.status().name().c_str());
        g_failed = true;
        return;
    }
    std::ofstream out(g_dir / ("seed-" + name), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    if (!out) {
        std::fprintf(stderr, "fuzz_make_corpus: cannot write %s\n", name.c_str());
        g_failed = true;
        return;
    }
    ++g_written;
}

template <class T>
void writeGenerated(const std::string& what, const T& value) {
    const ua::DataTypeInfo* info = ua::findDataTypeByBinaryEncodingId(T::kBinaryEncodingId);
    if (!info) {
        std::fprintf(stderr, "fuzz_make_corpus: %s is not in generatedDataTypes()\n", T::kName);
        g_failed = true;
        return;
    }
    writeSeed(fuzz::generatedSelector(std::size_t(info - ua::generatedDataTypes().data())),
              std::string(T::kName) + "-" + what, value);
}

template <class T>
void writeBuiltin(fuzz::Builtin b, const std::string& what, const T& value) {
    writeSeed(fuzz::builtinSelector(b), std::string(fuzz::builtinName(b)) + "-" + what, value);
}

// --- sample values ---

ua::ByteString bytes(std::size_t n, uint8_t seed) {
    std::string s(n, '\0');
    for (std::size_t i = 0; i < n; ++i) s[i] = char(uint8_t(seed + i * 37));
    return ua::ByteString(std::move(s));
}

const ua::Guid kGuid = *ua::Guid::parse("C496578A-0DFE-4B8F-870A-745238C6AEAE");
const ua::DateTime kTime = ua::DateTime::fromUnixMs(1'700'000'000'123);

ua::DiagnosticInfo diagnostics() {
    ua::DiagnosticInfo inner;
    inner.symbolicId = 3;
    inner.innerStatusCode = ua::StatusCode(0x80340000u);  // BadNodeIdUnknown
    ua::DiagnosticInfo d;
    d.symbolicId = 0;
    d.namespaceUri = 1;
    d.localizedText = 2;
    d.locale = 4;
    d.additionalInfo = ua::String("more about it");
    d.innerStatusCode = ua::StatusCode(0x80350000u);
    d.innerDiagnosticInfo = inner;
    return d;
}

ua::RequestHeader requestHeader() {
    ua::RequestHeader h;
    h.authenticationToken = ua::NodeId(0, bytes(32, 7));
    h.timestamp = kTime;
    h.requestHandle = 42;
    h.returnDiagnostics = 0x3FF;
    h.auditEntryId = "audit-entry-1";
    h.timeoutHint = 10000;
    h.additionalHeader = ua::ExtensionObject::opaque(ua::NodeId(2, 5001), bytes(5, 1));
    return h;
}

ua::ResponseHeader responseHeader() {
    ua::ResponseHeader h;
    h.timestamp = kTime;
    h.requestHandle = 42;
    h.serviceResult = ua::StatusCode(0);
    h.serviceDiagnostics = diagnostics();
    h.stringTable = ua::Array<ua::String>{"BadSomething", "urn:ns", "en-US", "text", "symbol"};
    return h;
}

ua::DataValue fullDataValue(ua::Variant v) {
    ua::DataValue dv(std::move(v));
    dv.setStatus(ua::StatusCode(0x40000000u));
    dv.setSourceTimestamp(kTime);
    dv.setSourcePicoseconds(1234);
    dv.setServerTimestamp(ua::DateTime{kTime.ticks + 5});
    dv.setServerPicoseconds(9999);
    return dv;
}

ua::BuildInfo buildInfo() {
    ua::BuildInfo b;
    b.productUri = "urn:uaworkbench";
    b.manufacturerName = "UA Workbench";
    b.productName = "ua-server";
    b.softwareVersion = "0.1.0";
    b.buildNumber = "7";
    b.buildDate = kTime;
    return b;
}

// One Variant of every built-in type, scalar and array, plus a matrix and nested values.
std::vector<std::pair<std::string, ua::Variant>> sampleVariants() {
    using namespace ua;
    std::vector<std::pair<std::string, Variant>> v;
    v.emplace_back("Boolean", Variant(true));
    v.emplace_back("SByte", Variant(int8_t(-5)));
    v.emplace_back("Byte", Variant(uint8_t(200)));
    v.emplace_back("Int16", Variant(int16_t(-300)));
    v.emplace_back("UInt16", Variant(uint16_t(60000)));
    v.emplace_back("Int32", Variant(int32_t(-70000)));
    v.emplace_back("UInt32", Variant(uint32_t(4000000000u)));
    v.emplace_back("Int64", Variant(int64_t(-1099511627776)));
    v.emplace_back("UInt64", Variant(uint64_t(1) << 63));
    v.emplace_back("Float", Variant(1.5f));
    v.emplace_back("Double", Variant(-2.25));
    v.emplace_back("String", Variant(String("Hello, \xC3\xA4")));
    v.emplace_back("DateTime", Variant(kTime));
    v.emplace_back("Guid", Variant(kGuid));
    v.emplace_back("ByteString", Variant(bytes(16, 3)));
    v.emplace_back("XmlElement", Variant(XmlElement("<a b=\"1\"/>")));
    v.emplace_back("NodeId", Variant(NodeId(3, "Some.Node")));
    v.emplace_back("ExpandedNodeId", Variant(ExpandedNodeId(NodeId(0, kGuid), String("urn:x"), 2)));
    v.emplace_back("StatusCode", Variant(StatusCode(0x80340000u)));
    v.emplace_back("QualifiedName", Variant(QualifiedName{2, "Temperature"}));
    v.emplace_back("LocalizedText", Variant(LocalizedText{"en-US", "Temperature"}));
    v.emplace_back("ExtensionObject", Variant(ExtensionObject::make(buildInfo())));
    v.emplace_back("DataValue", Variant(fullDataValue(Variant(int32_t(1)))));
    v.emplace_back("DiagnosticInfo", Variant(diagnostics()));
    v.emplace_back("BooleanArray", Variant(Array<bool>{true, false, true}));
    v.emplace_back("ByteArray", Variant(Array<uint8_t>{1, 2, 3}));
    v.emplace_back("Int32Array", Variant(Array<int32_t>{1, -2, 3}));
    v.emplace_back("UInt64Array", Variant(Array<uint64_t>{1, 2}));
    v.emplace_back("DoubleArray", Variant(Array<double>{0.5, -1e300}));
    v.emplace_back("StringArray", Variant(Array<String>{"a", String(), ""}));
    v.emplace_back("DateTimeArray", Variant(Array<DateTime>{kTime, DateTime::maxValue()}));
    v.emplace_back("GuidArray", Variant(Array<Guid>{kGuid, Guid()}));
    v.emplace_back("ByteStringArray", Variant(Array<ByteString>{bytes(3, 1), ByteString()}));
    v.emplace_back("NodeIdArray", Variant(Array<NodeId>{NodeId(0, 85), NodeId(1, 1000), NodeId(2, bytes(4, 9))}));
    v.emplace_back("StatusCodeArray", Variant(Array<StatusCode>{StatusCode(0), StatusCode(0x80000000u)}));
    v.emplace_back("LocalizedTextArray", Variant(Array<LocalizedText>{{"de", "Hallo"}, {String(), "x"}}));
    v.emplace_back("ExtensionObjectArray",
                   Variant(Array<ExtensionObject>{ExtensionObject::make(buildInfo()),
                                                  ExtensionObject::opaque(NodeId(1, 77), bytes(4, 2))}));
    v.emplace_back("DataValueArray",
                   Variant(Array<DataValue>{fullDataValue(Variant(1.0)), DataValue(Variant(String("s")))}));
    v.emplace_back("VariantArray", Variant(Array<Variant>{Variant(int32_t(1)), Variant(String("two")),
                                                          Variant(Array<int16_t>{3, 4}), Variant()}));
    v.emplace_back("DiagnosticInfoArray", Variant(Array<DiagnosticInfo>{diagnostics(), DiagnosticInfo()}));
    v.emplace_back("EmptyArray", Variant(Array<int32_t>::emptyArray()));
    Variant matrix(Array<int32_t>{1, 2, 3, 4, 5, 6});
    matrix.setArrayDimensions(Array<int32_t>{2, 3});
    v.emplace_back("Int32Matrix", std::move(matrix));
    return v;
}

// --- generic filler: sets every field of a generated structure ---

struct Filler {
    int counter = 0;
    int depth = 0;

    template <class T>
    void fill(T& v) {
        ++counter;
        if constexpr (std::is_same_v<T, bool>) {
            v = true;
        } else if constexpr (std::is_floating_point_v<T>) {
            v = T(counter) + T(0.5);
        } else if constexpr (std::is_integral_v<T>) {
            v = T(counter);
        } else if constexpr (std::is_enum_v<T>) {
            v = T(1);
        } else if constexpr (std::is_same_v<T, ua::String>) {
            v = ua::String("s" + std::to_string(counter));
        } else if constexpr (std::is_same_v<T, ua::ByteString>) {
            v = bytes(6, uint8_t(counter));
        } else if constexpr (std::is_same_v<T, ua::XmlElement>) {
            v = ua::XmlElement("<x/>");
        } else if constexpr (std::is_same_v<T, ua::DateTime>) {
            v = ua::DateTime{kTime.ticks + counter};
        } else if constexpr (std::is_same_v<T, ua::Guid>) {
            v = kGuid;
            v.data1 = uint32_t(counter);
        } else if constexpr (std::is_same_v<T, ua::StatusCode>) {
            v = ua::StatusCode(0x80000000u | (uint32_t(counter) << 16));
        } else if constexpr (std::is_same_v<T, ua::NodeId>) {
            switch (counter % 5) {
            case 0: v = ua::NodeId(0, uint32_t(counter)); break;
            case 1: v = ua::NodeId(1, 1000 + uint32_t(counter)); break;
            case 2: v = ua::NodeId(2, ("Node" + std::to_string(counter)).c_str()); break;
            case 3: v = ua::NodeId(3, kGuid); break;
            default: v = ua::NodeId(300, bytes(4, uint8_t(counter))); break;
            }
        } else if constexpr (std::is_same_v<T, ua::ExpandedNodeId>) {
            fill(v.nodeId);
            v.namespaceUri = ua::String("urn:ns" + std::to_string(counter));
            v.serverIndex = uint32_t(counter);
        } else if constexpr (std::is_same_v<T, ua::QualifiedName>) {
            v = ua::QualifiedName{uint16_t(counter % 7), "Name" + std::to_string(counter)};
        } else if constexpr (std::is_same_v<T, ua::LocalizedText>) {
            v = ua::LocalizedText{"en", "Text" + std::to_string(counter)};
        } else if constexpr (std::is_same_v<T, ua::ExtensionObject>) {
            v = counter % 2 ? ua::ExtensionObject::make(buildInfo())
                            : ua::ExtensionObject::opaque(ua::NodeId(1, 99), bytes(3, uint8_t(counter)));
        } else if constexpr (std::is_same_v<T, ua::Variant>) {
            const auto samples = sampleVariants();
            v = samples[std::size_t(counter) % samples.size()].second;
        } else if constexpr (std::is_same_v<T, ua::DataValue>) {
            v = fullDataValue(ua::Variant(int32_t(counter)));
        } else if constexpr (std::is_same_v<T, ua::DiagnosticInfo>) {
            v = diagnostics();
        } else if constexpr (requires { typename T::value_type; v.setEmpty(); }) {  // ua::Array
            using E = typename T::value_type;
            v.setEmpty();
            if (depth > 3) return;  // recursive structures: stop with empty arrays
            if constexpr (std::is_same_v<E, bool>) {
                v.push_back(true);
                v.push_back(false);
            } else {
                v.resize(2);
                ++depth;
                for (auto& x : v) fill(x);
                --depth;
            }
        } else if constexpr (requires { T::kFieldCount; }) {  // a generated structure
            ++depth;
            forEachField(v, [this](const char*, auto& field) { this->fill(field); });  // this->: clang 14
            --depth;
        } else {
            static_assert(sizeof(T) == 0, "fuzz_make_corpus: no filler for this field type");
        }
    }
};

template <class T>
void writeGeneratedDefaultAndFilled() {
    writeGenerated("default", T{});
    T filled{};
    Filler f;
    f.fill(filled);
    writeGenerated("filled", filled);
}

// --- hand-made messages ---

void writeMessages() {
    using namespace ua;

    ReadRequest read;
    read.requestHeader = requestHeader();
    read.maxAge = 0;
    read.timestampsToReturn = TimestampsToReturn::Both;
    read.nodesToRead.push_back({NodeId(1, 1000), uint32_t(AttributeId::Value), String(), QualifiedName()});
    writeGenerated("one-node", read);
    read.maxAge = 500;
    read.nodesToRead.push_back({NodeId(2, "Temperature"), uint32_t(AttributeId::DisplayName), "1:2",
                                QualifiedName{0, "Default Binary"}});
    read.nodesToRead.push_back({NodeId(1, kGuid), uint32_t(AttributeId::DataType), String(), QualifiedName()});
    read.nodesToRead.push_back({NodeId(4, bytes(8, 5)), uint32_t(AttributeId::BrowseName), "", QualifiedName()});
    read.nodesToRead.push_back({NodeId(id::Server), uint32_t(AttributeId::NodeClass), String(), QualifiedName()});
    writeGenerated("mixed-nodes", read);

    ReadResponse rr;
    rr.responseHeader = responseHeader();
    for (auto& [name, v] : sampleVariants()) rr.results.push_back(fullDataValue(v));
    rr.results.push_back(DataValue());
    ua::DataValue bad;
    bad.setStatus(StatusCode(0x80340000u));
    rr.results.push_back(bad);
    rr.diagnosticInfos = Array<DiagnosticInfo>{diagnostics(), DiagnosticInfo()};
    writeGenerated("all-variant-types", rr);

    ReadResponse one;
    one.responseHeader.timestamp = kTime;
    one.responseHeader.requestHandle = 42;
    ua::DataValue dv(Variant(int32_t(1234)));
    dv.setServerTimestamp(kTime);
    one.results.push_back(dv);
    writeGenerated("one-int32", one);

    BrowseResponse br;
    br.responseHeader = responseHeader();
    BrowseResult result;
    result.statusCode = StatusCode(0);
    result.continuationPoint = bytes(8, 4);
    for (uint32_t i = 0; i < 3; ++i) {
        ReferenceDescription ref;
        ref.referenceTypeId = NodeId(id::HasComponent);
        ref.isForward = true;
        ref.nodeId = ExpandedNodeId(NodeId(1, 1000 + i));
        ref.browseName = QualifiedName{1, "Child" + std::to_string(i)};
        ref.displayName = LocalizedText{"en", "Child " + std::to_string(i)};
        ref.nodeClass = NodeClass::Variable;
        ref.typeDefinition = ExpandedNodeId(NodeId(id::BaseDataVariableType), String("http://opcfoundation.org/UA/"), 1);
        result.references.push_back(ref);
    }
    br.results.push_back(result);
    BrowseResult empty;
    empty.statusCode = StatusCode(0x80340000u);
    empty.references = Array<ReferenceDescription>::emptyArray();
    br.results.push_back(empty);
    writeGenerated("three-references", br);

    PublishResponse pr;
    pr.responseHeader = responseHeader();
    pr.subscriptionId = 7;
    pr.availableSequenceNumbers = Array<uint32_t>{11, 12, 13};
    pr.moreNotifications = true;
    pr.notificationMessage.sequenceNumber = 13;
    pr.notificationMessage.publishTime = kTime;
    DataChangeNotification dcn;
    for (uint32_t i = 0; i < 4; ++i) {
        ua::DataValue v(i % 2 ? Variant(double(i) / 3) : Variant(int32_t(i)));
        v.setSourceTimestamp(kTime);
        v.setServerTimestamp(kTime);
        dcn.monitoredItems.push_back({i + 1, v});
    }
    dcn.diagnosticInfos = Array<DiagnosticInfo>::emptyArray();
    EventNotificationList events;
    events.events.push_back({5, Array<Variant>{Variant(bytes(16, 1)), Variant(NodeId(id::Server)),
                                               Variant(LocalizedText{"en", "Alarm"}), Variant(uint16_t(500))}});
    StatusChangeNotification status;
    status.status = StatusCode(0x80280000u);
    status.diagnosticInfo = diagnostics();
    pr.notificationMessage.notificationData = Array<ExtensionObject>{
        ExtensionObject::make(dcn), ExtensionObject::make(events), ExtensionObject::make(status)};
    pr.results = Array<StatusCode>{StatusCode(0), StatusCode(0x80550000u)};
    pr.diagnosticInfos = Array<DiagnosticInfo>{DiagnosticInfo(), diagnostics()};
    writeGenerated("three-notifications", pr);

    CreateSessionRequest cs;
    cs.requestHeader = requestHeader();
    cs.requestHeader.authenticationToken = NodeId();
    cs.clientDescription.applicationUri = "urn:localhost:UAWorkbench:TestClient";
    cs.clientDescription.productUri = "urn:uaworkbench:test";
    cs.clientDescription.applicationName = LocalizedText{"en-US", "UA Workbench Client"};
    cs.clientDescription.applicationType = ApplicationType::Client;
    cs.clientDescription.discoveryUrls = Array<String>{"opc.tcp://localhost:4840", "opc.tcp://[::1]:4840"};
    cs.serverUri = "urn:localhost:UAWorkbench:Server";
    cs.endpointUrl = "opc.tcp://localhost:4840/ua";
    cs.sessionName = "session-1";
    cs.clientNonce = bytes(32, 9);
    cs.clientCertificate = bytes(300, 11);
    cs.requestedSessionTimeout = 60000;
    cs.maxResponseMessageSize = 16 * 1024 * 1024;
    writeGenerated("full", cs);
}

void writeBuiltins() {
    using namespace ua;
    using fuzz::Builtin;
    for (auto& [name, v] : sampleVariants()) writeBuiltin(Builtin::Variant, name, v);
    writeBuiltin(Builtin::Variant, "Null", Variant());
    writeBuiltin(Builtin::Variant, "NestedDataValue",
                 Variant(fullDataValue(Variant(Array<Variant>{Variant(fullDataValue(Variant(true)))}))));

    writeBuiltin(Builtin::DataValue, "empty", DataValue());
    writeBuiltin(Builtin::DataValue, "full", fullDataValue(Variant(String("value"))));
    writeBuiltin(Builtin::DataValue, "status-only", [] { DataValue d; d.setStatus(StatusCode(0x80000000u)); return d; }());

    writeBuiltin(Builtin::ExtensionObject, "null", ExtensionObject());
    writeBuiltin(Builtin::ExtensionObject, "decoded", ExtensionObject::make(buildInfo()));
    writeBuiltin(Builtin::ExtensionObject, "opaque", ExtensionObject::opaque(NodeId(2, "Custom"), bytes(12, 5)));
    writeBuiltin(Builtin::ExtensionObject, "xml", ExtensionObject::xml(NodeId(1, 3), XmlElement("<v>1</v>")));
    writeBuiltin(Builtin::ExtensionObject, "nested",
                 ExtensionObject::make(Argument{"arg", NodeId(id::Int32), -1, Array<uint32_t>{2, 3},
                                                LocalizedText{String(), "an argument"}}));

    writeBuiltin(Builtin::DiagnosticInfo, "empty", DiagnosticInfo());
    writeBuiltin(Builtin::DiagnosticInfo, "nested", diagnostics());

    writeBuiltin(Builtin::NodeId, "TwoByte", NodeId(0, 85));
    writeBuiltin(Builtin::NodeId, "FourByte", NodeId(1, 1000));
    writeBuiltin(Builtin::NodeId, "Numeric", NodeId(1000, 100000));
    writeBuiltin(Builtin::NodeId, "String", NodeId(2, "A.B.C"));
    writeBuiltin(Builtin::NodeId, "Guid", NodeId(1, kGuid));
    writeBuiltin(Builtin::NodeId, "Opaque", NodeId(0, bytes(32, 7)));

    writeBuiltin(Builtin::ExpandedNodeId, "local", ExpandedNodeId(NodeId(1, 1000)));
    writeBuiltin(Builtin::ExpandedNodeId, "uri", ExpandedNodeId(NodeId(0, "x"), String("urn:a")));
    writeBuiltin(Builtin::ExpandedNodeId, "uri-server", ExpandedNodeId(NodeId(0, kGuid), String("urn:a"), 3));
    writeBuiltin(Builtin::ExpandedNodeId, "server", ExpandedNodeId(NodeId(0, 5), String(), 1));

    writeBuiltin(Builtin::LocalizedText, "none", LocalizedText());
    writeBuiltin(Builtin::LocalizedText, "text", LocalizedText{String(), "Text"});
    writeBuiltin(Builtin::LocalizedText, "both", LocalizedText{"en-US", "Text"});

    writeBuiltin(Builtin::QualifiedName, "null", QualifiedName());
    writeBuiltin(Builtin::QualifiedName, "name", QualifiedName{3, "Temperature"});
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    g_dir = argv[1];
    std::filesystem::create_directories(g_dir);

    // Every generated structure: the type list comes from generated/DataTypes.cpp (see CMakeLists.txt).
#define UA_FUZZ_TYPE(Name) writeGeneratedDefaultAndFilled<ua::Name>();
#include "FuzzTypeList.inc"
#undef UA_FUZZ_TYPE
    writeMessages();
    writeBuiltins();

    std::printf("fuzz_make_corpus: wrote %d seeds to %s\n", g_written, g_dir.c_str());
    return g_failed ? 1 : 0;
}

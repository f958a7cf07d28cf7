#include "DemoNodeManager.h"

#include "ua/encoding/generated/StatusCodes.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QThread>
#include <cmath>

namespace ua {

namespace {

struct TypeSample {
    const char* name;
    uint32_t dataType;  // ns=0 DataType NodeId
    Variant scalar;
    Variant array;
};

std::vector<TypeSample> samples() {
    const Guid g = *Guid::parse("72962B91-FA75-4AE6-8D28-B404DC7DAF63");
    DiagnosticInfo di;
    di.symbolicId = 0;
    di.additionalInfo = String("demo");
    Range r;
    r.low = 0;
    r.high = 100;
    return {
        {"Boolean", id::Boolean, Variant(true), Variant(Array<bool>{true, false, true})},
        {"SByte", id::SByte, Variant(int8_t(-8)), Variant(Array<int8_t>{-1, 0, 1})},
        {"Byte", id::Byte, Variant(uint8_t(8)), Variant(Array<uint8_t>{1, 2, 3})},
        {"Int16", id::Int16, Variant(int16_t(-16)), Variant(Array<int16_t>{-16, 0, 16})},
        {"UInt16", id::UInt16, Variant(uint16_t(16)), Variant(Array<uint16_t>{1, 2, 3})},
        {"Int32", id::Int32, Variant(int32_t(-32)), Variant(Array<int32_t>{-32, 0, 32})},
        {"UInt32", id::UInt32, Variant(uint32_t(32)), Variant(Array<uint32_t>{1, 2, 3})},
        {"Int64", id::Int64, Variant(int64_t(-64)), Variant(Array<int64_t>{-64, 0, 64})},
        {"UInt64", id::UInt64, Variant(uint64_t(64)), Variant(Array<uint64_t>{1, 2, 3})},
        {"Float", id::Float, Variant(1.5f), Variant(Array<float>{1.5f, 2.5f})},
        {"Double", id::Double, Variant(3.25), Variant(Array<double>{1.25, -2.5, 3.75})},
        {"String", id::String, Variant(String("Hello")), Variant(Array<String>{String("a"), String("b")})},
        {"DateTime", id::DateTime, Variant(DateTime::fromUnixMs(1704164645678)), Variant(Array<DateTime>{DateTime::fromUnixMs(0)})},
        {"Guid", id::Guid, Variant(g), Variant(Array<Guid>{g, Guid{}})},
        {"ByteString", id::ByteString, Variant(ByteString("bytes")), Variant(Array<ByteString>{ByteString("a"), ByteString("bc")})},
        {"XmlElement", id::XmlElement, Variant(XmlElement("<a>1</a>")), Variant(Array<XmlElement>{XmlElement("<b/>")})},
        {"NodeId", id::NodeId, Variant(NodeId(id::Server)), Variant(Array<NodeId>{NodeId(id::Server), NodeId(1, 1000u)})},
        {"ExpandedNodeId", id::ExpandedNodeId, Variant(ExpandedNodeId(NodeId(id::Server))), Variant(Array<ExpandedNodeId>{ExpandedNodeId(NodeId(id::ObjectsFolder))})},
        {"StatusCode", id::StatusCode, Variant(status::Good), Variant(Array<StatusCode>{status::Good, status::BadTimeout})},
        {"QualifiedName", id::QualifiedName, Variant(QualifiedName{0, String("Name")}), Variant(Array<QualifiedName>{QualifiedName{0, String("A")}})},
        {"LocalizedText", id::LocalizedText, Variant(LocalizedText{String("en"), String("Text")}), Variant(Array<LocalizedText>{LocalizedText{String("de"), String("Text")}})},
        {"ExtensionObject", id::Structure, Variant(ExtensionObject::make(r)), Variant(Array<ExtensionObject>{ExtensionObject::make(r)})},
        {"DataValue", id::DataValue, Variant(DataValue(Variant(int32_t(7)))), Variant(Array<DataValue>{DataValue(Variant(1.0))})},
        {"Variant", id::BaseDataType, Variant(int32_t(24)), Variant(Array<Variant>{Variant(int32_t(1)), Variant(String("two"))})},
        {"DiagnosticInfo", id::DiagnosticInfo, Variant(di), Variant(Array<DiagnosticInfo>{di})},
    };
}

// A deterministic pseudo-random value in [0, 100) for step n.
double randomAt(int64_t n) {
    uint64_t x = uint64_t(n) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return double(x % 10000) / 100.0;
}

} // namespace

StatusCode DemoNodeManager::populate(AddressSpace& space) {
    m_rate->store(m_updateRateMs);
    const NodeId demo = makeId("Demo");
    StatusCode s = addFolder(space, demo, "Demo", NodeId(id::ObjectsFolder));
    const NodeId scalars = makeId("Demo.Scalars"), arrays = makeId("Demo.Arrays");
    if (s.isGood()) s = addFolder(space, scalars, "Scalars", demo);
    if (s.isGood()) s = addFolder(space, arrays, "Arrays", demo);
    for (const TypeSample& t : samples()) {
        if (s.isGood())
            s = addVariable(space, makeId(std::string("Demo.Scalars.") + t.name), t.name, scalars, NodeId(t.dataType), t.scalar);
        VariableOptions array;
        array.valueRank = 1;
        array.arrayDimensions = Array<uint32_t>{0};
        if (s.isGood())
            s = addVariable(space, makeId(std::string("Demo.Arrays.") + t.name), t.name, arrays, NodeId(t.dataType), t.array, array);
    }
    // A 2x3 Int32 matrix.
    Variant matrix(Array<int32_t>{1, 2, 3, 4, 5, 6});
    matrix.setArrayDimensions(Array<int32_t>{2, 3});
    VariableOptions m;
    m.valueRank = 2;
    m.arrayDimensions = Array<uint32_t>{2, 3};
    if (s.isGood()) s = addVariable(space, makeId("Demo.Matrix"), "Matrix", demo, NodeId(id::Int32), matrix, m);
    // Strings for IndexRange.
    const NodeId ranges = makeId("Demo.IndexRange");
    if (s.isGood()) s = addFolder(space, ranges, "IndexRange", demo);
    if (s.isGood()) s = addVariable(space, makeId("Demo.IndexRange.String"), "String", ranges, NodeId(id::String), Variant(String("0123456789")));
    if (s.isGood()) s = addVariable(space, makeId("Demo.IndexRange.ByteString"), "ByteString", ranges, NodeId(id::ByteString), Variant(ByteString("ABCDEFGHIJ")));
    // Analog items.
    const NodeId analog = makeId("Demo.Analog");
    if (s.isGood()) s = addFolder(space, analog, "Analog", demo);
    if (s.isGood()) s = addAnalog(space, analog, "Temperature", 21.5, -40, 120, "°C", 4408652);   // CEL
    if (s.isGood()) s = addAnalog(space, analog, "Pressure", 1.013, 0, 10, "bar", 4342098);        // BAR
    // Folders.
    NodeId parent = demo;
    const NodeId folders = makeId("Demo.Folders");
    if (s.isGood()) s = addFolder(space, folders, "Folders", demo);
    parent = folders;
    std::string path = "Demo.Folders";
    for (int level = 1; s.isGood() && level <= 3; ++level) {
        path += ".Level" + std::to_string(level);
        s = addFolder(space, makeId(path), "Level" + std::to_string(level), parent);
        parent = makeId(path);
    }
    if (s.isGood()) s = addSimulation(space, demo);
    if (s.isGood()) s = addMethods(space, demo);
    // The Demo folder is an event notifier below the Server object (OPC 10000-3 7.16, 7.17), the
    // source of the events of the Variables the demo's alarms watch: an event item on it gets their
    // conditions' events and no other (docs/Alarms.md).
    if (s.isGood()) {
        space.findMutable(demo)->eventNotifier = 0x01;  // SubscribeToEvents
        s = space.addReference(NodeId(id::Server), NodeId(id::HasNotifier), demo);
        for (const char* source : {"Demo.Simulation.Sine", "Demo.Simulation.Ramp", "Demo.Simulation.Random", "Demo.Scalars.Boolean",
                                   "Demo.Scalars.Double"})
            if (s.isGood()) s = space.addReference(demo, NodeId(id::HasEventSource), makeId(source));
    }
    return s;
}

void DemoNodeManager::setEventCallback(EventCallback callback) {
    m_event->store(callback ? std::make_shared<const EventCallback>(std::move(callback)) : nullptr,
                   std::memory_order_release);
}

StatusCode DemoNodeManager::addMethods(AddressSpace& space, const NodeId& demo) {
    const NodeId methods = makeId("Demo.Methods");
    StatusCode s = addFolder(space, methods, "Methods", demo);
    const auto arg = [](const char* name, uint32_t dataType, int32_t valueRank, const char* description) {
        ArgumentDeclaration a;
        a.name = name;
        a.dataType = NodeId(dataType);
        a.valueRank = valueRank;
        if (valueRank == 1) a.arrayDimensions = Array<uint32_t>{0};
        a.description = LocalizedText{String("en"), String(description)};
        return a;
    };
    const auto text = [](const char* t) { return LocalizedText{String("en"), String(t)}; };

    MethodDeclaration scale;
    scale.description = text("Multiplies each of Values by Factor; returns the products and their sum");
    scale.inputs = {arg("Values", id::Double, 1, "The numbers to scale"), arg("Factor", id::Double, -1, "The multiplier")};
    scale.outputs = {arg("Scaled", id::Double, 1, "Values[i] * Factor"), arg("Sum", id::Double, -1, "The sum of Scaled")};
    scale.handler.run = [](const MethodCall& call, CallMethodResult& r) -> StatusCode {
        const Array<double>* values = call.inputs[0].get<Array<double>>();
        const double factor = *call.inputs[1].get<double>();
        Array<double> scaled = Array<double>::emptyArray();
        double sum = 0;
        if (values) {
            scaled.reserve(values->size());
            for (double v : *values) sum += scaled.emplace_back(v * factor);
        }
        r.outputArguments = Array<Variant>{Variant(std::move(scaled)), Variant(sum)};
        return status::Good;
    };
    if (s.isGood()) s = addMethod(space, makeId("Demo.Methods.Scale"), "Scale", methods, std::move(scale));

    MethodDeclaration sleep;
    sleep.description = text("Waits DurationMs (at most 10000) off the I/O thread; returns the time waited, ms");
    sleep.inputs = {arg("DurationMs", id::UInt32, -1, "How long to wait, ms (0..10000)")};
    sleep.outputs = {arg("ElapsedMs", id::UInt32, -1, "How long it waited, ms")};
    sleep.handler.execution = MethodHandler::Execution::Worker;
    sleep.handler.run = [](const MethodCall& call, CallMethodResult& r) -> StatusCode {
        const uint32_t ms = *call.inputs[0].get<uint32_t>();
        if (ms > 10000) return rejectArgument(call, r, 0, status::BadOutOfRange);
        QElapsedTimer t;
        t.start();
        QThread::msleep(ms);
        r.outputArguments = Array<Variant>{Variant(uint32_t(t.elapsed()))};
        return status::Good;
    };
    if (s.isGood()) s = addMethod(space, makeId("Demo.Methods.Sleep"), "Sleep", methods, std::move(sleep));

    MethodDeclaration event;
    event.description = text("Reports an event with Message and Severity (1..1000)");
    event.inputs = {arg("Message", id::String, -1, "The event's Message"), arg("Severity", id::UInt16, -1, "1 (lowest) .. 1000 (highest)")};
    event.handler.run = [hook = m_event](const MethodCall& call, CallMethodResult& r) -> StatusCode {
        const uint16_t severity = *call.inputs[1].get<uint16_t>();
        if (severity < 1 || severity > 1000) return rejectArgument(call, r, 1, status::BadOutOfRange);
        const std::shared_ptr<const EventCallback> callback = hook->load(std::memory_order_acquire);
        if (!callback || !*callback) return status::BadNotSupported;
        return (*callback)(call.inputs[0].get<String>()->toQString(), severity);
    };
    if (s.isGood()) s = addMethod(space, makeId("Demo.Methods.GenerateEvent"), "GenerateEvent", methods, std::move(event));
    return s;
}

StatusCode DemoNodeManager::addAnalog(AddressSpace& space, const NodeId& parent, std::string_view name, double value,
                                      double low, double high, const char* unit, int32_t unitId) {
    const std::string base = "Demo.Analog." + std::string(name);
    VariableOptions o;
    o.typeDefinition = NodeId(id::AnalogItemType);
    StatusCode s = addVariable(space, makeId(base), name, parent, NodeId(id::Double), Variant(value), o);
    Range range;
    range.low = low;
    range.high = high;
    EUInformation eu;
    eu.namespaceUri = String("http://www.opcfoundation.org/UA/units/un/cefact");
    eu.unitId = unitId;
    eu.displayName = LocalizedText{String("en"), String(unit)};
    eu.description = LocalizedText{String("en"), String(unit)};
    VariableOptions prop;
    prop.referenceType = NodeId(id::HasProperty);
    prop.typeDefinition = NodeId(id::PropertyType);
    prop.accessLevel = access::CurrentRead;
    struct Property { const char* name; uint32_t dataType; Variant value; };
    for (const Property& p : {Property{"EURange", id::Range, Variant(ExtensionObject::make(range))},
                              Property{"EngineeringUnits", id::EUInformation, Variant(ExtensionObject::make(eu))}}) {
        const NodeId pid = makeId(base + "." + p.name);
        if (s.isGood()) s = addVariable(space, pid, p.name, makeId(base), NodeId(p.dataType), p.value, prop);
        if (s.isGood()) space.findMutable(pid)->browseName = QualifiedName{0, String(p.name)};  // standard property names are ns 0
    }
    return s;
}

StatusCode DemoNodeManager::addSimulation(AddressSpace& space, const NodeId& demo) {
    const NodeId sim = makeId("Demo.Simulation");
    StatusCode s = addFolder(space, sim, "Simulation", demo);
    auto rate = m_rate;
    // The signals change once per update period, on absolute boundaries of the clock, and carry
    // the boundary as their SourceTimestamp.
    auto signal = [rate](double (*f)(int64_t step, uint32_t rateMs)) {
        return ValueSource{[rate, f] {
            const uint32_t r = std::max<uint32_t>(rate->load(std::memory_order_relaxed), 10);
            const int64_t step = QDateTime::currentMSecsSinceEpoch() / r;
            DataValue v(Variant(f(step, r)));
            v.setSourceTimestamp(DateTime::fromUnixMs(step * r));
            return v;
        }, {}};
    };
    VariableOptions ro;
    ro.accessLevel = access::CurrentRead;
    ro.minimumSamplingInterval = 10;
    struct Signal { const char* name; double (*f)(int64_t, uint32_t); };
    for (const Signal& sig : {Signal{"Sine", [](int64_t n, uint32_t r) { return 100.0 * std::sin(2 * M_PI * double((n * r) % 60000) / 60000.0); }},
                              Signal{"Ramp", [](int64_t n, uint32_t) { return double(n % 100); }},
                              Signal{"Random", [](int64_t n, uint32_t) { return randomAt(n); }}}) {
        const NodeId id = makeId(std::string("Demo.Simulation.") + sig.name);
        if (s.isGood()) s = addVariable(space, id, sig.name, sim, NodeId(id::Double), Variant(0.0), ro);
        if (s.isGood()) s = setValueSource(space, id, signal(sig.f));
    }
    const NodeId rateId = makeId("Demo.Simulation.UpdateRate");
    VariableOptions rw;
    rw.description = LocalizedText{String("en"), String("Period of the simulated signals, ms (at least 10)")};
    if (s.isGood()) s = addVariable(space, rateId, "UpdateRate", sim, NodeId(id::UInt32), Variant(m_updateRateMs), rw);
    if (s.isGood())
        s = setValueSource(space, rateId, ValueSource{
            [rate] { return DataValue(Variant(uint32_t(rate->load()))); },
            [rate](const DataValue& v) -> StatusCode {
                const uint32_t* r = v.value.get<uint32_t>();
                if (!r) return status::BadTypeMismatch;
                if (*r < 10) return status::BadOutOfRange;
                rate->store(*r);
                return status::Good;
            }});
    return s;
}

} // namespace ua

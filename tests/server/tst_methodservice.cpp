// The Method Service Set (services/MethodService.h, OPC 10000-4 5.11.2): every request- and
// operation-level status of Call, the argument checks against InputArguments (DataType with
// subtypes, ValueRank, ArrayDimensions), Roles, Methods found through a type definition, Worker
// handlers off the calling thread, and the demo namespace's Methods.
#include "ServiceTestUtil.h"

#include "ua/encoding/generated/NodeIds.h"
#include "DemoNodeManager.h"
#include "ua/server/services/MethodService.h"
#include "ua/server/users/Roles.h"

#include <QElapsedTimer>
#include <QThread>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include "MetaTypes.h"
#include "TestMain.h"

namespace {
// The hand-over from a worker thread to the test: a counting semaphore on std::mutex and
// std::condition_variable (not QSemaphore: ThreadSanitizer sees pthread, not Qt's futex, so what
// the worker wrote before release() looked like a race with what the test read after it).
class Semaphore {
public:
    void release() {
        const std::lock_guard lock(m_mutex);
        ++m_count;
        m_cv.notify_all();
    }
    bool tryAcquire(int n, int timeoutMs) {
        std::unique_lock lock(m_mutex);
        if (!m_cv.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] { return m_count >= n; })) return false;
        m_count -= n;
        return true;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    int m_count = 0;
};
}  // namespace

using namespace ua;
using namespace ua::test;

namespace {

// The test namespace's Methods and their Objects (string NodeIds "M.<name>").
class MethodTestManager final : public NodeManager {
public:
    MethodTestManager() : NodeManager("urn:ua-workbench:methodtest") {}
    std::atomic<QThread*> slowThread{nullptr};
    std::atomic<int> calls{0};
    // Slow's rendezvous, instead of timing: each run waits (at most 5 s) until `peers` runs are in
    // the handler at once, or while `gated`, until the test releases `gate`; `maxRunning` is the
    // most runs seen in it at the same time.
    std::atomic<int> peers{0};
    std::atomic<bool> gated{false};
    Semaphore gate;
    std::atomic<int> running{0};
    std::atomic<int> maxRunning{0};

protected:
    StatusCode populate(AddressSpace& s) override {
        const NodeId obj = makeId("M.Obj");
        StatusCode st = addObject(s, obj, "Obj", NodeId(id::ObjectsFolder));
        const auto arg = [](const char* name, uint32_t dataType, int32_t valueRank = -1, Array<uint32_t> dims = {}) {
            ArgumentDeclaration a;
            a.name = name;
            a.dataType = NodeId(dataType);
            a.valueRank = valueRank;
            a.arrayDimensions = std::move(dims);
            return a;
        };
        const auto method = [&](const char* name, MethodDeclaration d, const NodeId& parent) {
            if (st.isGood()) st = addMethod(s, makeId(std::string("M.") + name), name, parent, std::move(d));
        };
        const auto good = [this](const MethodCall&, CallMethodResult&) -> StatusCode {
            ++calls;
            return status::Good;
        };

        MethodDeclaration add;
        add.inputs = {arg("A", id::Int32), arg("B", id::Int32)};
        add.outputs = {arg("Sum", id::Int32)};
        add.handler.run = [this](const MethodCall& c, CallMethodResult& r) -> StatusCode {
            ++calls;
            r.outputArguments = Array<Variant>{Variant(*c.inputs[0].get<int32_t>() + *c.inputs[1].get<int32_t>())};
            return status::Good;
        };
        method("Add", add, obj);

        // One argument per kind of check.
        MethodDeclaration types;
        types.inputs = {arg("Number", id::Number), arg("Array", id::Double, 1), arg("Scalar", id::Double),
                        arg("Structure", id::Range), arg("Fixed", id::Int32, 1, Array<uint32_t>{3}),
                        arg("Bytes", id::Byte, 1), arg("Any", id::BaseDataType, -2)};
        types.outputs = {arg("BytesLength", id::UInt32)};
        types.handler.run = [](const MethodCall& c, CallMethodResult& r) -> StatusCode {
            const auto* bytes = c.inputs[5].get<Array<uint8_t>>();  // a ByteString arrives converted
            r.outputArguments = Array<Variant>{Variant(uint32_t(bytes ? bytes->size() : 999))};
            return status::Good;
        };
        method("Types", types, obj);

        MethodDeclaration notExecutable;
        notExecutable.handler.run = good;
        method("NotExecutable", notExecutable, obj);
        MethodDeclaration notUserExecutable;
        notUserExecutable.handler.run = good;
        method("NotUserExecutable", notUserExecutable, obj);
        MethodDeclaration restricted;  // no RolePermissions: the Roles' defaults apply
        restricted.handler.run = good;
        method("Restricted", restricted, obj);
        MethodDeclaration forAnonymous;  // RolePermissions grant Call to the Anonymous Role
        forAnonymous.handler.run = good;
        method("ForAnonymous", forAnonymous, obj);
        method("NoHandler", MethodDeclaration{}, obj);
        MethodDeclaration badOutputs;  // declares one output, returns none
        badOutputs.outputs = {arg("Out", id::Int32)};
        badOutputs.handler.run = good;
        method("BadOutputs", badOutputs, obj);
        MethodDeclaration range;
        range.inputs = {arg("Small", id::UInt32)};
        range.handler.run = [](const MethodCall& c, CallMethodResult& r) -> StatusCode {
            if (*c.inputs[0].get<uint32_t>() > 10) return rejectArgument(c, r, 0, status::BadOutOfRange);
            return status::Good;
        };
        method("Range", range, obj);
        MethodDeclaration slow;
        slow.outputs = {arg("Ms", id::UInt32)};
        slow.handler.execution = MethodHandler::Execution::Worker;
        slow.handler.run = [this](const MethodCall&, CallMethodResult& r) -> StatusCode {
            slowThread = QThread::currentThread();
            const int now = running.fetch_add(1) + 1;
            int seen = maxRunning.load();
            while (seen < now && !maxRunning.compare_exchange_weak(seen, now)) {}
            if (gated) {
                gate.tryAcquire(1, 5000);
            } else {
                QElapsedTimer waited;
                waited.start();
                while (running.load() < peers.load() && waited.elapsed() < 5000) QThread::msleep(1);
            }
            running.fetch_sub(1);
            r.outputArguments = Array<Variant>{Variant(uint32_t(200))};
            return status::Good;
        };
        method("Slow", slow, obj);
        if (st.isBad()) return st;
        s.findMutable(makeId("M.NotExecutable"))->executable = false;
        s.findMutable(makeId("M.NotUserExecutable"))->userExecutable = false;
        RolePermissionType anonymous;
        anonymous.roleId = roleNodeId(Role::Anonymous);
        anonymous.permissions = PermissionType(uint32_t(PermissionType::Browse) | uint32_t(PermissionType::Call));
        s.findMutable(makeId("M.ForAnonymous"))->rare.edit().rolePermissions =
            Variant(Array<ExtensionObject>{ExtensionObject::make(anonymous)});

        // An ObjectType with a Method, a subtype of it, and an instance of each.
        for (const auto& [type, super] : {std::pair{"M.Type", NodeId(id::BaseObjectType)}, std::pair{"M.SubType", makeId("M.Type")}}) {
            Node t;
            t.nodeId = makeId(type);
            t.nodeClass = NodeClass::ObjectType;
            t.browseName = {namespaceIndex(), String(type)};
            t.setDisplayName(LocalizedText{String(), String(type)});
            if (st = s.addNode(std::move(t)); st.isBad()) return st;
            if (st = s.addReference(super, NodeId(id::HasSubtype), makeId(type)); st.isBad()) return st;
        }
        MethodDeclaration typeMethod;
        typeMethod.handler.run = [](const MethodCall& c, CallMethodResult&) -> StatusCode {
            return c.objectId.isNull() ? status::BadInternalError : status::Good;
        };
        method("TypeMethod", typeMethod, makeId("M.Type"));
        MethodDeclaration ordered;  // through HasOrderedComponent, a subtype of HasComponent
        ordered.referenceType = NodeId(id::HasOrderedComponent);
        ordered.handler.run = good;
        method("Ordered", ordered, obj);
        if (st.isGood()) st = addObject(s, makeId("M.Instance"), "Instance", NodeId(id::ObjectsFolder), NodeId(id::Organizes), makeId("M.Type"));
        if (st.isGood()) st = addObject(s, makeId("M.SubInstance"), "SubInstance", NodeId(id::ObjectsFolder), NodeId(id::Organizes), makeId("M.SubType"));
        return st;
    }
};

CallMethodRequest callOf(const NodeId& object, const NodeId& method, Array<Variant> inputs = {}) {
    CallMethodRequest m;
    m.objectId = object;
    m.methodId = method;
    m.inputArguments = std::move(inputs);
    return m;
}

Range range(double lo, double hi) {
    Range r;
    r.low = lo;
    r.high = hi;
    return r;
}

} // namespace

class TestMethodService : public QObject {
    Q_OBJECT
private slots:
    void init();
    void requestLevelStatuses();
    void objectAndMethodStatuses();
    void executableAndRoles();
    void argumentCounts();
    void argumentTypes_data();
    void argumentTypes();
    void handlerResults();
    void methodsOfTypes();
    void workerHandlersRunOffTheCallingThread();
    void queuedWorkerCallsNobodyWaitsForAreNotRun();
    void demoMethods();
    void demoMethodsDeclareTheirArguments();

private:
    // Serves req; waits for the Worker handlers when there are any.
    CallResponse serve(const CallRequest& req, uint32_t roles = kUnrestricted, std::size_t* started = nullptr);
    CallMethodResult callOne(CallMethodRequest m, uint32_t roles = kUnrestricted) {
        CallRequest req;
        req.methodsToCall = Array<CallMethodRequest>{std::move(m)};
        CallResponse r = serve(req, roles);
        if (r.results.size() != 1) return CallMethodResult{status::BadUnexpectedError, {}, {}, {}};
        return r.results[0];
    }
    NodeId m(const char* name) const { return NodeId(m_ns, String(std::string("M.") + name)); }
    NodeId demo(const char* name) const { return NodeId(m_demoNs, String(std::string("Demo.Methods") + name)); }

    std::unique_ptr<MethodTestManager> m_manager;
    std::unique_ptr<DemoNodeManager> m_demo;
    std::unique_ptr<SharedAddressSpace> m_space;
    OperationLimits m_limits;
    uint16_t m_ns = 0, m_demoNs = 0;
};

void TestMethodService::init() {
    m_manager = std::make_unique<MethodTestManager>();
    m_demo = std::make_unique<DemoNodeManager>();
    AddressSpace space;
    Ns0NodeManager ns0;
    QCOMPARE(ns0.install(space), StatusCode());
    QCOMPARE(m_manager->install(space), StatusCode());
    QCOMPARE(m_demo->install(space), StatusCode());
    m_ns = m_manager->namespaceIndex();
    m_demoNs = m_demo->namespaceIndex();
    m_space = std::make_unique<SharedAddressSpace>(std::move(space));
    m_limits = OperationLimits{};
}

CallResponse TestMethodService::serve(const CallRequest& req, uint32_t roles, std::size_t* startedOut) {
    const auto snapshot = m_space->snapshot();
    ServiceContext sc{*snapshot, m_space.get(), m_limits, nullptr, DateTime::now()};
    sc.roles = roles;
    sc.permissions = defaultPermissions(roles);
    CallResponse resp;
    auto done = std::make_shared<std::optional<CallResponse>>();
    auto ready = std::make_shared<Semaphore>();
    const std::size_t started = serveCall(sc, req, resp, NodeId(1, 99u), [done, ready](CallResponse&& r) {
        *done = std::move(r);
        ready->release();
    });
    if (startedOut) *startedOut = started;
    if (started == 0) return resp;
    if (!ready->tryAcquire(1, 15000)) return CallResponse{};
    return std::move(**done);
}

void TestMethodService::requestLevelStatuses() {
    CallRequest empty;
    QCOMPARE(serve(empty).responseHeader.serviceResult, StatusCode(status::BadNothingToDo));
    m_limits.maxNodesPerMethodCall = 2;
    CallRequest three;
    for (int i = 0; i < 3; ++i) three.methodsToCall.push_back(callOf(m("Obj"), m("Add"), {Variant(1), Variant(2)}));
    const CallResponse r = serve(three);
    QCOMPARE(r.responseHeader.serviceResult, StatusCode(status::BadTooManyOperations));
    QVERIFY(r.results.empty());
    QCOMPARE(m_manager->calls.load(), 0);
    three.methodsToCall.pop_back();
    QCOMPARE(serve(three).results.size(), std::size_t(2));
    QCOMPARE(m_manager->calls.load(), 2);
}

void TestMethodService::objectAndMethodStatuses() {
    const Array<Variant> ab{Variant(1), Variant(2)};
    QCOMPARE(callOne(callOf(m("Missing"), m("Add"), ab)).statusCode, StatusCode(status::BadNodeIdUnknown));
    // A Variable is not an Object or ObjectType.
    QCOMPARE(callOne(callOf(NodeId(id::Server_ServerStatus), m("Add"), ab)).statusCode, StatusCode(status::BadNodeIdInvalid));
    QCOMPARE(callOne(callOf(m("Obj"), m("Missing"), ab)).statusCode, StatusCode(status::BadMethodInvalid));
    // Not a Method: the Method's own InputArguments Property.
    QCOMPARE(callOne(callOf(m("Obj"), NodeId(m_ns, String("M.Add.InputArguments")), ab)).statusCode,
             StatusCode(status::BadMethodInvalid));
    // A Method of another Object.
    QCOMPARE(callOne(callOf(NodeId(id::Server), m("Add"), ab)).statusCode, StatusCode(status::BadMethodInvalid));
    QCOMPARE(callOne(callOf(m("Obj"), NodeId(id::Server_GetMonitoredItems), ab)).statusCode, StatusCode(status::BadMethodInvalid));
    // Namespace 0's Methods exist but have no handler.
    QCOMPARE(callOne(callOf(NodeId(id::Server), NodeId(id::Server_GetMonitoredItems), {Variant(uint32_t(1))})).statusCode,
             StatusCode(status::BadNotImplemented));
    QCOMPARE(callOne(callOf(m("Obj"), m("NoHandler"))).statusCode, StatusCode(status::BadNotImplemented));
    // Each operation has its own result.
    CallRequest mixed;
    mixed.methodsToCall = {callOf(m("Obj"), m("Add"), ab), callOf(m("Missing"), m("Add"), ab), callOf(m("Obj"), m("Add"), ab)};
    const CallResponse r = serve(mixed);
    QCOMPARE(r.responseHeader.serviceResult, StatusCode());
    QCOMPARE(r.results.size(), std::size_t(3));
    QCOMPARE(r.results[0].statusCode, StatusCode(status::Good));
    QCOMPARE(r.results[1].statusCode, StatusCode(status::BadNodeIdUnknown));
    QCOMPARE(r.results[2].outputArguments, (Array<Variant>{Variant(int32_t(3))}));
}

void TestMethodService::executableAndRoles() {
    QCOMPARE(callOne(callOf(m("Obj"), m("NotExecutable"))).statusCode, StatusCode(status::BadNotExecutable));
    QCOMPARE(callOne(callOf(m("Obj"), m("NotUserExecutable"))).statusCode, StatusCode(status::BadUserAccessDenied));
    const uint32_t anonymous = roleBit(Role::Anonymous);
    const uint32_t user = roleBit(Role::AuthenticatedUser) | roleBit(Role::Observer);
    const uint32_t operatorRole = roleBit(Role::AuthenticatedUser) | roleBit(Role::Operator);
    QCOMPARE(callOne(callOf(m("Obj"), m("Restricted")), anonymous).statusCode, StatusCode(status::BadUserAccessDenied));
    QCOMPARE(callOne(callOf(m("Obj"), m("Restricted")), user).statusCode, StatusCode(status::BadUserAccessDenied));
    QCOMPARE(callOne(callOf(m("Obj"), m("Restricted")), operatorRole).statusCode, StatusCode(status::Good));
    QCOMPARE(callOne(callOf(m("Obj"), m("Restricted")), anonymous | roleBit(Role::Operator)).statusCode, StatusCode(status::Good));
    // The Method's RolePermissions replace the defaults: Anonymous may call it, Operator may not.
    QCOMPARE(callOne(callOf(m("Obj"), m("ForAnonymous")), anonymous).statusCode, StatusCode(status::Good));
    QCOMPARE(callOne(callOf(m("Obj"), m("ForAnonymous")), operatorRole).statusCode, StatusCode(status::BadUserAccessDenied));
    // Not executable comes before the user's rights.
    QCOMPARE(callOne(callOf(m("Obj"), m("NotExecutable")), anonymous).statusCode, StatusCode(status::BadNotExecutable));
    QCOMPARE(m_manager->calls.load(), 3);
}

void TestMethodService::argumentCounts() {
    QCOMPARE(callOne(callOf(m("Obj"), m("Add"))).statusCode, StatusCode(status::BadArgumentsMissing));
    QCOMPARE(callOne(callOf(m("Obj"), m("Add"), {Variant(1)})).statusCode, StatusCode(status::BadArgumentsMissing));
    QCOMPARE(callOne(callOf(m("Obj"), m("Add"), {Variant(1), Variant(2), Variant(3)})).statusCode,
             StatusCode(status::BadTooManyArguments));
    // A Method without InputArguments takes none.
    QCOMPARE(callOne(callOf(m("Obj"), m("Restricted"), {Variant(1)})).statusCode, StatusCode(status::BadTooManyArguments));
    QCOMPARE(m_manager->calls.load(), 0);
    const CallMethodResult ok = callOne(callOf(m("Obj"), m("Add"), {Variant(int32_t(40)), Variant(int32_t(2))}));
    QCOMPARE(ok.statusCode, StatusCode(status::Good));
    QCOMPARE(ok.inputArgumentResults, (Array<StatusCode>{status::Good, status::Good}));
    QCOMPARE(ok.outputArguments, (Array<Variant>{Variant(int32_t(42))}));
}

void TestMethodService::argumentTypes_data() {
    QTest::addColumn<int>("index");
    QTest::addColumn<Variant>("value");
    QTest::addColumn<bool>("accepted");
    // Number (abstract): any numeric built-in type is a subtype.
    QTest::newRow("Number takes Int32") << 0 << Variant(int32_t(1)) << true;
    QTest::newRow("Number takes Double") << 0 << Variant(2.5) << true;
    QTest::newRow("Number takes Byte") << 0 << Variant(uint8_t(1)) << true;
    QTest::newRow("Number rejects String") << 0 << Variant(String("1")) << false;
    QTest::newRow("Number rejects null") << 0 << Variant() << false;
    QTest::newRow("Double[] takes an array") << 1 << Variant(Array<double>{1, 2}) << true;
    QTest::newRow("Double[] takes an empty array") << 1 << Variant(Array<double>::emptyArray()) << true;
    QTest::newRow("Double[] rejects a scalar") << 1 << Variant(1.0) << false;
    QTest::newRow("Double[] rejects Float[]") << 1 << Variant(Array<float>{1.f}) << false;
    Variant matrix(Array<double>{1, 2, 3, 4});
    matrix.setArrayDimensions(Array<int32_t>{2, 2});
    QTest::newRow("Double[] rejects a matrix") << 1 << matrix << false;
    QTest::newRow("Double takes a scalar") << 2 << Variant(1.0) << true;
    QTest::newRow("Double rejects an array") << 2 << Variant(Array<double>{1}) << false;
    QTest::newRow("Double rejects Int32 (no conversion)") << 2 << Variant(int32_t(1)) << false;
    QTest::newRow("Double rejects Float") << 2 << Variant(1.0f) << false;
    QTest::newRow("Range takes a Range") << 3 << Variant(ExtensionObject::make(range(0, 1))) << true;
    BuildInfo info;
    QTest::newRow("Range rejects a BuildInfo") << 3 << Variant(ExtensionObject::make(info)) << false;
    QTest::newRow("Range rejects a Double") << 3 << Variant(1.0) << false;
    QTest::newRow("Int32[3] takes 3") << 4 << Variant(Array<int32_t>{1, 2, 3}) << true;
    QTest::newRow("Int32[3] rejects 2") << 4 << Variant(Array<int32_t>{1, 2}) << false;
    QTest::newRow("Byte[] takes a ByteString") << 5 << Variant(ByteString("abcd")) << true;
    QTest::newRow("Any takes a matrix") << 6 << matrix << true;
}

void TestMethodService::argumentTypes() {
    QFETCH(int, index);
    QFETCH(Variant, value);
    QFETCH(bool, accepted);
    Array<Variant> inputs{Variant(int32_t(7)), Variant(Array<double>{1.5}), Variant(2.0),
                          Variant(ExtensionObject::make(range(1, 2))), Variant(Array<int32_t>{1, 2, 3}),
                          Variant(Array<uint8_t>{1, 2}), Variant(String("any"))};
    inputs[std::size_t(index)] = value;
    const CallMethodResult r = callOne(callOf(m("Obj"), m("Types"), inputs));
    QCOMPARE(r.inputArgumentResults.size(), inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i)
        QCOMPARE(r.inputArgumentResults[i], StatusCode(i == std::size_t(index) && !accepted ? status::BadTypeMismatch : status::Good));
    if (accepted) {
        QCOMPARE(r.statusCode, StatusCode(status::Good));
        const uint32_t bytes = QString(QTest::currentDataTag()).contains("ByteString") ? 4 : 2;
        QCOMPARE(r.outputArguments, (Array<Variant>{Variant(bytes)}));
    } else {
        QCOMPARE(r.statusCode, StatusCode(status::BadInvalidArgument));
        QVERIFY(r.outputArguments.empty());
    }
}

void TestMethodService::handlerResults() {
    const CallMethodResult outOfRange = callOne(callOf(m("Obj"), m("Range"), {Variant(uint32_t(11))}));
    QCOMPARE(outOfRange.statusCode, StatusCode(status::BadInvalidArgument));
    QCOMPARE(outOfRange.inputArgumentResults, (Array<StatusCode>{status::BadOutOfRange}));
    QCOMPARE(callOne(callOf(m("Obj"), m("Range"), {Variant(uint32_t(10))})).statusCode, StatusCode(status::Good));
    const CallMethodResult badOutputs = callOne(callOf(m("Obj"), m("BadOutputs")));
    QCOMPARE(badOutputs.statusCode, StatusCode(status::BadInternalError));
    QVERIFY(badOutputs.outputArguments.empty());
}

void TestMethodService::methodsOfTypes() {
    // The Method is a component of the Object's TypeDefinition, or of a supertype of it.
    QCOMPARE(callOne(callOf(m("Instance"), m("TypeMethod"))).statusCode, StatusCode(status::Good));
    QCOMPARE(callOne(callOf(m("SubInstance"), m("TypeMethod"))).statusCode, StatusCode(status::Good));
    // On the ObjectType itself and on a subtype of it.
    QCOMPARE(callOne(callOf(m("Type"), m("TypeMethod"))).statusCode, StatusCode(status::Good));
    QCOMPARE(callOne(callOf(m("SubType"), m("TypeMethod"))).statusCode, StatusCode(status::Good));
    // Not on an Object of another type.
    QCOMPARE(callOne(callOf(m("Obj"), m("TypeMethod"))).statusCode, StatusCode(status::BadMethodInvalid));
    // A subtype of HasComponent.
    QCOMPARE(callOne(callOf(m("Obj"), m("Ordered"))).statusCode, StatusCode(status::Good));
}

void TestMethodService::workerHandlersRunOffTheCallingThread() {
    CallRequest req;
    req.methodsToCall = {callOf(m("Obj"), m("Slow")), callOf(m("Obj"), m("Add"), {Variant(1), Variant(2)}),
                         callOf(m("Obj"), m("Slow")), callOf(m("Missing"), m("Slow"))};
    m_manager->peers = 2;
    m_manager->maxRunning = 0;
    std::size_t started = 0;
    const CallResponse r = serve(req, kUnrestricted, &started);
    m_manager->peers = 0;
    QCOMPARE(started, std::size_t(2));
    QCOMPARE(r.results.size(), std::size_t(4));
    QCOMPARE(r.results[0].statusCode, StatusCode(status::Good));
    QCOMPARE(r.results[0].outputArguments, (Array<Variant>{Variant(uint32_t(200))}));
    QCOMPARE(r.results[1].outputArguments, (Array<Variant>{Variant(int32_t(3))}));
    QCOMPARE(r.results[2].outputArguments, (Array<Variant>{Variant(uint32_t(200))}));
    QCOMPARE(r.results[3].statusCode, StatusCode(status::BadNodeIdUnknown));
    QVERIFY(m_manager->slowThread.load() != nullptr);
    QVERIFY(m_manager->slowThread.load() != QThread::currentThread());
    // The two ran in parallel on the pool: both were in the handler at once.
    QCOMPARE(m_manager->maxRunning.load(), 2);

    // serveCall returns before a Worker handler finishes.
    const auto snapshot = m_space->snapshot();
    ServiceContext sc{*snapshot, m_space.get(), m_limits, nullptr, DateTime::now()};
    CallRequest one;
    one.methodsToCall = {callOf(m("Obj"), m("Slow"))};
    CallResponse resp;
    Semaphore ready;
    m_manager->gated = true;  // the handler stays in until the gate opens, after serveCall returned
    QCOMPARE(serveCall(sc, one, resp, NodeId(), [&ready](CallResponse&&) { ready.release(); }), std::size_t(1));
    QVERIFY(!ready.tryAcquire(1, 50));
    m_manager->gate.release();
    QVERIFY(ready.tryAcquire(1, 5000));
    m_manager->gated = false;
}

void TestMethodService::queuedWorkerCallsNobodyWaitsForAreNotRun() {
    const auto snapshot = m_space->snapshot();
    ServiceContext sc{*snapshot, m_space.get(), m_limits, nullptr, DateTime::now()};
    CallRequest one;
    one.methodsToCall = {callOf(m("Obj"), m("Slow"))};
    m_manager->slowThread = nullptr;
    // The Session has gone by the time a pool thread takes the call: the handler is not run.
    CallResponse resp;
    std::optional<CallResponse> done;
    Semaphore ready;
    QCOMPARE(serveCall(sc, one, resp, NodeId(), [&](CallResponse&& r) { done = std::move(r); ready.release(); },
                       [] { return true; }),
             std::size_t(1));
    QVERIFY(ready.tryAcquire(1, 5000));
    QCOMPARE(done->results[0].statusCode, StatusCode(status::BadSessionClosed));
    QVERIFY(m_manager->slowThread.load() == nullptr);
    // The request's timeoutHint passed while it waited: Bad_Timeout, not run.
    CallResponse resp2;
    QCOMPARE(serveCall(sc, one, resp2, NodeId(), [&](CallResponse&& r) { done = std::move(r); ready.release(); },
                       [] { return false; }, 1),
             std::size_t(1));
    QVERIFY(ready.tryAcquire(1, 5000));
    QCOMPARE(done->results[0].statusCode, StatusCode(status::BadTimeout));
    QVERIFY(m_manager->slowThread.load() == nullptr);
    // Still wanted and in time: run.
    CallResponse resp3;
    QCOMPARE(serveCall(sc, one, resp3, NodeId(), [&](CallResponse&& r) { done = std::move(r); ready.release(); },
                       [] { return false; }, 0),
             std::size_t(1));
    QVERIFY(ready.tryAcquire(1, 5000));
    QCOMPARE(done->results[0].statusCode, StatusCode(status::Good));
    QVERIFY(m_manager->slowThread.load() != nullptr);
}

void TestMethodService::demoMethods() {
    const NodeId methods(m_demoNs, String("Demo.Methods"));
    const CallMethodResult scaled =
        callOne(callOf(methods, demo(".Scale"), {Variant(Array<double>{1, 2.5, -4}), Variant(2.0)}));
    QCOMPARE(scaled.statusCode, StatusCode(status::Good));
    QCOMPARE(scaled.outputArguments, (Array<Variant>{Variant(Array<double>{2, 5, -8}), Variant(-1.0)}));
    const CallMethodResult scalarValues = callOne(callOf(methods, demo(".Scale"), {Variant(1.0), Variant(2.0)}));
    QCOMPARE(scalarValues.statusCode, StatusCode(status::BadInvalidArgument));
    QCOMPARE(scalarValues.inputArgumentResults, (Array<StatusCode>{status::BadTypeMismatch, status::Good}));

    QElapsedTimer t;
    t.start();
    const CallMethodResult slept = callOne(callOf(methods, demo(".Sleep"), {Variant(uint32_t(150))}));
    QCOMPARE(slept.statusCode, StatusCode(status::Good));
    QVERIFY(t.elapsed() >= 145);
    QCOMPARE(slept.outputArguments.size(), std::size_t(1));
    QVERIFY(*slept.outputArguments[0].get<uint32_t>() >= 145);
    const CallMethodResult tooLong = callOne(callOf(methods, demo(".Sleep"), {Variant(uint32_t(10001))}));
    QCOMPARE(tooLong.statusCode, StatusCode(status::BadInvalidArgument));
    QCOMPARE(tooLong.inputArgumentResults, (Array<StatusCode>{status::BadOutOfRange}));

    const Array<Variant> event{Variant(String("Pump stopped")), Variant(uint16_t(700))};
    QCOMPARE(callOne(callOf(methods, demo(".GenerateEvent"), event)).statusCode, StatusCode(status::BadNotSupported));
    std::mutex mutex;
    QString message;
    uint16_t severity = 0;
    m_demo->setEventCallback([&](const QString& msg, uint16_t sev) -> StatusCode {
        std::lock_guard lock(mutex);
        message = msg;
        severity = sev;
        return status::Good;
    });
    QCOMPARE(callOne(callOf(methods, demo(".GenerateEvent"), event)).statusCode, StatusCode(status::Good));
    QCOMPARE(message, QStringLiteral("Pump stopped"));
    QCOMPARE(severity, uint16_t(700));
    const CallMethodResult zero = callOne(callOf(methods, demo(".GenerateEvent"), {Variant(String("x")), Variant(uint16_t(0))}));
    QCOMPARE(zero.statusCode, StatusCode(status::BadInvalidArgument));
    QCOMPARE(zero.inputArgumentResults, (Array<StatusCode>{status::Good, status::BadOutOfRange}));
    m_demo->setEventCallback({});
    QCOMPARE(callOne(callOf(methods, demo(".GenerateEvent"), event)).statusCode, StatusCode(status::BadNotSupported));
}

void TestMethodService::demoMethodsDeclareTheirArguments() {
    const auto snapshot = m_space->snapshot();
    const Node* in = snapshot->find(NodeId(m_demoNs, String("Demo.Methods.Scale.InputArguments")));
    QVERIFY(in);
    QCOMPARE(in->browseName, (QualifiedName{0, String("InputArguments")}));
    QCOMPARE(in->attrs->dataType, NodeId(id::Argument));
    QCOMPARE(in->attrs->valueRank, 1);
    const auto* args = in->value->load()->value.get<Array<ExtensionObject>>();
    QVERIFY(args);
    QCOMPARE(args->size(), std::size_t(2));
    const Argument* values = (*args)[0].get<Argument>();
    QVERIFY(values);
    QCOMPARE(values->name, String("Values"));
    QCOMPARE(values->dataType, NodeId(id::Double));
    QCOMPARE(values->valueRank, 1);
    QVERIFY(snapshot->find(NodeId(m_demoNs, String("Demo.Methods.Scale.OutputArguments"))));
    // GenerateEvent returns nothing: no OutputArguments Property.
    QVERIFY(!snapshot->find(NodeId(m_demoNs, String("Demo.Methods.GenerateEvent.OutputArguments"))));
    const Node* method = snapshot->find(NodeId(m_demoNs, String("Demo.Methods.Sleep")));
    QVERIFY(method && method->nodeClass == NodeClass::Method && method->executable && method->userExecutable);
}

UA_TEST_GUILESS_MAIN(TestMethodService)
#include "tst_methodservice.moc"

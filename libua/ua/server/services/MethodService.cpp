#include "ua/server/services/MethodService.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/MethodHandler.h"
#include "ua/server/common/ValueCheck.h"
#include "ua/server/users/NodeVisibility.h"
#include "ua/server/users/Roles.h"

#include <QThread>
#include <QThreadPool>

#include <chrono>

#include <algorithm>
#include <atomic>
#include <memory>

namespace ua {

QThreadPool& methodWorkerPool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;  // never deleted: Worker handlers may outlive every Server
        p->setMaxThreadCount(std::max(4, 2 * QThread::idealThreadCount()));
        p->setObjectName(QStringLiteral("ua-method-workers"));
        return p;
    }();
    return *pool;
}

namespace {

// The node indexes one request needs, looked up once.
struct Refs {
    NodeIndex hasComponent, hasProperty;
    explicit Refs(const AddressSpace& s)
        : hasComponent(s.indexOf(NodeId(id::HasComponent))), hasProperty(s.indexOf(NodeId(id::HasProperty))) {}
};

// True when source has a forward HasComponent (or subtype) reference to method.
bool hasComponent(const AddressSpace& s, const Refs& refs, NodeIndex source, NodeIndex method) {
    for (const Reference& r : s.node(source).references)
        if (r.isForward && r.target == method && s.isSubtypeOf(r.referenceType, refs.hasComponent)) return true;
    return false;
}

// OPC 10000-4 5.11.2.2 objectId: the object, or (an Object's) its type, or a supertype of that.
bool isMethodOf(const AddressSpace& s, const Refs& refs, NodeIndex object, NodeIndex method) {
    if (hasComponent(s, refs, object, method)) return true;
    NodeIndex type = s.node(object).nodeClass == NodeClass::Object ? s.typeDefinition(object) : s.node(object).superType;
    for (int depth = 0; type != kNoNode && depth < 64; ++depth, type = s.node(type).superType)
        if (hasComponent(s, refs, type, method)) return true;
    return false;
}

// The Arguments of the Method's InputArguments or OutputArguments Property; nullptr when it has
// none (the Method then takes or returns no arguments).
const Array<ExtensionObject>* arguments(const AddressSpace& s, const Refs& refs, NodeIndex method,
                                        std::string_view property, ValueCell::Ref& hold) {
    for (const Reference& r : s.node(method).references) {
        if (!r.isForward || r.referenceType != refs.hasProperty) continue;
        const Node& p = s.node(r.target);
        if (p.browseName.namespaceIndex != 0 || p.browseName.name.view() != property || !p.value) continue;
        hold = p.value->load();
        return hold ? hold->value.get<Array<ExtensionObject>>() : nullptr;
    }
    return nullptr;
}

// Bad_TypeMismatch unless value fits the Argument (DataType with subtypes, ValueRank,
// ArrayDimensions); a ByteString given for a Byte array is converted in place.
StatusCode checkArgument(const AddressSpace& s, const Argument& a, Variant& value) {
    const StatusCode st = checkValueType(s, a.dataType, a.valueRank, value);
    if (st.isBad() || !value.isArray() || a.arrayDimensions.empty()) return st;
    const Array<int32_t>& dims = value.arrayDimensions();
    const std::size_t count = dims.empty() ? 1 : dims.size();
    if (count != a.arrayDimensions.size()) return status::BadTypeMismatch;
    for (std::size_t i = 0; i < count; ++i) {
        const uint32_t fixed = a.arrayDimensions[i];
        const std::size_t actual = dims.empty() ? value.arrayLength() : std::size_t(std::max(dims[i], 0));
        if (fixed != 0 && actual != fixed) return status::BadTypeMismatch;
    }
    return status::Good;
}

// Runs a handler and applies the output rules of MethodService.h.
void runHandler(const MethodHandler& h, const MethodCall& call, std::size_t expectedOutputs, CallMethodResult& r) {
    StatusCode st;
    try {
        st = h.run(call, r);
    } catch (...) {
        st = status::BadInternalError;
    }
    if (st.isGood() && r.outputArguments.size() != expectedOutputs) st = status::BadInternalError;
    r.statusCode = st;
    if (st.isBad()) r.outputArguments = Array<Variant>();
    if (r.inputArgumentResults.size() != call.inputs.size())
        r.inputArgumentResults = Array<StatusCode>(std::vector<StatusCode>(call.inputs.size(), status::Good));
}

struct WorkerCall {
    std::size_t index;
    std::shared_ptr<const MethodHandler> handler;
    MethodCall call;
    std::size_t expectedOutputs;
};

struct PendingCall {
    CallResponse response;
    std::atomic<std::size_t> remaining{0};
    CallCompletion complete;
    std::function<bool()> abandoned;  // thread-safe; empty = never
    int64_t deadlineMs = 0;           // steadyMs(); 0 = none
};

int64_t steadyMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

std::size_t serveCall(const ServiceContext& sc, const CallRequest& req, CallResponse& resp, const NodeId& sessionId,
                      CallCompletion complete, std::function<bool()> abandoned, int64_t deadlineMs) {
    const std::size_t n = req.methodsToCall.size();
    if (n == 0) {
        resp.responseHeader.serviceResult = status::BadNothingToDo;
        return 0;
    }
    if (sc.limits.maxNodesPerMethodCall && n > sc.limits.maxNodesPerMethodCall) {
        resp.responseHeader.serviceResult = status::BadTooManyOperations;
        return 0;
    }
    const AddressSpace& s = sc.addressSpace;
    const Refs refs(s);
    resp.results = Array<CallMethodResult>(std::vector<CallMethodResult>(n));
    std::vector<WorkerCall> workers;
    for (std::size_t i = 0; i < n; ++i) {
        const CallMethodRequest& m = req.methodsToCall[i];
        CallMethodResult& r = resp.results[i];
        const NodeIndex object = s.indexOf(m.objectId);
        if (object == kNoNode || !nodeVisible(s.node(object), sc.sessionScope, sc.roles)) {
            r.statusCode = status::BadNodeIdUnknown;
            continue;
        }
        const NodeClass oc = s.node(object).nodeClass;
        if (oc != NodeClass::Object && oc != NodeClass::ObjectType) { r.statusCode = status::BadNodeIdInvalid; continue; }
        const NodeIndex method = s.indexOf(m.methodId);
        if (method == kNoNode || s.node(method).nodeClass != NodeClass::Method || !isMethodOf(s, refs, object, method)) {
            r.statusCode = status::BadMethodInvalid;
            continue;
        }
        const Node& mn = s.node(method);
        if (!mn.executable) { r.statusCode = status::BadNotExecutable; continue; }
        if (!mn.userExecutable || !(userPermissions(mn, sc.roles, sc.permissions) & uint32_t(PermissionType::Call))) {
            r.statusCode = status::BadUserAccessDenied;
            continue;
        }
        ValueCell::Ref inHold, outHold;
        const Array<ExtensionObject>* in = arguments(s, refs, method, "InputArguments", inHold);
        const std::size_t expected = in ? in->size() : 0;
        if (m.inputArguments.size() < expected) { r.statusCode = status::BadArgumentsMissing; continue; }
        if (m.inputArguments.size() > expected) { r.statusCode = status::BadTooManyArguments; continue; }
        MethodCall call{m.objectId, m.methodId, m.inputArguments, sessionId, sc.roles, sc.securityMode};
        r.inputArgumentResults = Array<StatusCode>(std::vector<StatusCode>(expected, status::Good));
        bool valid = true;
        for (std::size_t a = 0; a < expected; ++a) {
            const Argument* arg = (*in)[a].get<Argument>();
            const StatusCode st = arg ? checkArgument(s, *arg, call.inputs[a]) : StatusCode(status::BadTypeMismatch);
            r.inputArgumentResults[a] = st;
            valid = valid && st.isGood();
        }
        if (!valid) { r.statusCode = status::BadInvalidArgument; continue; }
        if (!mn.rare->method || !mn.rare->method->run) { r.statusCode = status::BadNotImplemented; continue; }
        const Array<ExtensionObject>* out = arguments(s, refs, method, "OutputArguments", outHold);
        const std::size_t outputs = out ? out->size() : 0;
        if (mn.rare->method->execution == MethodHandler::Execution::Inline) runHandler(*mn.rare->method, call, outputs, r);
        else workers.push_back(WorkerCall{i, mn.rare->method, std::move(call), outputs});
    }
    if (workers.empty()) return 0;

    auto pending = std::make_shared<PendingCall>();
    pending->response = std::move(resp);
    pending->remaining.store(workers.size(), std::memory_order_relaxed);
    pending->complete = std::move(complete);
    pending->abandoned = std::move(abandoned);
    pending->deadlineMs = deadlineMs;
    const std::size_t started = workers.size();
    QThreadPool& pool = methodWorkerPool();
    for (WorkerCall& w : workers) {
        pool.start([pending, w = std::move(w)] {
            // Each worker writes only its own result; the last one (acq_rel) sees them all.
            CallMethodResult& r = pending->response.results[w.index];
            if (pending->abandoned && pending->abandoned()) {
                r.statusCode = status::BadSessionClosed;  // discarded: nobody receives it
                r.inputArgumentResults = {};
            } else if (pending->deadlineMs && steadyMs() > pending->deadlineMs) {
                r.statusCode = status::BadTimeout;
                r.inputArgumentResults = {};
            } else {
                runHandler(*w.handler, w.call, w.expectedOutputs, r);
            }
            if (pending->remaining.fetch_sub(1, std::memory_order_acq_rel) == 1 && pending->complete)
                pending->complete(std::move(pending->response));
        });
    }
    return started;
}

void handleCall(MethodContext& ctx, const CallRequest& req, CallResponse& resp) {
    Session& session = *ctx.session;
    const ServiceContext& sc = ctx.service;
    const ResponseTarget& target = ctx.target;
    std::weak_ptr<Session> weak = ctx.session;
    const uint32_t hint = req.requestHeader.timeoutHint;  // ms, 0 = none
    const std::size_t started = serveCall(
        sc, req, resp, session.sessionId,
        [target, weak](CallResponse&& done) {
            // OPC 10000-4 5.11.2.1: the results of a Session that has ended are discarded.
            const SessionPtr s = weak.lock();
            if (!s || s->closed.load(std::memory_order_relaxed) || !target.reachable()) return;
            target.send(std::move(done));
        },
        [target, weak] {
            const SessionPtr s = weak.lock();
            return !s || s->closed.load(std::memory_order_relaxed) || !target.reachable();
        },
        hint ? steadyMs() + int64_t(hint) : 0);
    if (started > 0) ctx.deferred = true;
}

} // namespace ua

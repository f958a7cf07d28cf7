// The Method Service Set (OPC 10000-4 5.11): Call (5.11.2). The Methods and their handlers come
// from the address space (addressspace/MethodHandler.h, NodeManager::addMethod).
//
// Request level (5.11.2.3): Bad_NothingToDo for no methodsToCall, Bad_TooManyOperations over
// OperationLimits::maxNodesPerMethodCall.
// Per CallMethodRequest (5.11.2.4), checked in this order:
//   Bad_NodeIdUnknown     objectId is not in the address space
//   Bad_NodeIdInvalid     objectId is not an Object or ObjectType
//   Bad_MethodInvalid     methodId is unknown, not a Method, or not a component of the object: the
//                         object (or, for an Object, its TypeDefinition or a supertype of it; for an
//                         ObjectType, a supertype) must be the source of a HasComponent reference (or
//                         of a subtype, e.g. HasOrderedComponent) to the Method
//   Bad_NotExecutable     the Method's Executable attribute is false
//   Bad_UserAccessDenied  UserExecutable is false, or the caller's Roles lack the Call permission on
//                         the Method (its RolePermissions, else the Roles' defaults: users/Roles.h;
//                         the Anonymous, AuthenticatedUser and Observer Roles may not call)
//   Bad_ArgumentsMissing  fewer inputArguments than the InputArguments Property lists
//   Bad_TooManyArguments  more than it lists (a Method without the Property takes none)
//   Bad_InvalidArgument   an input does not fit its Argument: inputArgumentResults then holds one
//                         code per input, Bad_TypeMismatch for a value whose type is not the
//                         Argument's DataType or a subtype (no conversion; a ByteString is taken for
//                         a Byte array), whose array-ness does not fit the ValueRank, or whose
//                         lengths differ from a fixed ArrayDimensions entry; a handler may reject a
//                         value (e.g. Bad_OutOfRange) the same way (rejectArgument)
//   Bad_NotImplemented    the Method has no handler (e.g. the Methods of namespace 0)
//   the handler's status  otherwise; Bad_InternalError when a handler returns Good with another
//                         number of outputs than the OutputArguments Property lists, or throws.
// When the arguments were checked, inputArgumentResults holds one code per input (all Good unless
// the operation is Bad_InvalidArgument); outputArguments are returned only with a Good status.
// inputArgumentDiagnosticInfos and diagnosticInfos are not returned.
//
// Threads. Everything up to the handler runs on the I/O thread serving the request, against its
// address space snapshot, without locks. Inline handlers run there too. Worker handlers run on
// methodWorkerPool(); the Call response is then sent, on the connection's thread, when the last
// of the request's Methods finished (MethodContext::deferred, common/ResponseTarget.h),
// and dropped when the Session has closed or the connection has gone meanwhile.
#pragma once

#include "ua/server/common/ResponseTarget.h"
#include "ua/server/common/ServiceContext.h"
#include "ua/server/common/Session.h"

#include <functional>

class QThreadPool;

namespace ua {

// The pool Worker handlers run on: up to max(4, 2 x cores) threads, created on first use. A Call
// beyond that waits in the pool's queue (never on the I/O thread).
QThreadPool& methodWorkerPool();

// Receives the complete response of a Call whose Worker handlers finished (on the pool thread of
// the last one).
using CallCompletion = std::function<void(CallResponse&& response)>;

// Serves req against sc (the service core; handleCall adds the Session and the sending). Fills
// resp.results for every operation that failed its checks or ran Inline. Returns the number of
// Worker handlers started: when 0, resp is complete; otherwise resp has been moved into the
// pending call and `complete` gets the complete response once, after all of them finished.
// resp.responseHeader.serviceResult is set (and 0 returned) when the request fails as a whole.
//
// A Worker handler still waiting in the pool's queue is not run when, as it would start,
// `abandoned` returns true (its Session closed or its connection went: the result is discarded,
// 5.11.2.1) or the deadline (steady-clock ms, QDeadlineTimer-style; 0 = none) from the request's
// timeoutHint has passed (OPC 10000-4 7.32): its result is then Bad_Timeout. So calls of a Session
// that has gone, or that nobody waits for, do not hold the pool's threads from other Sessions.
std::size_t serveCall(const ServiceContext& sc, const CallRequest& req, CallResponse& resp, const NodeId& sessionId,
                      CallCompletion complete, std::function<bool()> abandoned = {}, int64_t deadlineMs = 0);

// What handleCall uses, built by the dispatcher for one request: the service core's context (the
// Session's view of the address space), the activated Session, where a later response goes.
struct MethodContext {
    const ServiceContext& service;
    const SessionPtr& session;
    ResponseTarget target;  // the request's connection, requestId and requestHandle
    bool deferred = false;  // set when Worker handlers answer later: the dispatcher sends nothing
};

// The dispatcher's entry (needs an activated Session).
void handleCall(MethodContext& ctx, const CallRequest& req, CallResponse& resp);

} // namespace ua

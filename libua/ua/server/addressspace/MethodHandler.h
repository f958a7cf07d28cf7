// What a Method node (OPC 10000-3 5.7) runs when the Call service (OPC 10000-4 5.11.2,
// services/MethodService.h) invokes it, and the declaration NodeManager::addMethod builds a Method
// from (the Method node, its InputArguments and OutputArguments Properties, the handler).
//
// A handler is attached to a Method node (Node::method) and shared by every snapshot of the
// address space. Before it runs, the Call service has checked the object, the Method, the
// Executable/UserExecutable rules and the count, DataType, ValueRank and ArrayDimensions of every
// input argument against the InputArguments Property: the handler sees valid inputs only and
// checks their values (e.g. a range, with rejectArgument below).
//
// Threads. Execution::Inline runs the handler on the I/O thread serving the request: it must be
// quick (well under a millisecond), must not block, must not run an event loop of its own
// (QEventLoop, processEvents(), a wait on a QFuture: the thread's other connections would be served
// from inside the handler, in the middle of this connection's request) and must be thread-safe
// (several I/O threads may run it at once). Execution::Worker runs it on the Method worker pool
// (MethodService.h): it may block or take long; the response is sent on the connection's thread
// once every Method of the Call request has finished. A handler may run after the Session that
// called it has closed; its results are then discarded (OPC 10000-4 5.11.2.1).
#pragma once

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/encoding/generated/Types.h"
#include "ua/types/Variant.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ua {

// One invocation of a Method (a CallMethodRequest that passed the service's checks).
struct MethodCall {
    NodeId objectId;             // the Object or ObjectType it is called on
    NodeId methodId;
    Array<Variant> inputs;       // one per InputArguments entry, of the declared types
    NodeId sessionId;            // of the calling Session (null when called without one)
    uint32_t roles = 0;          // the caller's RoleSet (users/Roles.h)
    // The caller's SecureChannel (SignAndEncrypt for an in-process caller without a Session).
    MessageSecurityMode securityMode = MessageSecurityMode::SignAndEncrypt;
};

// Fills result.outputArguments (one per OutputArguments entry, in order) and returns the
// operation's statusCode. On a Bad status the outputs are dropped. To reject an input value
// (Bad_OutOfRange, ...) use rejectArgument.
using MethodFunction = std::function<StatusCode(const MethodCall& call, CallMethodResult& result)>;

struct MethodHandler {
    enum class Execution : uint8_t {
        Inline,  // on the I/O thread (quick, non-blocking handlers)
        Worker,  // on the Method worker pool (handlers that block or take long)
    };
    MethodFunction run;
    Execution execution = Execution::Inline;
};

// Marks input `index` of call with `bad` in result.inputArgumentResults (the others Good) and
// returns Bad_InvalidArgument, the operation status OPC 10000-4 5.11.2.4 names for it:
//     if (*ms > 10000) return rejectArgument(call, result, 0, status::BadOutOfRange);
inline StatusCode rejectArgument(const MethodCall& call, CallMethodResult& result, std::size_t index, StatusCode bad) {
    if (result.inputArgumentResults.size() != call.inputs.size())
        result.inputArgumentResults = Array<StatusCode>(std::vector<StatusCode>(call.inputs.size(), status::Good));
    if (index < result.inputArgumentResults.size()) result.inputArgumentResults[index] = bad;
    return status::BadInvalidArgument;
}

// One entry of an InputArguments / OutputArguments Property (the Argument DataType, OPC 10000-3
// 8.6): name, DataType (a value may be of a subtype), ValueRank (-1 scalar, 1 array, ...) and
// ArrayDimensions (0 in a dimension: any length; null: not fixed).
struct ArgumentDeclaration {
    std::string name;
    NodeId dataType;
    int32_t valueRank = -1;
    Array<uint32_t> arrayDimensions;
    LocalizedText description;
};

// What NodeManager::addMethod builds: the Method node (Executable and UserExecutable true), its
// InputArguments and OutputArguments Properties (left out when the list is empty, as OPC 10000-3
// 5.7 allows) and the handler.
struct MethodDeclaration {
    std::vector<ArgumentDeclaration> inputs;
    std::vector<ArgumentDeclaration> outputs;
    MethodHandler handler;
    LocalizedText description;
    // The reference from the parent Object (HasComponent or a subtype).
    NodeId referenceType;  // null: HasComponent
};

} // namespace ua

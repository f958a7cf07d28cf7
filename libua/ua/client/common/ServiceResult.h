// What a Client service call completes with (OPC 10000-4 5.3, 7.33, 7.34).
#pragma once

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/types/StatusCode.h"

#include <cstdint>
#include <functional>

namespace ua {

// status is Good when the response arrived with a Good serviceResult. Otherwise it is
//  - the serviceResult of the response or of a ServiceFault (e.g. Bad_ServiceUnsupported,
//    Bad_SessionIdInvalid, Bad_TooManyOperations); response.responseHeader is then filled in,
//  - or a local error, with a default response:
//    Bad_Timeout            no response within the call's timeout (the RequestHeader's timeoutHint)
//    Bad_RequestTooLarge    over the server's MaxMessageSize / MaxChunkCount: nothing was sent
//    Bad_ResponseTooLarge   the response exceeded our limits (or the server aborted it so)
//    <an abort's code>      the server aborted the response with an abort chunk (OPC 10000-6 6.7.3)
//    <an ERR's code>        the server sent ERR (OPC 10000-6 7.1.2.5): every pending call gets it
//    Bad_ConnectionClosed   the connection was lost while the call was outstanding
//    Bad_ServerNotConnected the client is not connected (and not reconnecting)
//    Bad_Shutdown           the Client was destroyed
//    Bad_DecodingError / Bad_UnknownResponse  a response that does not decode as expected.
// Operation-level results (one StatusCode per node) stay inside the response.
template <class Resp>
struct ServiceResult {
    StatusCode status;
    Resp response;
    // When the response arrived: std::chrono::steady_clock, in ns since that clock's epoch, read
    // once per read from the socket (the read that completed the response's last chunk; every
    // response of that read has the same time). 0 when the call ended without a response (a
    // local error: Bad_Timeout, Bad_ConnectionClosed, ...). A round trip is this minus the
    // steady_clock time before the call; it includes no time the client spent on the responses
    // decoded before this one from the same read.
    int64_t receivedAtNs = 0;

    bool isGood() const { return status.isGood(); }
};

template <class Resp>
using ServiceCallback = std::function<void(const ServiceResult<Resp>&)>;
using StatusCallback = std::function<void(StatusCode)>;

} // namespace ua

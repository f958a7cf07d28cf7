// The service table (OPC 10000-4 5): request DefaultBinary encoding id -> handler. A request whose
// type is not in the table gets a ServiceFault Bad_ServiceUnsupported; one that needs a Session
// without a valid, activated one gets Bad_SessionIdInvalid / Bad_SessionNotActivated.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ua {

struct RequestContext;

// Decodes, serves and answers one request on the connection's thread; ctx is the connection's
// (RequestContext.h), typeId the request's DefaultBinary encoding id.
void dispatchRequest(RequestContext& ctx, uint32_t typeId, const uint8_t* body, std::size_t size);

} // namespace ua

// The service table (OPC 10000-4 5): request DefaultBinary encoding id -> handler. A request whose
// type is not in the table gets a ServiceFault Bad_ServiceUnsupported; one that needs a Session
// without a valid, activated one gets Bad_SessionIdInvalid / Bad_SessionNotActivated.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ua {

class ServerConnection;
class Server;

// Decodes, serves and answers one request on the connection's thread.
void dispatchRequest(Server& server, ServerConnection& connection, uint32_t requestId, uint32_t typeId,
                     const uint8_t* body, std::size_t size, int64_t nowMs);

} // namespace ua

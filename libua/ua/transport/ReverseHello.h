// The ReverseHello message of OPC 10000-6 7.1.2.6 (1.05.04, Table 77): the first message a Server
// sends on a connection it opened to a Client's reverse-connect listener (Reverse Connect, 7.1.3).
// The Client answers with a Hello carrying EndpointUrl, and the connection continues as one the
// Client opened.
#pragma once

#include "ua/encoding/Buffer.h"
#include "ua/types/Strings.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace ua {

struct ReverseHelloMessage {
    String serverUri;    // the ApplicationUri of the Server
    String endpointUrl;  // the Endpoint the Client opens the SecureChannel to; returned in its Hello
};

// The complete message, header included, appended to out. Each field is cut to 4096 bytes
// (7.1.2.6: "shall be less than 4096 bytes" encoded; a longer one would be refused by the Client).
void encodeReverseHello(Buffer& out, const ReverseHelloMessage& m);
// Decodes the body (after the 8-byte header). nullopt when malformed, when bytes remain, or when a
// field is longer than 4096 bytes: the Client then answers ERR Bad_TcpEndpointUrlInvalid and closes
// (7.1.2.6).
std::optional<ReverseHelloMessage> decodeReverseHello(const uint8_t* body, std::size_t n);

} // namespace ua

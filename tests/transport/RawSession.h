// Sessions over a RawClient (RawClient.h) for protocol tests: a request and its decoded response
// (or the ServiceFault's code), CreateSession, an anonymous ActivateSession, and both at once.
#pragma once

#include "RawClient.h"
#include "ua/encoding/generated/StatusCodes.h"

namespace ua::test {

// The response in m if it is a single-chunk Resp; false for anything else (a ServiceFault too).
template <class Resp>
bool decodeResponse(const RawMessage& m, Resp& out) {
    NodeId type;
    BinaryDecoder* d = nullptr;
    std::vector<uint8_t> storage;
    bool ok = RawClient::response(m, type, d, storage) && type == NodeId(Resp::kBinaryEncodingId);
    if (ok) {
        decode(*d, out);
        ok = d->ok();
    }
    delete d;
    return ok;
}

// Sends req (its requestHandle set to handle) and reads the answer: the ServiceFault's code, or
// the response's serviceResult (out filled); Bad_UnexpectedError when no MSG came (an ERR, a
// close), Bad_DecodingError when it is not a Resp or answers another requestHandle.
template <class Resp, class Req>
StatusCode rawCall(RawClient& c, Req req, Resp* out = nullptr, uint32_t handle = 4242) {
    req.requestHeader.requestHandle = handle;
    c.sendRaw(c.request(req));
    const RawMessage m = c.read();
    if (const uint32_t fault = RawClient::serviceFault(m)) return StatusCode(fault);
    if (!m.valid || m.type != TcpMessageType::Message) return status::BadUnexpectedError;
    Resp r;
    if (!decodeResponse(m, r) || r.responseHeader.requestHandle != handle) return status::BadDecodingError;
    const StatusCode result = r.responseHeader.serviceResult;
    if (out) *out = std::move(r);
    return result;
}

// CreateSession (timeout in ms); its status, and the authenticationToken in *token.
inline StatusCode rawCreateSession(RawClient& c, NodeId* token = nullptr, double timeoutMs = 60000) {
    CreateSessionRequest req;
    req.sessionName = String("raw");
    req.requestedSessionTimeout = timeoutMs;
    CreateSessionResponse r;
    const StatusCode s = rawCall(c, req, &r);
    if (token) *token = r.authenticationToken;
    return s;
}

// ActivateSession with an anonymous identity.
inline StatusCode rawActivate(RawClient& c, const NodeId& token) {
    ActivateSessionRequest req;
    req.requestHeader.authenticationToken = token;
    AnonymousIdentityToken anon;
    anon.policyId = String("anonymous");
    req.userIdentityToken = ExtensionObject::make(anon);
    ActivateSessionResponse r;
    return rawCall(c, req, &r);
}

// CreateSession + ActivateSession on an open channel: the authenticationToken, null on failure.
inline NodeId rawOpenSession(RawClient& c, double timeoutMs = 120000) {
    NodeId token;
    if (rawCreateSession(c, &token, timeoutMs).isBad() || rawActivate(c, token).isBad()) return {};
    return token;
}

} // namespace ua::test

#include "ua/transport/ReverseHello.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/transport/TcpMessages.h"

namespace ua {

void encodeReverseHello(Buffer& out, const ReverseHelloMessage& m) {
    const auto cut = [](const String& s) {
        return s.size() > kMaxEndpointUrlLength ? String(s.view().substr(0, kMaxEndpointUrlLength)) : s;
    };
    const std::size_t start = out.size();
    out.grow(kTcpHeaderSize);
    BinaryEncoder e(out);
    encode(e, cut(m.serverUri));
    encode(e, cut(m.endpointUrl));
    writeTcpHeader(out.data() + start, TcpMessageType::ReverseHello, ChunkType::Final, uint32_t(out.size() - start));
}

std::optional<ReverseHelloMessage> decodeReverseHello(const uint8_t* body, std::size_t n) {
    EncodingLimits l;
    l.maxStringLength = int32_t(kMaxEndpointUrlLength);
    BinaryDecoder d(body, n, l);
    ReverseHelloMessage m;
    decode(d, m.serverUri);
    decode(d, m.endpointUrl);
    if (!d.ok() || !d.atEnd()) return std::nullopt;
    return m;
}

} // namespace ua

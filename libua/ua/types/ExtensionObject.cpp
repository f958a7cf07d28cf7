#include "ua/types/ExtensionObject.h"

namespace ua {

ExtensionObject ExtensionObject::opaque(NodeId encodingId, ByteString body) {
    ExtensionObject x;
    x.m_typeId = std::move(encodingId);
    x.m_encoding = Encoding::Binary;
    x.m_body = std::move(body);
    return x;
}

ExtensionObject ExtensionObject::xml(NodeId encodingId, XmlElement body) {
    ExtensionObject x;
    x.m_typeId = std::move(encodingId);
    x.m_encoding = Encoding::Xml;
    x.m_body = ByteString::fromQByteArray(body.toQByteArray());
    return x;
}

ExtensionObject ExtensionObject::fromDecoded(std::shared_ptr<const ExtensionObjectBody> body) {
    ExtensionObject x;
    if (!body) return x;
    x.m_typeId = NodeId(body->binaryEncodingId());
    x.m_encoding = Encoding::Binary;
    x.m_decoded = std::move(body);
    return x;
}

bool operator==(const ExtensionObject& a, const ExtensionObject& b) {
    if (!(a.m_typeId == b.m_typeId) || a.m_encoding != b.m_encoding) return false;
    if (a.m_decoded || b.m_decoded) {
        if (!a.m_decoded || !b.m_decoded) return false;
        return a.m_decoded == b.m_decoded || a.m_decoded->equals(*b.m_decoded);
    }
    return a.m_body == b.m_body;
}

} // namespace ua

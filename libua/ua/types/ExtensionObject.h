// ExtensionObject (OPC 10000-6 5.2.2.15): a structure carried with the NodeId of its encoding.
// A body whose encoding id is a known DefaultBinary encoding is decoded into the generated C++
// type (get<T>()); any other body is kept as opaque bytes and re-encoded unchanged.
// Decoded bodies are immutable and shared, so copying an ExtensionObject is cheap.
#pragma once

#include "ua/types/NodeId.h"
#include "ua/types/Strings.h"

#include <memory>

namespace ua {

class BinaryEncoder;
class BinaryDecoder;

// The decoded body of an ExtensionObject: one generated structure behind a small interface.
class ExtensionObjectBody {
public:
    virtual ~ExtensionObjectBody() = default;
    virtual uint32_t typeId() const = 0;            // DataType NodeId (ns 0, numeric)
    virtual uint32_t binaryEncodingId() const = 0;  // its DefaultBinary encoding NodeId
    virtual const char* typeName() const = 0;
    virtual void encodeBody(BinaryEncoder& e) const = 0;
    virtual bool equals(const ExtensionObjectBody& other) const = 0;
};

template <class T>
class ExtensionObjectHolder final : public ExtensionObjectBody {
public:
    ExtensionObjectHolder() = default;
    explicit ExtensionObjectHolder(T v) : value(std::move(v)) {}
    uint32_t typeId() const override { return T::kTypeId; }
    uint32_t binaryEncodingId() const override { return T::kBinaryEncodingId; }
    const char* typeName() const override { return T::kName; }
    void encodeBody(BinaryEncoder& e) const override { encode(e, value); }  // ADL: generated encode()
    bool equals(const ExtensionObjectBody& o) const override {
        return o.typeId() == T::kTypeId && static_cast<const ExtensionObjectHolder&>(o).value == value;
    }
    T value;
};

class ExtensionObject {
public:
    // The encoding byte of 5.2.2.15.
    enum class Encoding : uint8_t { None = 0, Binary = 1, Xml = 2 };

    ExtensionObject() = default;  // null: null TypeId, no body

    template <class T>
    static ExtensionObject make(T value) {
        ExtensionObject x;
        x.m_typeId = NodeId(T::kBinaryEncodingId);
        x.m_encoding = Encoding::Binary;
        x.m_decoded = std::make_shared<const ExtensionObjectHolder<T>>(std::move(value));
        return x;
    }
    // A body kept as bytes (unknown type, or not to be decoded).
    static ExtensionObject opaque(NodeId encodingId, ByteString body);
    static ExtensionObject xml(NodeId encodingId, XmlElement body);
    static ExtensionObject fromDecoded(std::shared_ptr<const ExtensionObjectBody> body);

    // The decoded structure if it is a T, else nullptr.
    template <class T>
    const T* get() const {
        if (!m_decoded || m_decoded->typeId() != T::kTypeId) return nullptr;
        return &static_cast<const ExtensionObjectHolder<T>&>(*m_decoded).value;
    }

    const NodeId& encodingId() const { return m_typeId; }
    Encoding encoding() const { return m_encoding; }
    bool isNull() const { return m_encoding == Encoding::None && m_typeId.isNull(); }
    bool isDecoded() const { return bool(m_decoded); }
    const ExtensionObjectBody* decoded() const { return m_decoded.get(); }
    // The raw body of an opaque (Binary) or Xml ExtensionObject.
    const ByteString& body() const { return m_body; }

    friend bool operator==(const ExtensionObject& a, const ExtensionObject& b);

private:
    friend void decode(BinaryDecoder&, ExtensionObject&);
    NodeId m_typeId;
    Encoding m_encoding = Encoding::None;
    ByteString m_body;
    std::shared_ptr<const ExtensionObjectBody> m_decoded;
};

} // namespace ua

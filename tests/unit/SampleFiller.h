// Fills any built-in or generated value with non-default content, deterministically from a seed,
// so that round trips of every type exercise every field.
#pragma once

#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/Types.h"

#include <string>

namespace ua::test {

class SampleFiller {
public:
    explicit SampleFiller(int seed = 1, int maxDepth = 4) : m_seed(seed), m_maxDepth(maxDepth) {}

    template <class T>
    void operator()(const char*, T& v) { fill(v); }

    void fill(bool& v) { v = true; }
    template <class T>
        requires std::is_integral_v<T>
    void fill(T& v) { v = T(next() % 100 + 1); }
    void fill(float& v) { v = float(next()) + 0.5f; }
    void fill(double& v) { v = double(next()) + 0.25; }
    template <class E>
        requires std::is_enum_v<E>
    void fill(E& v) { v = E(1); }
    void fill(String& v) { v = String("s" + std::to_string(next())); }
    void fill(ByteString& v) { v = ByteString(std::string("\x01\x00\xfe", 3) + char(next())); }
    void fill(XmlElement& v) { v = XmlElement("<v>" + std::to_string(next()) + "</v>"); }
    void fill(DateTime& v) { v = DateTime{133486382456780000LL + next()}; }
    void fill(Guid& v) { v = Guid{uint32_t(next()), 2, 3, {4, 5, 6, 7, 8, 9, 10, 11}}; }
    void fill(StatusCode& v) { v = StatusCode(0x80340000u); }
    void fill(NodeId& v) {
        switch (next() % 4) {
        case 0: v = NodeId(1, uint32_t(1000 + m_seed)); break;
        case 1: v = NodeId(2, String("Demo.Node")); break;
        case 2: v = NodeId(3, Guid{1, 2, 3, {4, 5, 6, 7, 8, 9, 10, 11}}); break;
        default: v = NodeId(4, ByteString("op")); break;
        }
    }
    void fill(ExpandedNodeId& v) { fill(v.nodeId); v.namespaceUri = String("urn:sample"); v.serverIndex = 2; }
    void fill(QualifiedName& v) { v = QualifiedName{2, String("qn" + std::to_string(next()))}; }
    void fill(LocalizedText& v) { v = LocalizedText{String("en-US"), String("text" + std::to_string(next()))}; }
    void fill(DiagnosticInfo& v) {
        v.symbolicId = next();
        v.locale = 1;
        v.additionalInfo = String("info");
        v.innerStatusCode = StatusCode(0x80010000u);
        v.innerDiagnosticInfo = DiagnosticInfo{};
        v.innerDiagnosticInfo->localizedText = 2;
    }
    void fill(Variant& v) {
        if (next() % 2) v = Variant(Array<int32_t>{1, 2, 3});
        else v = Variant(String("variant"));
    }
    void fill(DataValue& v) {
        v.setValue(Variant(double(next())));
        v.setStatus(StatusCode(0x40000000u));
        v.setSourceTimestamp(DateTime{133486382456780000LL});
        v.setServerPicoseconds(7);
    }
    void fill(ExtensionObject& v) {
        if (next() % 2) {
            Range r;
            r.low = -1.0;
            r.high = 100.0;
            v = ExtensionObject::make(r);
        } else {
            v = ExtensionObject::opaque(NodeId(5, 77u), ByteString("opaque-body"));
        }
    }
    template <class T>
    void fill(Array<T>& a) {
        a.setEmpty();
        if (m_depth >= m_maxDepth) return;  // keeps nested arrays of structures small
        a.resize(2);
        for (std::size_t i = 0; i < a.size(); ++i) {
            T x{};
            fill(x);
            a[i] = std::move(x);
        }
    }
    template <class S>
        requires requires { S::kTypeId; }
    void fill(S& s) {
        ++m_depth;
        forEachField(s, *this);
        --m_depth;
    }

private:
    int next() { return m_seed++; }
    int m_seed;
    int m_maxDepth;
    int m_depth = 0;
};

} // namespace ua::test

// libFuzzer harness for the UA Binary decoder (OPC 10000-6 5.2).
//
// Input: a little-endian UInt16 type selector (see FuzzTypes.h), then the bytes to decode with a
// ua::BinaryDecoder using the default limits. When the decoder accepts the bytes, the value must
// survive a round trip:
//   value1 = decode(input)            may fail: malformed input is fine, crashing or hanging is not
//   bytes1 = encode(value1)           must succeed (the encoder refuses nothing the decoder accepts)
//   value2 = decode(bytes1)           must succeed and consume every byte
//   bytes2 = encode(value2)           must equal bytes1 byte for byte
// bytes1 may differ from the input: the first encoding normalises (a Boolean 7 becomes 1, a
// DateTime before 1601 becomes 0, a Numeric NodeId that fits becomes TwoByte, ...), so the check is
// that encoding is a fixpoint after one round. Any violation prints what happened and abort()s so
// that libFuzzer (and fuzz_replay) report it.
//
// The ExtensionObject selector also feeds the same bytes to the structure codec (ua/encoding/
// StructureCodec.h, the client's decoder of custom structures) as the body of one of the sample
// types of tests/common/SampleStructureTypes.h (the first byte picks which): an accepted body must
// encode, and decode again to the same encoding.
//
// Built twice by tests/fuzz/CMakeLists.txt: as the libFuzzer target fuzz_decode (the ASan build)
// and, with replay_main.cpp, as fuzz_replay, which runs the committed corpus under ctest.
#include "FuzzTypes.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/Buffer.h"
#include "ua/encoding/DataTypeInfo.h"
#include "ua/encoding/StructureCodec.h"
#include "ua/encoding/generated/Types.h"

#include "../common/SampleStructureTypes.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace {

void dumpHex(const char* label, const uint8_t* p, std::size_t n) {
    std::fprintf(stderr, "%s (%zu bytes):", label, n);
    const std::size_t shown = n < 512 ? n : 512;
    for (std::size_t i = 0; i < shown; ++i) std::fprintf(stderr, "%s%02x", i % 32 ? " " : "\n  ", p[i]);
    std::fprintf(stderr, "%s\n", shown < n ? "\n  ..." : "");
}

[[noreturn]] void failRoundTrip(const char* typeName, const char* what, ua::StatusCode status = {}) {
    std::fprintf(stderr, "fuzz_decode: %s: %s (status %s)\n", typeName, what, status.name().c_str());
    std::abort();
}

// Decode -> encode -> decode -> encode; Decode(BinaryDecoder&) returns the value (or a handle to
// it), Encode(BinaryEncoder&, const value&) writes it.
template <class Decode, class Encode>
void roundTrip(const char* typeName, const uint8_t* data, std::size_t size, Decode decodeOne, Encode encodeOne) {
    ua::BinaryDecoder d1(data, size);
    auto v1 = decodeOne(d1);
    if (!d1.ok()) return;  // rejected: fine

    ua::Buffer b1;
    {
        ua::BinaryEncoder e(b1);
        encodeOne(e, v1);
        if (!e.ok()) failRoundTrip(typeName, "encoding a value the decoder accepted failed", e.status());
    }

    ua::BinaryDecoder d2(b1.data(), b1.size());
    auto v2 = decodeOne(d2);
    if (!d2.ok()) {
        dumpHex("first encoding", b1.data(), b1.size());
        failRoundTrip(typeName, "decoding the re-encoded value failed", d2.status());
    }
    if (!d2.atEnd()) {
        dumpHex("first encoding", b1.data(), b1.size());
        std::fprintf(stderr, "%zu bytes left over\n", d2.remaining());
        failRoundTrip(typeName, "decoding the re-encoded value did not consume all of it");
    }

    ua::Buffer b2;
    {
        ua::BinaryEncoder e(b2);
        encodeOne(e, v2);
        if (!e.ok()) failRoundTrip(typeName, "encoding the value decoded from the first encoding failed", e.status());
    }
    if (b1.size() != b2.size() || (b1.size() != 0 && std::memcmp(b1.data(), b2.data(), b1.size()) != 0)) {
        dumpHex("first encoding", b1.data(), b1.size());
        dumpHex("second encoding", b2.data(), b2.size());
        failRoundTrip(typeName, "encoding is not a fixpoint: the second encoding differs from the first");
    }
}

template <class T>
void roundTripBuiltin(const char* typeName, const uint8_t* data, std::size_t size) {
    roundTrip(
        typeName, data, size,
        [](ua::BinaryDecoder& d) {
            auto v = std::make_unique<T>();  // on the heap: ASan sees overruns of it
            decode(d, *v);
            return v;
        },
        [](ua::BinaryEncoder& e, const std::unique_ptr<T>& v) { encode(e, *v); });
}

void roundTripGenerated(const ua::DataTypeInfo& info, const uint8_t* data, std::size_t size) {
    roundTrip(
        info.name, data, size, [&info](ua::BinaryDecoder& d) { return info.decodeBody(d); },
        [&info](ua::BinaryEncoder& e, const std::shared_ptr<const ua::ExtensionObjectBody>& body) {
            if (!body) failRoundTrip(info.name, "decodeBody returned no body");
            body->encodeBody(e);
        });
}

void roundTripCustomStructure(const uint8_t* data, std::size_t size) {
    if (size < 1) return;
    static const ua::test::SampleStructureTypes types;
    const ua::NodeId type = ua::test::SampleStructureTypes::id(ua::test::SampleStructureTypes::all()[data[0] % ua::test::SampleStructureTypes::kCount]);
    roundTrip(
        "custom structure", data + 1, size - 1,
        [&type](ua::BinaryDecoder& d) {
            ua::StructureCodec codec(types);
            auto v = codec.decode(d, type);
            return v ? *v : ua::DynamicValue{};
        },
        [](ua::BinaryEncoder& e, const ua::DynamicValue& v) {
            ua::StructureCodec codec(types);
            if (!codec.encode(e, v) && e.ok()) e.fail(codec.status());
        });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::size_t selector = (std::size_t(data[0]) | std::size_t(data[1]) << 8) % fuzz::typeCount();
    data += 2;
    size -= 2;

    if (selector >= fuzz::kBuiltinCount) {
        roundTripGenerated(ua::generatedDataTypes()[selector - fuzz::kBuiltinCount], data, size);
        return 0;
    }
    const auto b = fuzz::Builtin(selector);
    const char* name = fuzz::builtinName(b);
    switch (b) {
    case fuzz::Builtin::Variant: roundTripBuiltin<ua::Variant>(name, data, size); break;
    case fuzz::Builtin::DataValue: roundTripBuiltin<ua::DataValue>(name, data, size); break;
    case fuzz::Builtin::ExtensionObject:
        roundTripBuiltin<ua::ExtensionObject>(name, data, size);
        roundTripCustomStructure(data, size);
        break;
    case fuzz::Builtin::DiagnosticInfo: roundTripBuiltin<ua::DiagnosticInfo>(name, data, size); break;
    case fuzz::Builtin::NodeId: roundTripBuiltin<ua::NodeId>(name, data, size); break;
    case fuzz::Builtin::ExpandedNodeId: roundTripBuiltin<ua::ExpandedNodeId>(name, data, size); break;
    case fuzz::Builtin::LocalizedText: roundTripBuiltin<ua::LocalizedText>(name, data, size); break;
    case fuzz::Builtin::QualifiedName: roundTripBuiltin<ua::QualifiedName>(name, data, size); break;
    }
    return 0;
}

// Micro-benchmarks of the UA Binary codec (Google Benchmark). Results and how to run them:
// docs/Benchmarks.md.
//
// Every benchmark reports "allocs/op": the calls of operator new (all forms) per iteration, counted
// by the replacements of the global operator new/delete at the end of this file. ua::Buffer grows
// with realloc(), which is not counted; the encode benchmarks check instead that the reused buffer
// keeps its capacity (it is sized by a warm-up encoding before the timed loop).
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/Buffer.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/Types.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>

namespace {

std::atomic<uint64_t> g_allocs{0};

uint64_t allocCount() { return g_allocs.load(std::memory_order_relaxed); }

// Counts operator new calls between the start of the first iteration and the end of the last one
// (the benchmark loop's own start and stop are left out) and reports them per iteration.
class AllocCounter {
public:
    void iterationStart() {
        if (!m_started) {
            m_started = true;
            m_first = allocCount();
        }
    }
    void iterationEnd() { m_last = allocCount(); }
    void finish(benchmark::State& state) const {
        state.counters["allocs/op"] =
            benchmark::Counter(double(m_last - m_first), benchmark::Counter::kAvgIterations);
    }

private:
    bool m_started = false;
    uint64_t m_first = 0;
    uint64_t m_last = 0;
};

// --- messages ---

constexpr int64_t kTicks = ua::DateTime::kUnixEpochTicks + 1'700'000'000'123LL * ua::DateTime::kTicksPerMs;

ua::ByteString sessionToken() {
    // Like most stacks, a 32-byte random opaque authenticationToken.
    std::string s(32, '\0');
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = char(uint8_t(0x5A + i * 37));
    return ua::ByteString(std::move(s));
}

// A Read of n nodes as clients send it: ns=1;i=1000.., Value attribute, Both timestamps.
ua::ReadRequest readRequest(int n = 1) {
    ua::ReadRequest r;
    r.requestHeader.authenticationToken = ua::NodeId(0, sessionToken());
    r.requestHeader.timestamp = ua::DateTime{kTicks};
    r.requestHeader.requestHandle = 1234;
    r.requestHeader.returnDiagnostics = 0;
    r.requestHeader.timeoutHint = 10000;
    r.maxAge = 0;
    r.timestampsToReturn = ua::TimestampsToReturn::Both;
    for (int i = 0; i < n; ++i) {
        ua::ReadValueId& node = r.nodesToRead.emplace_back();
        const ua::NodeId id(1, uint32_t(1000 + i));  // not a temporary moved in: GCC 12's -Wmaybe-uninitialized
        node.nodeId = id;
        node.attributeId = uint32_t(ua::AttributeId::Value);
    }
    return r;
}

ua::DataValue int32Value(int32_t v) {
    ua::DataValue dv{ua::Variant(v)};
    dv.setServerTimestamp(ua::DateTime{kTicks});
    return dv;
}

// A ReadResponse with n DataValues, each an Int32 with a server timestamp.
ua::ReadResponse readResponse(int n) {
    ua::ReadResponse r;
    r.responseHeader.timestamp = ua::DateTime{kTicks};
    r.responseHeader.requestHandle = 1234;
    for (int i = 0; i < n; ++i) r.results.push_back(int32Value(i));
    return r;
}

// A PublishResponse with one DataChangeNotification of n MonitoredItemNotifications (Int32 with
// source and server timestamps).
ua::PublishResponse publishResponse(int n) {
    ua::DataChangeNotification dcn;
    for (int i = 0; i < n; ++i) {
        ua::DataValue dv(ua::Variant(int32_t(i * 7)));
        dv.setSourceTimestamp(ua::DateTime{kTicks + i});
        dv.setServerTimestamp(ua::DateTime{kTicks + i + 1});
        dcn.monitoredItems.push_back({uint32_t(i + 1), std::move(dv)});
    }
    ua::PublishResponse p;
    p.responseHeader.timestamp = ua::DateTime{kTicks};
    p.responseHeader.requestHandle = 77;
    p.subscriptionId = 3;
    p.availableSequenceNumbers = ua::Array<uint32_t>{41};
    p.moreNotifications = false;
    p.notificationMessage.sequenceNumber = 41;
    p.notificationMessage.publishTime = ua::DateTime{kTicks};
    p.notificationMessage.notificationData = ua::Array<ua::ExtensionObject>{ua::ExtensionObject::make(std::move(dcn))};
    p.results = ua::Array<ua::StatusCode>::emptyArray();
    return p;
}

template <class T>
ua::Buffer encoded(const T& v) {
    ua::Buffer b;
    ua::BinaryEncoder e(b);
    encode(e, v);
    if (!e.ok()) std::abort();
    return b;
}

// --- benchmark bodies ---

template <class T>
void decodeReused(benchmark::State& state, const ua::Buffer& bytes) {
    T value;
    {
        // Warm-up: the reused object's arrays grow to the message's sizes (steady state).
        ua::BinaryDecoder d(bytes.data(), bytes.size());
        decode(d, value);
    }
    AllocCounter allocs;
    for (auto _ : state) {
        allocs.iterationStart();
        ua::BinaryDecoder d(bytes.data(), bytes.size());
        decode(d, value);
        if (!d.ok()) { state.SkipWithError("decoding failed"); break; }
        benchmark::DoNotOptimize(value);
        allocs.iterationEnd();
    }
    allocs.finish(state);
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes.size()));
    state.counters["msg_bytes"] = double(bytes.size());
}

template <class T>
void encodeReused(benchmark::State& state, const T& value) {
    ua::Buffer out = encoded(value);  // warm-up: the buffer has grown to the message size
    const std::size_t capacity = out.capacity();
    AllocCounter allocs;
    for (auto _ : state) {
        allocs.iterationStart();
        out.clear();
        ua::BinaryEncoder e(out);
        encode(e, value);
        if (!e.ok()) { state.SkipWithError("encoding failed"); break; }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
        allocs.iterationEnd();
    }
    allocs.finish(state);
    if (out.capacity() != capacity) state.SkipWithError("the reused buffer grew (realloc) in the timed loop");
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(out.size()));
    state.counters["msg_bytes"] = double(out.size());
}

void BM_DecodeReadRequest_1Node(benchmark::State& state) {
    const ua::Buffer bytes = encoded(readRequest());
    decodeReused<ua::ReadRequest>(state, bytes);
}

// The same into a new ReadRequest each time (what a server that keeps no request object does).
void BM_DecodeReadRequest_1Node_Fresh(benchmark::State& state) {
    const ua::Buffer bytes = encoded(readRequest());
    AllocCounter allocs;
    for (auto _ : state) {
        allocs.iterationStart();
        ua::ReadRequest value;
        ua::BinaryDecoder d(bytes.data(), bytes.size());
        decode(d, value);
        if (!d.ok()) { state.SkipWithError("decoding failed"); break; }
        benchmark::DoNotOptimize(value);
        allocs.iterationEnd();
    }
    allocs.finish(state);
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes.size()));
    state.counters["msg_bytes"] = double(bytes.size());
}

void BM_EncodeReadResponse_1Node(benchmark::State& state) { encodeReused(state, readResponse(1)); }

// The codec part of serving a Read of one node: decode the request into a reused ReadRequest, fill
// a reused ReadResponse (request handle, one Int32 DataValue with server timestamp per node) and
// encode it into a reused buffer. No clock call: the timestamp is a constant.
void BM_ReadService_1Node_DecodeRequestEncodeResponse(benchmark::State& state) {
    const ua::Buffer requestBytes = encoded(readRequest());
    ua::ReadRequest request = readRequest();  // warm: nodesToRead has its capacity
    ua::ReadResponse response = readResponse(1);
    ua::Buffer out = encoded(response);
    const std::size_t capacity = out.capacity();
    int32_t counter = 0;
    AllocCounter allocs;
    for (auto _ : state) {
        allocs.iterationStart();
        ua::BinaryDecoder d(requestBytes.data(), requestBytes.size());
        decode(d, request);
        if (!d.ok()) { state.SkipWithError("decoding failed"); break; }
        response.responseHeader.requestHandle = request.requestHeader.requestHandle;
        response.responseHeader.timestamp = ua::DateTime{kTicks};
        response.results.resize(request.nodesToRead.size());
        for (auto& dv : response.results) dv = int32Value(++counter);
        out.clear();
        ua::BinaryEncoder e(out);
        encode(e, response);
        if (!e.ok()) { state.SkipWithError("encoding failed"); break; }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
        allocs.iterationEnd();
    }
    allocs.finish(state);
    if (out.capacity() != capacity) state.SkipWithError("the reused buffer grew (realloc) in the timed loop");
    state.counters["msg_bytes"] = double(requestBytes.size() + out.size());
}

void BM_DecodeReadResponse_100Values(benchmark::State& state) {
    const ua::Buffer bytes = encoded(readResponse(100));
    decodeReused<ua::ReadResponse>(state, bytes);
}

void BM_EncodeReadResponse_100Values(benchmark::State& state) { encodeReused(state, readResponse(100)); }

// The read-100 scenario's request (ua-loadtest --values 100): what the server decodes and the
// client encodes per request.
void BM_DecodeReadRequest_100Nodes(benchmark::State& state) {
    const ua::Buffer bytes = encoded(readRequest(100));
    decodeReused<ua::ReadRequest>(state, bytes);
}

void BM_EncodeReadRequest_100Nodes(benchmark::State& state) { encodeReused(state, readRequest(100)); }

void BM_DecodePublishResponse_100Notifications(benchmark::State& state) {
    const ua::Buffer bytes = encoded(publishResponse(100));
    decodeReused<ua::PublishResponse>(state, bytes);
}

void BM_EncodePublishResponse_100Notifications(benchmark::State& state) {
    encodeReused(state, publishResponse(100));
}

} // namespace

BENCHMARK(BM_DecodeReadRequest_1Node);
BENCHMARK(BM_DecodeReadRequest_1Node_Fresh);
BENCHMARK(BM_EncodeReadResponse_1Node);
BENCHMARK(BM_ReadService_1Node_DecodeRequestEncodeResponse);
BENCHMARK(BM_DecodeReadResponse_100Values);
BENCHMARK(BM_EncodeReadResponse_100Values);
BENCHMARK(BM_DecodeReadRequest_100Nodes);
BENCHMARK(BM_EncodeReadRequest_100Nodes);
BENCHMARK(BM_DecodePublishResponse_100Notifications);
BENCHMARK(BM_EncodePublishResponse_100Notifications);

BENCHMARK_MAIN();

// --- counting replacements of the global allocation functions (all forms) ---

namespace {
void* countedAlloc(std::size_t n) {
    g_allocs.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(n ? n : 1);
}
void* countedAlignedAlloc(std::size_t n, std::align_val_t al) {
    g_allocs.fetch_add(1, std::memory_order_relaxed);
    const std::size_t a = std::size_t(al) < sizeof(void*) ? sizeof(void*) : std::size_t(al);
    const std::size_t size = n ? (n + a - 1) / a * a : a;  // aligned_alloc wants a multiple of the alignment
    return std::aligned_alloc(a, size);
}
} // namespace

void* operator new(std::size_t n) {
    if (void* p = countedAlloc(n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
    if (void* p = countedAlloc(n)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return countedAlloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return countedAlloc(n); }
void* operator new(std::size_t n, std::align_val_t al) {
    if (void* p = countedAlignedAlloc(n, al)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t al) {
    if (void* p = countedAlignedAlloc(n, al)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
    return countedAlignedAlloc(n, al);
}
void* operator new[](std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
    return countedAlignedAlloc(n, al);
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

// Where a call's completion decodes its response (ClientCore::submit; internal). A ReadResponse is
// decoded into one object per thread that is kept from call to call, over the previous response:
// its results array keeps its capacity and its DataValues are decoded in place
// (kDecodeOverwritesAll, BinaryDecoder.h), so a Read allocates, destroys and constructs nothing for
// its answer (issue 9 target 10: the client keeps no allocation per request that the server
// avoids; the server reuses its ReadRequest the same way, ServiceDispatcher.cpp). When the call
// ends without a response decoded whole (a local Bad status, a ServiceFault, a decoding error) the
// completion calls clean(): no field of an earlier response is left for the callback to see. The
// callback sees the response only while it runs (ServiceCallback takes a const reference); a
// completion that runs inside another's callback gets an object of its own.
// Every other response type is decoded into a new object.
#pragma once

#include "ua/client/common/ServiceResult.h"
#include "ua/encoding/generated/Types.h"

#include <optional>

namespace ua {

template <class Resp>
class ResponseScratch {
public:
    ServiceResult<Resp>& result() { return m_result; }
    void clean() {}  // a new object: nothing of another response in it

private:
    ServiceResult<Resp> m_result;
};

template <>
class ResponseScratch<ReadResponse> {
public:
    // A Read of more than this many values gives the memory back afterwards.
    static constexpr std::size_t kKeptCapacity = 1024;

    ResponseScratch() {
        Slot& s = slot();
        if (s.busy) {  // a completion inside another's callback
            m_own.emplace();
            return;
        }
        s.busy = true;  // what it holds is the previous response, whole (or nothing): see clean()
    }
    ~ResponseScratch() {
        if (m_own) return;
        Slot& s = slot();
        if (s.result.response.results.capacity() > kKeptCapacity) s.result.response.results = {};
        if (s.result.response.diagnosticInfos.capacity() > kKeptCapacity) s.result.response.diagnosticInfos = {};
        s.busy = false;
    }
    ResponseScratch(const ResponseScratch&) = delete;
    ResponseScratch& operator=(const ResponseScratch&) = delete;

    ServiceResult<ReadResponse>& result() { return m_own ? *m_own : slot().result; }
    // Empties the response (the arrays keep their capacity), for a call that ends without a
    // response decoded whole into it.
    void clean() {
        ReadResponse& r = result().response;
        r.responseHeader = ResponseHeader();
        r.results.setEmpty();
        r.diagnosticInfos.setEmpty();
    }

private:
    struct Slot {
        ServiceResult<ReadResponse> result;
        bool busy = false;
    };
    static Slot& slot() {
        thread_local Slot s;
        return s;
    }
    std::optional<ServiceResult<ReadResponse>> m_own;
};

} // namespace ua

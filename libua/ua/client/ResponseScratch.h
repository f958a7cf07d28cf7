// Where a call's completion decodes its response (ClientCore::submit; internal). A ReadResponse is
// decoded into one object per thread that is kept from call to call, so its results array keeps
// its capacity and a Read allocates no array for its answer (issue 9 target 10: the client keeps no
// allocation per request that the server avoids; the server reuses its ReadRequest the same way,
// ServiceDispatcher.cpp). The callback sees the response only while it runs (ServiceCallback takes
// a const reference); a completion that runs inside another's callback gets an object of its own.
// Every other response type is decoded into a new object.
#pragma once

#include "ua/client/ServiceResult.h"
#include "ua/encoding/generated/Types.h"

#include <optional>

namespace ua {

template <class Resp>
class ResponseScratch {
public:
    ServiceResult<Resp>& result() { return m_result; }

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
        s.busy = true;
        s.result.status = StatusCode();
        s.result.response.responseHeader = ResponseHeader();
        s.result.response.results.setEmpty();  // keeps the capacity
        s.result.response.diagnosticInfos.setEmpty();
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

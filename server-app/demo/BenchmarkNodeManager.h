// The benchmark address space of guide/benchmarks.md, in the server's own namespace (index 1,
// the server's ApplicationUri as OPC 10000-5 asks of NamespaceArray[1]): Int32 Variables with
// numeric ids 1000, 1001, ... (count given, at least 1,100 by default), each readable and
// writable, value = its id at start, under Objects/Benchmark.
#pragma once

#include "ua/server/addressspace/NodeManager.h"

namespace ua {

class BenchmarkNodeManager final : public NodeManager {
public:
    static constexpr uint32_t kFirstId = 1000;
    static constexpr uint32_t kFolderId = 999;
    BenchmarkNodeManager(std::string serverUri, uint32_t count = 1100)
        : NodeManager(std::move(serverUri)), m_count(count) {}

protected:
    StatusCode populate(AddressSpace& space) override;

private:
    uint32_t m_count;
};

} // namespace ua

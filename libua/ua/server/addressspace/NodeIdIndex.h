// NodeId -> NodeIndex for an AddressSpace, copied in O(number of blocks) and changed one entry
// at a time (copy on write, CopyGeneration.h), like the NodeTable it indexes.
//
// Numeric ids below kMaxDenseId (namespace 0 ends near 33,000; applications and generated
// NodeSets mostly number densely from 1) are found through a per-namespace table in chunks of
// kDenseChunk entries, allocated only where ids are used: two loads. Other ids (strings, GUIDs,
// opaque, large numbers) go to a hash table split into kShards shards, so a change clones one
// shard, not the whole map.
#pragma once

#include "ua/server/addressspace/CopyGeneration.h"
#include "ua/server/addressspace/ReferenceList.h"
#include "ua/types/NodeId.h"

#include <array>
#include <cstddef>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ua {

class NodeIdIndex {
public:
    static constexpr uint32_t kMaxDenseId = 1u << 24;
    static constexpr unsigned kDenseBits = 12;
    static constexpr std::size_t kDenseChunk = std::size_t(1) << kDenseBits;
    static constexpr std::size_t kShards = 256;

    // The index of id, or kNoNode.
    NodeIndex find(const NodeId& id) const {
        if (id.isNumeric() && id.numeric() < kMaxDenseId) {
            const uint16_t ns = id.namespaceIndex();
            if (ns >= m_dense.size()) return kNoNode;
            const std::size_t c = id.numeric() >> kDenseBits;
            const auto& chunks = m_dense[ns];
            if (c >= chunks.size() || !chunks[c]) return kNoNode;
            return chunks[c]->entries[id.numeric() & (kDenseChunk - 1)];
        }
        return findHashed(id);
    }
    // Sets (or overwrites) the entry of id.
    void insert(const NodeId& id, NodeIndex index);
    void erase(const NodeId& id);

private:
    struct DenseChunk {
        uint64_t owner = 0;
        std::array<NodeIndex, kDenseChunk> entries;
    };
    struct Shard {
        uint64_t owner = 0;
        std::unordered_map<NodeId, NodeIndex> entries;
    };
    NodeIndex findHashed(const NodeId& id) const;
    DenseChunk& ownDense(uint16_t ns, std::size_t c);
    Shard& ownShard(const NodeId& id);

    std::vector<std::vector<std::shared_ptr<DenseChunk>>> m_dense;  // [namespace][id >> kDenseBits]
    std::vector<std::shared_ptr<Shard>> m_shards;                   // kShards once a hashed id exists
    CopyGeneration m_generation;
};

} // namespace ua

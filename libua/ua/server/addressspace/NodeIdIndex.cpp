#include "ua/server/addressspace/NodeIdIndex.h"

namespace ua {

namespace {
std::size_t shardOf(const NodeId& id) { return std::hash<NodeId>{}(id) % NodeIdIndex::kShards; }
} // namespace

NodeIndex NodeIdIndex::findHashed(const NodeId& id) const {
    if (m_shards.empty()) return kNoNode;
    const auto& shard = m_shards[shardOf(id)];
    if (!shard) return kNoNode;
    const auto it = shard->entries.find(id);
    return it == shard->entries.end() ? kNoNode : it->second;
}

NodeIdIndex::DenseChunk& NodeIdIndex::ownDense(uint16_t ns, std::size_t c) {
    if (ns >= m_dense.size()) m_dense.resize(std::size_t(ns) + 1);
    auto& chunks = m_dense[ns];
    if (c >= chunks.size()) chunks.resize(c + 1);
    std::shared_ptr<DenseChunk>& chunk = chunks[c];
    const uint64_t me = m_generation.value();
    if (!chunk) {
        chunk = std::make_shared<DenseChunk>();
        chunk->entries.fill(kNoNode);
        chunk->owner = me;
    } else if (chunk->owner != me) {
        auto copy = std::make_shared<DenseChunk>(*chunk);
        copy->owner = me;
        chunk = std::move(copy);
    }
    return *chunk;
}

NodeIdIndex::Shard& NodeIdIndex::ownShard(const NodeId& id) {
    if (m_shards.empty()) m_shards.resize(kShards);
    std::shared_ptr<Shard>& shard = m_shards[shardOf(id)];
    const uint64_t me = m_generation.value();
    if (!shard) {
        shard = std::make_shared<Shard>();
        shard->owner = me;
    } else if (shard->owner != me) {
        auto copy = std::make_shared<Shard>(*shard);
        copy->owner = me;
        shard = std::move(copy);
    }
    return *shard;
}

void NodeIdIndex::insert(const NodeId& id, NodeIndex index) {
    if (id.isNumeric() && id.numeric() < kMaxDenseId) {
        ownDense(id.namespaceIndex(), id.numeric() >> kDenseBits).entries[id.numeric() & (kDenseChunk - 1)] = index;
        return;
    }
    ownShard(id).entries[id] = index;
}

void NodeIdIndex::erase(const NodeId& id) {
    if (find(id) == kNoNode) return;
    if (id.isNumeric() && id.numeric() < kMaxDenseId) {
        ownDense(id.namespaceIndex(), id.numeric() >> kDenseBits).entries[id.numeric() & (kDenseChunk - 1)] = kNoNode;
        return;
    }
    ownShard(id).entries.erase(id);
}

} // namespace ua

#include "ua/server/addressspace/NodeTable.h"

namespace ua {

NodeTable::Chunk& NodeTable::ownChunk(std::size_t c) {
    std::shared_ptr<Chunk>& chunk = m_chunks[c];
    const uint64_t me = m_generation.value();
    if (chunk->owner != me) {
        auto copy = std::make_shared<Chunk>();
        copy->owner = me;
        copy->nodes = chunk->nodes;  // the nodes stay shared until each is changed
        chunk = std::move(copy);
    }
    return *chunk;
}

Node& NodeTable::mutate(NodeIndex i) {
    Chunk& chunk = ownChunk(i >> kChunkBits);
    const std::size_t s = i & (kChunk - 1);
    if (!chunk.ownedNodes.test(s)) {
        chunk.nodes[s] = std::make_shared<Node>(*chunk.nodes[s]);
        chunk.ownedNodes.set(s);
    }
    return *chunk.nodes[s];
}

NodeIndex NodeTable::append(Node node) {
    const NodeIndex i = NodeIndex(m_size);
    const std::size_t c = m_size >> kChunkBits;
    if (c == m_chunks.size()) {
        m_chunks.push_back(std::make_shared<Chunk>());
        m_chunks.back()->owner = m_generation.value();
    }
    Chunk& chunk = ownChunk(c);
    const std::size_t s = i & (kChunk - 1);
    chunk.nodes[s] = std::make_shared<Node>(std::move(node));
    chunk.ownedNodes.set(s);
    ++m_size;
    return i;
}

void NodeTable::replace(NodeIndex i, Node node) {
    Chunk& chunk = ownChunk(i >> kChunkBits);
    const std::size_t s = i & (kChunk - 1);
    chunk.nodes[s] = std::make_shared<Node>(std::move(node));
    chunk.ownedNodes.set(s);
}

} // namespace ua

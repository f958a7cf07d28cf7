#include "ua/server/addressspace/NodeTable.h"

#include <stdexcept>

namespace ua {

// Nodes are BlockPool blocks, which are aligned to 8 bytes (BlockPool.h).
static_assert(alignof(Node) <= alignof(void*));

NodeTable::Chunk& NodeTable::ownChunk(NodeIndex i) {
    const uint64_t me = m_generation.value();
    const std::size_t p = i >> (kChunkBits + kPageBits);
    if (p == m_pages.size()) {
        m_pages.push_back(std::make_shared<Page>());
        m_pages.back()->owner = me;
    }
    std::shared_ptr<Page>& page = m_pages[p];
    if (page->owner != me) {
        auto copy = std::make_shared<Page>(*page);  // the chunks stay shared until each is changed
        copy->owner = me;
        page = std::move(copy);
    }
    std::shared_ptr<Chunk>& chunk = page->chunks[(i >> kChunkBits) & (kPage - 1)];
    if (!chunk) {
        chunk = std::make_shared<Chunk>();
        chunk->owner = me;
    } else if (chunk->owner != me) {
        auto copy = std::make_shared<Chunk>();
        copy->owner = me;
        copy->nodes = chunk->nodes;  // the nodes stay shared until each is changed
        chunk = std::move(copy);
    }
    return *chunk;
}

Node& NodeTable::mutate(NodeIndex i) {
    Chunk& chunk = ownChunk(i);
    const std::size_t s = i & (kChunk - 1);
    if (!chunk.ownedNodes.test(s)) {
        chunk.nodes[s] = Slot(Node(*chunk.nodes[s]));
        chunk.ownedNodes.set(s);
    }
    return *chunk.nodes[s];
}

NodeIndex NodeTable::append(Node node) {
    if (m_size >= kMaxReferenceTarget) throw std::length_error("an AddressSpace holds fewer than 2^31 nodes");
    const NodeIndex i = NodeIndex(m_size);
    Chunk& chunk = ownChunk(i);
    const std::size_t s = i & (kChunk - 1);
    chunk.nodes[s] = Slot(std::move(node));
    chunk.ownedNodes.set(s);
    ++m_size;
    return i;
}

void NodeTable::replace(NodeIndex i, Node node) {
    Chunk& chunk = ownChunk(i);
    const std::size_t s = i & (kChunk - 1);
    chunk.nodes[s] = Slot(std::move(node));
    chunk.ownedNodes.set(s);
}

} // namespace ua

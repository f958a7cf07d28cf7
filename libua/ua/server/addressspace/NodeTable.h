// The node store of an AddressSpace: every node by its NodeIndex, copied in O(size / kChunk) and
// changed one node at a time (copy on write).
//
// Shape: a root vector of pages of kPage chunks of kChunk nodes (256 x 64 = 16,384 nodes per
// page); each slot holds one Node by a counted pointer (the count is in the Node). Copying the
// table copies the page pointers only (61 for a million nodes). The first change of a node after
// a copy clones its page's chunk pointers (kPage), its chunk's node pointers (kChunk) and the
// Node itself, never the rest of the table (CopyGeneration.h says who may change what in
// place). So a published snapshot stays unchanged while a writer changes its copy, and a change
// costs time in proportion to what it changes.
//
// This is the narrow interface the AddressSpace needs from a store: size, read by index, change
// by index, append, replace, iterate. Another store (one that pages nodes from disk, say) would
// implement the same members.
#pragma once

#include "ua/server/addressspace/CopyGeneration.h"
#include "ua/server/addressspace/Node.h"

#include <array>
#include <bitset>
#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace ua {

class NodeTable {
public:
    static constexpr unsigned kChunkBits = 8;
    static constexpr std::size_t kChunk = std::size_t(1) << kChunkBits;  // nodes per chunk
    static constexpr unsigned kPageBits = 6;
    static constexpr std::size_t kPage = std::size_t(1) << kPageBits;    // chunks per page

    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Node;
        using difference_type = std::ptrdiff_t;
        using pointer = const Node*;
        using reference = const Node&;
        const_iterator() = default;
        const Node& operator*() const { return (*m_table)[m_index]; }
        const Node* operator->() const { return &(*m_table)[m_index]; }
        const_iterator& operator++() {
            ++m_index;
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator was = *this;
            ++m_index;
            return was;
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.m_index == b.m_index; }

    private:
        friend class NodeTable;
        const_iterator(const NodeTable* table, NodeIndex index) : m_table(table), m_index(index) {}
        const NodeTable* m_table = nullptr;
        NodeIndex m_index = 0;
    };

    NodeTable() = default;
    NodeTable(const NodeTable&) = default;  // shares every node (CopyGeneration renews both sides)
    NodeTable& operator=(const NodeTable&) = default;
    // A move hands the pages over; the source is left empty (size 0) and usable.
    NodeTable(NodeTable&& other) noexcept
        : m_pages(std::move(other.m_pages)), m_size(std::exchange(other.m_size, 0)), m_generation(std::move(other.m_generation)) {
        other.m_pages.clear();
    }
    NodeTable& operator=(NodeTable&& other) noexcept {
        if (this != &other) {
            m_pages = std::move(other.m_pages);
            other.m_pages.clear();
            m_size = std::exchange(other.m_size, 0);
            m_generation = std::move(other.m_generation);
        }
        return *this;
    }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    // The node at i (i < size()). A removed node reads as Node{} (null NodeId).
    const Node& operator[](NodeIndex i) const {
        const Page& page = *m_pages[i >> (kChunkBits + kPageBits)];
        return *page.chunks[(i >> kChunkBits) & (kPage - 1)]->nodes[i & (kChunk - 1)];
    }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, NodeIndex(m_size)}; }

    // The node at i for changing: clones its chunk and the node first unless this table owns
    // them. The reference stays valid until the table is copied, destroyed, or i is replaced.
    Node& mutate(NodeIndex i);
    // Adds node at the end; returns its index. Throws std::length_error past 2^31 - 1 nodes (a
    // Reference's target has 31 bits: ReferenceList.h).
    NodeIndex append(Node node);
    // Replaces the node at i (i < size()).
    void replace(NodeIndex i, Node node);
    // Room for n nodes in the page vector.
    void reserve(std::size_t n) { m_pages.reserve((n + kChunk * kPage - 1) / (kChunk * kPage)); }

private:
    // A chunk's hold on a node (counted in Node::storeCount: 8 bytes, no control block).
    class Slot {
    public:
        Slot() = default;
        explicit Slot(Node&& n) : m_node(new Node(std::move(n))) { m_node->storeCount.add(); }
        Slot(const Slot& other) : m_node(other.m_node) {
            if (m_node) m_node->storeCount.add();
        }
        Slot& operator=(Slot other) noexcept {
            std::swap(m_node, other.m_node);
            return *this;
        }
        ~Slot() {
            if (m_node && m_node->storeCount.drop()) delete m_node;
        }
        Node& operator*() const { return *m_node; }

    private:
        Node* m_node = nullptr;
    };
    struct Chunk {
        uint64_t owner = 0;             // the CopyGeneration that may change nodes in place
        std::bitset<kChunk> ownedNodes; // the nodes this chunk's owner may change in place
        std::array<Slot, kChunk> nodes;
    };
    struct Page {
        uint64_t owner = 0;  // the CopyGeneration that may replace chunks in place
        std::array<std::shared_ptr<Chunk>, kPage> chunks;
    };
    // The chunk of node i for changing, cloned (with its page) unless this table owns it; created
    // when i is the first node of a new chunk.
    Chunk& ownChunk(NodeIndex i);

    std::vector<std::shared_ptr<Page>> m_pages;
    std::size_t m_size = 0;
    CopyGeneration m_generation;
};

} // namespace ua

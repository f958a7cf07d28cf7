// The references a node holds (OPC 10000-3 4.4 / 5.2: every reference is stored on both of its
// nodes), kept so that copying a node costs little however many references it has.
//
// A type node can hold an inverse reference for every one of its instances (a million
// HasTypeDefinition references on BaseDataVariableType after a large NodeSet import). The address
// space copies a node it changes (copy on write, NodeTable.h), so a plain vector would make each
// AddNodes copy all of them. Here the older references sit in sealed blocks of at most kBlock,
// never changed after they are sealed and shared by every copy; only the newest (fewer than
// kBlock) are copied with the node. Copying a list costs kBlock references plus one shared
// pointer per block; appending costs O(1); erasing copies only the blocks that change.
// Order is kept: iteration yields the references in the order they were added.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <memory>
#include <vector>

namespace ua {

// Position of a node in its AddressSpace; stable for the life of that AddressSpace and its copies.
using NodeIndex = uint32_t;
inline constexpr NodeIndex kNoNode = std::numeric_limits<NodeIndex>::max();

// A reference as seen from the node that holds it. Every reference is stored twice: forward on its
// source node and inverse (isForward false) on its target node.
struct Reference {
    NodeIndex referenceType = kNoNode;  // the ReferenceType node
    NodeIndex target = kNoNode;         // the node at the other end
    bool isForward = true;
    friend bool operator==(const Reference&, const Reference&) = default;
};

class ReferenceList {
public:
    static constexpr std::size_t kBlock = 256;
    using Block = std::vector<Reference>;

    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Reference;
        using difference_type = std::ptrdiff_t;
        using pointer = const Reference*;
        using reference = const Reference&;

        const_iterator() = default;
        const Reference& operator*() const {
            return m_block < m_list->m_sealed.size() ? (*m_list->m_sealed[m_block])[m_pos] : m_list->m_head[m_pos];
        }
        const Reference* operator->() const { return &**this; }
        const_iterator& operator++() {
            if (m_block < m_list->m_sealed.size() && ++m_pos == m_list->m_sealed[m_block]->size()) {
                ++m_block;
                m_pos = 0;
            } else if (m_block == m_list->m_sealed.size()) {
                ++m_pos;
            }
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator was = *this;
            ++*this;
            return was;
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) {
            return a.m_block == b.m_block && a.m_pos == b.m_pos;
        }

    private:
        friend class ReferenceList;
        const_iterator(const ReferenceList* list, std::size_t block, std::size_t pos)
            : m_list(list), m_block(block), m_pos(pos) {}
        const ReferenceList* m_list = nullptr;
        std::size_t m_block = 0;  // m_sealed.size(): in m_head
        std::size_t m_pos = 0;
    };
    using iterator = const_iterator;

    ReferenceList() = default;
    ReferenceList(std::initializer_list<Reference> refs) {
        for (const Reference& r : refs) push_back(r);
    }

    std::size_t size() const { return m_sealedSize + m_head.size(); }
    bool empty() const { return size() == 0; }
    const_iterator begin() const { return {this, 0, 0}; }
    const_iterator end() const { return {this, m_sealed.size(), m_head.size()}; }
    // The newest reference; the list must not be empty.
    const Reference& back() const { return m_head.empty() ? m_sealed.back()->back() : m_head.back(); }
    bool contains(const Reference& r) const;

    void push_back(const Reference& r) {
        m_head.push_back(r);
        if (m_head.size() == kBlock) seal();
    }
    // Room for n more references before the next allocation (at most one block's worth).
    void reserve(std::size_t n) { m_head.reserve(m_head.size() + std::min(n, kBlock - m_head.size())); }
    // Removes the first reference equal to r; false when there is none.
    bool eraseFirst(const Reference& r);
    // Removes every reference for which pred is true; returns how many. Copies only the sealed
    // blocks that lose a reference.
    template <class Pred>
    std::size_t eraseIf(Pred pred);

private:
    void seal();
    void replaceBlock(std::size_t b, Block kept);

    std::vector<std::shared_ptr<const Block>> m_sealed;  // the older references; no block is empty
    std::size_t m_sealedSize = 0;
    Block m_head;  // the newest references, fewer than kBlock
};

template <class Pred>
std::size_t ReferenceList::eraseIf(Pred pred) {
    std::size_t removed = 0;
    for (std::size_t b = m_sealed.size(); b-- > 0;) {
        const Block& block = *m_sealed[b];
        std::size_t hits = 0;
        for (const Reference& r : block) hits += pred(r) ? 1 : 0;
        if (!hits) continue;
        Block kept;
        kept.reserve(block.size() - hits);
        for (const Reference& r : block)
            if (!pred(r)) kept.push_back(r);
        removed += hits;
        replaceBlock(b, std::move(kept));
    }
    removed += std::erase_if(m_head, pred);
    return removed;
}

} // namespace ua

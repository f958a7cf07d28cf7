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
// Forward and inverse references are kept apart (forward() / inverse()), so the forward
// references of a type node (its InstanceDeclarations, its supertype) are found without walking
// past its inverse references to every instance. Iterating the whole list yields the forward
// references, then the inverse ones, each in the order they were added.
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

private:
    // The references of one direction: sealed blocks, then the newest in head. The sealed blocks
    // are held in pages of kPage block pointers, so copying a run with a million references copies
    // 61 page pointers; sealing or replacing a block clones one page.
    static constexpr std::size_t kPage = 64;
    using Page = std::vector<std::shared_ptr<const Block>>;
    struct Run {
        std::vector<std::shared_ptr<const Page>> pages;
        Block head;             // fewer than kBlock
        uint32_t blocks = 0;    // sealed blocks (an erasure can leave one empty)
        uint32_t sealedSize = 0;
        std::size_t size() const { return sealedSize + head.size(); }
        const Block& block(std::size_t b) const { return *(*pages[b / kPage])[b % kPage]; }
        const Reference& at(std::size_t b, std::size_t pos) const { return b < blocks ? block(b)[pos] : head[pos]; }
        std::size_t blockSize(std::size_t b) const { return b < blocks ? block(b).size() : head.size(); }
    };

public:
    // Walks one run (a Range) or both, forward first (the whole list).
    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Reference;
        using difference_type = std::ptrdiff_t;
        using pointer = const Reference*;
        using reference = const Reference&;

        const_iterator() = default;
        const Reference& operator*() const { return m_runs[m_run]->at(m_block, m_pos); }
        const Reference* operator->() const { return &**this; }
        const_iterator& operator++() {
            ++m_pos;
            settle();
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator was = *this;
            ++*this;
            return was;
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) {
            return a.m_run == b.m_run && a.m_block == b.m_block && a.m_pos == b.m_pos;
        }

    private:
        friend class ReferenceList;
        const_iterator(const Run* first, const Run* second, bool atEnd) : m_runs{first, second} {
            if (atEnd) {
                m_run = 2;
            } else {
                settle();
            }
        }
        // Moves past the end of a block, of the head, of a run; m_run == 2 is the end.
        void settle() {
            while (m_run < 2) {
                const Run* run = m_runs[m_run];
                if (!run) {
                    ++m_run;
                    continue;
                }
                if (m_pos < run->blockSize(m_block)) return;
                m_pos = 0;
                if (m_block < run->blocks) {
                    ++m_block;
                } else {
                    m_block = 0;
                    ++m_run;
                }
            }
            m_block = 0;
            m_pos = 0;
        }
        const Run* m_runs[2] = {nullptr, nullptr};
        std::size_t m_run = 0;    // 2: the end
        std::size_t m_block = 0;  // run->blocks: in the head
        std::size_t m_pos = 0;
    };
    using iterator = const_iterator;

    // The references of one direction, for a range-for.
    class Range {
    public:
        const_iterator begin() const { return {m_run, nullptr, false}; }
        const_iterator end() const { return {m_run, nullptr, true}; }
        std::size_t size() const { return m_run->size(); }
        bool empty() const { return size() == 0; }

    private:
        friend class ReferenceList;
        explicit Range(const Run* run) : m_run(run) {}
        const Run* m_run;
    };

    ReferenceList() = default;
    ReferenceList(std::initializer_list<Reference> refs) {
        for (const Reference& r : refs) push_back(r);
    }

    std::size_t size() const { return m_forward.size() + m_inverse.size(); }
    bool empty() const { return size() == 0; }
    // Forward references, then inverse ones.
    const_iterator begin() const { return {&m_forward, &m_inverse, false}; }
    const_iterator end() const { return {&m_forward, &m_inverse, true}; }
    Range forward() const { return Range(&m_forward); }
    Range inverse() const { return Range(&m_inverse); }
    bool contains(const Reference& r) const;

    void push_back(const Reference& r) {
        Run& run = r.isForward ? m_forward : m_inverse;
        run.head.push_back(r);
        if (run.head.size() == kBlock) seal(run);
    }
    // Room for n more references of each direction before the next allocation (at most a block).
    void reserve(std::size_t n) {
        m_forward.head.reserve(m_forward.head.size() + std::min(n, kBlock - m_forward.head.size()));
    }
    // Removes the first reference equal to r; false when there is none.
    bool eraseFirst(const Reference& r);
    // Removes every reference for which pred is true; returns how many. Copies only the sealed
    // blocks that lose a reference.
    template <class Pred>
    std::size_t eraseIf(Pred pred) {
        return eraseIf(m_forward, pred) + eraseIf(m_inverse, pred);
    }

private:
    static void seal(Run& run);
    static void replaceBlock(Run& run, std::size_t b, Block kept);
    template <class Pred>
    static std::size_t eraseIf(Run& run, Pred pred);

    Run m_forward;
    Run m_inverse;
};

template <class Pred>
std::size_t ReferenceList::eraseIf(Run& run, Pred pred) {
    std::size_t removed = 0;
    for (std::size_t b = 0; b < run.blocks; ++b) {
        const Block& block = run.block(b);
        std::size_t hits = 0;
        for (const Reference& r : block) hits += pred(r) ? 1 : 0;
        if (!hits) continue;
        Block kept;
        kept.reserve(block.size() - hits);
        for (const Reference& r : block)
            if (!pred(r)) kept.push_back(r);
        removed += hits;
        replaceBlock(run, b, std::move(kept));
    }
    removed += std::erase_if(run.head, pred);
    return removed;
}

} // namespace ua

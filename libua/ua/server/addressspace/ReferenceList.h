// The references a node holds (OPC 10000-3 4.4 / 5.2: every reference is stored on both of its
// nodes), kept so that copying a node costs little however many references it has.
//
// A type node can hold an inverse reference for every one of its instances (a million
// HasTypeDefinition references on BaseDataVariableType after a large NodeSet import). The address
// space copies a node it changes (copy on write, NodeTable.h), so a plain vector would make each
// AddNodes copy all of them. A list of up to kSmall references (most nodes: a Variable has two or
// three) is one array in one allocation (an 8-byte header, then 8 bytes per reference), 8 bytes in
// the node. A longer one keeps its older
// references in sealed blocks of at most kBlock, never changed after they are sealed and shared by
// every copy; only the newest (fewer than kBlock) are copied with the node. Copying a list costs
// at most kSmall (or 2 x kBlock) references plus one shared pointer per page of blocks; appending
// costs O(1) amortized; erasing copies only the blocks that change.
// Forward and inverse references are kept apart (forward() / inverse()), so the forward
// references of a type node (its InstanceDeclarations, its supertype) are found without walking
// past its inverse references to every instance. Iterating the whole list yields the forward
// references, then the inverse ones, each in the order they were added.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace ua {

// Position of a node in its AddressSpace; stable for the life of that AddressSpace and its copies.
using NodeIndex = uint32_t;
inline constexpr NodeIndex kNoNode = std::numeric_limits<NodeIndex>::max();

// A reference as seen from the node that holds it. Every reference is stored twice: forward on its
// source node and inverse (isForward false) on its target node. 8 bytes: the target's index and
// the direction share one word, so a target is below kMaxReferenceTarget (an AddressSpace holds
// fewer nodes than that: NodeTable::append).
inline constexpr NodeIndex kMaxReferenceTarget = NodeIndex(1) << 31;
struct Reference {
    NodeIndex referenceType = kNoNode;          // the ReferenceType node
    NodeIndex target : 31 = kMaxReferenceTarget - 1;  // the node at the other end
    bool isForward : 1 = true;
    friend bool operator==(const Reference&, const Reference&) = default;
};
static_assert(sizeof(Reference) == 8);

class ReferenceList {
public:
    static constexpr std::size_t kBlock = 256;
    // Up to kSmall references are held in one array (the small form: most nodes have a few); the
    // list moves to sealed blocks when it grows past that and stays there.
    static constexpr std::size_t kSmall = kBlock;
    using Block = std::vector<Reference>;
    // A small form with room for this many references is a block of a BlockPool (ReferenceList.cpp).
    static constexpr std::size_t kPooledCapacity = 2;
    static constexpr std::size_t kPooledBytes = 8 + kPooledCapacity * sizeof(Reference);  // with the header

private:
    // The references of one direction in the large form: sealed blocks, then the newest in head.
    // The sealed blocks are held in pages of kPage block pointers, so copying a run with a million
    // references copies 61 page pointers; sealing or replacing a block clones one page.
    static constexpr std::size_t kPage = 64;
    using Page = std::vector<std::shared_ptr<const Block>>;
    struct Run {
        std::vector<std::shared_ptr<const Page>> pages;
        Block head;             // fewer than kBlock
        uint32_t blocks = 0;    // sealed blocks (an erasure can leave one empty)
        uint32_t sealedSize = 0;
        std::size_t size() const { return sealedSize + head.size(); }
        const Block& block(std::size_t b) const { return *(*pages[b / kPage])[b % kPage]; }
    };
    struct Large {
        Run forward;
        Run inverse;
    };
    // The small form: one allocation holding this header, then the forward references, then the
    // inverse ones, each in the order they were added.
    struct Small {
        uint16_t forward;
        uint16_t inverse;
        uint16_t capacity;  // at most kSmall
        uint16_t unused;
        Reference* refs() { return reinterpret_cast<Reference*>(this + 1); }
        const Reference* refs() const { return reinterpret_cast<const Reference*>(this + 1); }
        uint32_t size() const { return forward + inverse; }
    };
    static_assert(sizeof(Small) % alignof(Reference) == 0);
    static_assert(sizeof(Small) + kPooledCapacity * sizeof(Reference) == kPooledBytes);

    // One direction of either form, as a sequence of spans: the sealed blocks, then the head (the
    // large form), or one span (the small form).
    struct Span {
        const Reference* data = nullptr;
        std::size_t size = 0;
    };
    struct RunView {
        const Run* run = nullptr;  // large form
        Span flat;                 // small form
        std::size_t spans() const { return run ? run->blocks + 1 : 1; }
        Span span(std::size_t i) const {
            if (!run) return flat;
            const Block& b = i < run->blocks ? run->block(i) : run->head;
            return {b.data(), b.size()};
        }
        std::size_t size() const { return run ? run->size() : flat.size; }
    };

public:
    // Walks one direction (a Range) or both, forward first (the whole list).
    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Reference;
        using difference_type = std::ptrdiff_t;
        using pointer = const Reference*;
        using reference = const Reference&;

        const_iterator() = default;
        const Reference& operator*() const { return *m_cur; }
        const Reference* operator->() const { return m_cur; }
        const_iterator& operator++() {
            if (++m_cur == m_end) {
                ++m_span;
                settle();
            }
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator was = *this;
            ++*this;
            return was;
        }
        // Iterators of the same list: equal when they point at the same reference (or both end).
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.m_cur == b.m_cur; }

    private:
        friend class ReferenceList;
        const_iterator(RunView first, RunView second, bool atEnd) : m_runs{first, second} {
            if (!atEnd) settle();
        }
        // From span m_span of run m_run on, finds the first one that is not empty; none: the end.
        void settle() {
            for (; m_run < 2; ++m_run, m_span = 0) {
                const RunView& run = m_runs[m_run];
                for (; m_span < run.spans(); ++m_span) {
                    const Span s = run.span(m_span);
                    if (s.size) {
                        m_cur = s.data;
                        m_end = s.data + s.size;
                        return;
                    }
                }
            }
            m_cur = m_end = nullptr;
        }
        const Reference* m_cur = nullptr;  // nullptr: the end
        const Reference* m_end = nullptr;
        RunView m_runs[2];
        std::size_t m_run = 0;
        std::size_t m_span = 0;
    };
    using iterator = const_iterator;

    // The references of one direction, for a range-for.
    class Range {
    public:
        const_iterator begin() const { return {m_run, RunView(), false}; }
        const_iterator end() const { return {m_run, RunView(), true}; }
        std::size_t size() const { return m_run.size(); }
        bool empty() const { return size() == 0; }

    private:
        friend class ReferenceList;
        explicit Range(RunView run) : m_run(run) {}
        RunView m_run;
    };

    ReferenceList() = default;
    ReferenceList(std::initializer_list<Reference> refs) {
        for (const Reference& r : refs) push_back(r);
    }
    ReferenceList(const ReferenceList& other);
    ReferenceList(ReferenceList&& other) noexcept : m_bits(std::exchange(other.m_bits, 0)) {}
    ReferenceList& operator=(const ReferenceList& other);
    ReferenceList& operator=(ReferenceList&& other) noexcept {
        std::swap(m_bits, other.m_bits);
        return *this;
    }
    ~ReferenceList() { release(); }

    std::size_t size() const {
        if (const Large* l = large()) return l->forward.size() + l->inverse.size();
        const Small* s = small();
        return s ? s->size() : 0;
    }
    bool empty() const { return size() == 0; }
    // Forward references, then inverse ones.
    const_iterator begin() const { return {view(true), view(false), false}; }
    const_iterator end() const { return {RunView(), RunView(), true}; }
    Range forward() const { return Range(view(true)); }
    Range inverse() const { return Range(view(false)); }
    bool contains(const Reference& r) const;

    // Amortized O(1); in the small form a forward reference moves the inverse ones up by one.
    void push_back(const Reference& r);
    // Room for n more references (both directions together) before the next allocation.
    void reserve(std::size_t n);
    // Removes the first reference equal to r; false when there is none.
    bool eraseFirst(const Reference& r);
    // Removes every reference for which pred is true; returns how many. Copies only the sealed
    // blocks that lose a reference.
    template <class Pred>
    std::size_t eraseIf(Pred pred) {
        if (Large* l = large()) return eraseIf(l->forward, pred) + eraseIf(l->inverse, pred);
        Small* s = small();
        if (!s) return 0;
        Reference* refs = s->refs();
        Reference* forwardEnd = std::remove_if(refs, refs + s->forward, pred);
        Reference* inverseEnd = std::remove_if(refs + s->forward, refs + s->size(), pred);
        const std::size_t keptForward = std::size_t(forwardEnd - refs);
        const std::size_t keptInverse = std::size_t(inverseEnd - (refs + s->forward));
        const std::size_t removed = s->size() - keptForward - keptInverse;
        std::memmove(static_cast<void*>(forwardEnd), refs + s->forward, keptInverse * sizeof(Reference));
        s->forward = uint16_t(keptForward);
        s->inverse = uint16_t(keptInverse);
        return removed;
    }

private:
    // m_bits: 0 (empty), a Small*, or a Large* with the low bit set.
    Small* small() const { return (m_bits & 1) ? nullptr : reinterpret_cast<Small*>(m_bits); }
    Large* large() const { return (m_bits & 1) ? reinterpret_cast<Large*>(m_bits & ~uintptr_t(1)) : nullptr; }
    RunView view(bool forward) const {
        if (const Large* l = large()) return {forward ? &l->forward : &l->inverse, {}};
        const Small* s = small();
        if (!s) return {};
        return forward ? RunView{nullptr, {s->refs(), s->forward}} : RunView{nullptr, {s->refs() + s->forward, s->inverse}};
    }
    void release();
    static void freeSmall(Small* s) noexcept;
    // The small form with room for at least capacity references (at most kSmall).
    Small* grow(std::size_t capacity);
    void toLarge();
    static void push(Run& run, const Reference& r) {
        run.head.push_back(r);
        if (run.head.size() == kBlock) seal(run);
    }
    static void seal(Run& run);
    static void replaceBlock(Run& run, std::size_t b, Block kept);
    template <class Pred>
    static std::size_t eraseIf(Run& run, Pred pred);

    uintptr_t m_bits = 0;
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

#include "ua/server/addressspace/ReferenceList.h"

#include "ua/server/addressspace/BlockPool.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <type_traits>

namespace ua {

static_assert(std::is_trivially_copyable_v<Reference>, "the small form moves references with memmove");
static_assert(ReferenceList::kSmall <= UINT16_MAX, "the small form counts in 16 bits");
static_assert(alignof(Reference) <= alignof(void*), "a BlockPool block is aligned to 8 bytes");

ReferenceList::ReferenceList(const ReferenceList& other) {
    if (const Large* l = other.large()) {
        m_bits = reinterpret_cast<uintptr_t>(new Large(*l)) | 1;
    } else if (const Small* s = other.small(); s && s->size()) {
        Small* copy = grow(s->size());
        std::memcpy(static_cast<void*>(copy->refs()), s->refs(), s->size() * sizeof(Reference));
        copy->forward = s->forward;
        copy->inverse = s->inverse;
    }
}

ReferenceList& ReferenceList::operator=(const ReferenceList& other) {
    if (this != &other) {
        ReferenceList copy(other);
        std::swap(m_bits, copy.m_bits);
    }
    return *this;
}

void ReferenceList::release() {
    if (Large* l = large()) {
        delete l;
    } else if (Small* s = small()) {
        freeSmall(s);
    }
    m_bits = 0;
}

// A list of two references (a Variable's HasTypeDefinition and its parent's reference) is a
// 24-byte block of a BlockPool; the others come from malloc.
using PairPool = BlockPool<ReferenceList::kPooledBytes>;

void ReferenceList::freeSmall(Small* s) noexcept {
    if (s->capacity == kPooledCapacity) PairPool::deallocate(s);
    else std::free(s);
}

ReferenceList::Small* ReferenceList::grow(std::size_t capacity) {
    Small* s = small();
    capacity = std::min(capacity, kSmall);
    if (s && s->capacity >= capacity) return s;
    void* p = capacity == kPooledCapacity ? PairPool::allocate() : std::malloc(sizeof(Small) + capacity * sizeof(Reference));
    if (!p) throw std::bad_alloc();
    Small* grown = static_cast<Small*>(p);
    if (s) {
        std::memcpy(static_cast<void*>(grown), s, sizeof(Small) + s->size() * sizeof(Reference));
        freeSmall(s);
    } else {
        grown->forward = 0;
        grown->inverse = 0;
        grown->unused = 0;
    }
    grown->capacity = uint16_t(capacity);
    m_bits = reinterpret_cast<uintptr_t>(grown);
    return grown;
}

void ReferenceList::toLarge() {
    auto l = std::make_unique<Large>();
    if (const Small* s = small()) {
        const Reference* refs = s->refs();
        l->forward.head.reserve(std::min<std::size_t>(kBlock, s->forward + 1));
        l->inverse.head.reserve(std::min<std::size_t>(kBlock, s->inverse + 1));
        for (uint32_t i = 0; i < s->forward; ++i) push(l->forward, refs[i]);
        for (uint32_t i = s->forward; i < s->size(); ++i) push(l->inverse, refs[i]);
    }
    release();
    m_bits = reinterpret_cast<uintptr_t>(l.release()) | 1;
}

void ReferenceList::push_back(const Reference& r) {
    if (!large()) {
        Small* s = small();
        const std::size_t size = s ? s->size() : 0;
        if (size == kSmall) {
            toLarge();
        } else {
            if (!s || s->capacity == size) s = grow(std::max<std::size_t>(2, 2 * size));
            Reference* refs = s->refs();
            if (r.isForward) {
                std::memmove(static_cast<void*>(refs + s->forward + 1), refs + s->forward, s->inverse * sizeof(Reference));
                refs[s->forward++] = r;
            } else {
                refs[size] = r;
                ++s->inverse;
            }
            return;
        }
    }
    Large* l = large();
    push(r.isForward ? l->forward : l->inverse, r);
}

void ReferenceList::reserve(std::size_t n) {
    if (Large* l = large()) {
        Run& run = l->forward;
        run.head.reserve(run.head.size() + std::min(n, kBlock - run.head.size()));
        return;
    }
    if (n == 0) return;
    const Small* s = small();
    grow((s ? s->size() : 0) + n);
}

bool ReferenceList::contains(const Reference& r) const {
    if (const Small* s = small()) {
        const Reference* first = r.isForward ? s->refs() : s->refs() + s->forward;
        const Reference* last = r.isForward ? s->refs() + s->forward : s->refs() + s->size();
        return std::find(first, last, r) != last;
    }
    const Large* l = large();
    if (!l) return false;
    const Run& run = r.isForward ? l->forward : l->inverse;
    if (std::find(run.head.begin(), run.head.end(), r) != run.head.end()) return true;
    for (std::size_t b = 0; b < run.blocks; ++b) {
        const Block& block = run.block(b);
        if (std::find(block.begin(), block.end(), r) != block.end()) return true;
    }
    return false;
}

void ReferenceList::seal(Run& run) {
    auto block = std::make_shared<const Block>(std::move(run.head));
    run.head = Block();
    run.sealedSize += uint32_t(block->size());
    if (run.blocks % kPage == 0) {
        run.pages.push_back(std::make_shared<const Page>(Page{std::move(block)}));
    } else {
        auto page = std::make_shared<Page>(*run.pages.back());  // pages are shared by copies: clone
        page->push_back(std::move(block));
        run.pages.back() = std::move(page);
    }
    ++run.blocks;
}

void ReferenceList::replaceBlock(Run& run, std::size_t b, Block kept) {
    run.sealedSize -= uint32_t(run.block(b).size() - kept.size());
    auto page = std::make_shared<Page>(*run.pages[b / kPage]);
    (*page)[b % kPage] = std::make_shared<const Block>(std::move(kept));
    run.pages[b / kPage] = std::move(page);
}

bool ReferenceList::eraseFirst(const Reference& r) {
    if (Small* s = small()) {
        Reference* refs = s->refs();
        Reference* first = r.isForward ? refs : refs + s->forward;
        Reference* last = r.isForward ? refs + s->forward : refs + s->size();
        Reference* it = std::find(first, last, r);
        if (it == last) return false;
        std::memmove(static_cast<void*>(it), it + 1, std::size_t(refs + s->size() - (it + 1)) * sizeof(Reference));
        --(r.isForward ? s->forward : s->inverse);
        return true;
    }
    Large* l = large();
    if (!l) return false;
    Run& run = r.isForward ? l->forward : l->inverse;
    for (std::size_t b = 0; b < run.blocks; ++b) {
        const Block& block = run.block(b);
        const auto it = std::find(block.begin(), block.end(), r);
        if (it == block.end()) continue;
        Block kept(block.begin(), it);
        kept.insert(kept.end(), it + 1, block.end());
        replaceBlock(run, b, std::move(kept));
        return true;
    }
    const auto it = std::find(run.head.begin(), run.head.end(), r);
    if (it == run.head.end()) return false;
    run.head.erase(it);
    return true;
}

} // namespace ua

#include "ua/server/addressspace/ReferenceList.h"

#include <algorithm>

namespace ua {

bool ReferenceList::contains(const Reference& r) const {
    const Run& run = r.isForward ? m_forward : m_inverse;
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
    Run& run = r.isForward ? m_forward : m_inverse;
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

#include "ua/server/addressspace/ReferenceList.h"

#include <algorithm>

namespace ua {

bool ReferenceList::contains(const Reference& r) const {
    if (std::find(m_head.begin(), m_head.end(), r) != m_head.end()) return true;
    for (const auto& block : m_sealed)
        if (std::find(block->begin(), block->end(), r) != block->end()) return true;
    return false;
}

void ReferenceList::seal() {
    m_sealedSize += m_head.size();
    m_sealed.push_back(std::make_shared<const Block>(std::move(m_head)));
    m_head = Block();
}

void ReferenceList::replaceBlock(std::size_t b, Block kept) {
    m_sealedSize -= m_sealed[b]->size() - kept.size();
    if (kept.empty()) m_sealed.erase(m_sealed.begin() + std::ptrdiff_t(b));
    else m_sealed[b] = std::make_shared<const Block>(std::move(kept));
}

bool ReferenceList::eraseFirst(const Reference& r) {
    for (std::size_t b = 0; b < m_sealed.size(); ++b) {
        const Block& block = *m_sealed[b];
        const auto it = std::find(block.begin(), block.end(), r);
        if (it == block.end()) continue;
        Block kept(block.begin(), it);
        kept.insert(kept.end(), it + 1, block.end());
        replaceBlock(b, std::move(kept));
        return true;
    }
    const auto it = std::find(m_head.begin(), m_head.end(), r);
    if (it == m_head.end()) return false;
    m_head.erase(it);
    return true;
}

} // namespace ua

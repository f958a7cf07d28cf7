#include "BenchmarkNodeManager.h"

namespace ua {

StatusCode BenchmarkNodeManager::populate(AddressSpace& space) {
    space.reserve(space.size() + m_count + 1);
    StatusCode s = addFolder(space, makeId(kFolderId), "Benchmark", NodeId(id::ObjectsFolder));
    for (uint32_t i = 0; s.isGood() && i < m_count; ++i) {
        const uint32_t id = kFirstId + i;
        s = addVariable(space, makeId(id), "Int32_" + std::to_string(id), makeId(kFolderId), NodeId(id::Int32),
                        Variant(int32_t(id)));
    }
    return s;
}

} // namespace ua

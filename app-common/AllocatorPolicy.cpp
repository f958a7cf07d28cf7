#include "AllocatorPolicy.h"

#include <QtGlobal>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ua::app {

void keepLargeBlocksOutOfTheHeap() {
#if defined(__GLIBC__)
    if (qEnvironmentVariableIsSet("MALLOC_MMAP_THRESHOLD_")) return;
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);  // bytes; also ends the threshold's growth
#endif
}

} // namespace ua::app

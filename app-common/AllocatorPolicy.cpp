#include "AllocatorPolicy.h"

#include <QString>
#include <QtGlobal>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ua::app {

void keepLargeBlocksOutOfTheHeap() {
#if defined(__GLIBC__)
    if (qEnvironmentVariableIsSet("MALLOC_MMAP_THRESHOLD_") || qEnvironmentVariable("GLIBC_TUNABLES").contains(QLatin1String("malloc.mmap_threshold")))
        return;  // set by the user
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);  // bytes; also ends the threshold's growth
#endif
}

} // namespace ua::app

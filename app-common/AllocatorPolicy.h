// The heap policy of ua-server's process. glibc raises its mmap threshold each time a large block
// is freed (up to 32 MB), so the large temporaries of a NodeSet import (the element trees' arrays,
// the file's text) come to live in the heap among the nodes made at the same time, and what they
// leave when freed stays resident: 32 MB per 1,000,000 imported variables (docs/Benchmarks.md
// "Under 300 bytes a variable", step 1). A fixed threshold of 128 KiB (glibc's default start) keeps
// every block of that size or more in its own mapping, returned to the system when freed.
// Call first in main(). A threshold set in the environment (MALLOC_MMAP_THRESHOLD_, or
// malloc.mmap_threshold in GLIBC_TUNABLES) is left as it is; other C libraries are left alone.
#pragma once

namespace ua::app {

void keepLargeBlocksOutOfTheHeap();

} // namespace ua::app

// The server's monotonic clock in ms (Session activity and timeouts, diagnostics' ages): one
// clock for the whole process, started at first use. Any thread.
#pragma once

#include <cstdint>

namespace ua {

int64_t monotonicMs();

} // namespace ua

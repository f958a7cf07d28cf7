// What this process costs now, for the server app's CPU and memory charts: CPU time used (user +
// system, all threads) from getrusage(RUSAGE_SELF) and the resident set size from
// /proc/self/statm. A few microseconds; call it from the GUI thread a few times a second.
#pragma once

#include <QMetaType>
#include <cstdint>

namespace ua::serverapp {

struct ProcessUsage {
    int64_t monotonicMs = 0;   // when sampled (QElapsedTimer's monotonic clock, ms)
    double cpuSeconds = 0;     // user + system CPU time since the process started, s
    int64_t rssBytes = 0;      // resident set size, bytes (0 when /proc is not available)
};

ProcessUsage sampleProcessUsage();

// CPU use between two samples in percent of one core (200 = two cores busy); 0 when no time passed.
double cpuPercent(const ProcessUsage& before, const ProcessUsage& after);

} // namespace ua::serverapp

Q_DECLARE_METATYPE(ua::serverapp::ProcessUsage)

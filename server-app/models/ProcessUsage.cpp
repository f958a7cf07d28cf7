#include "models/ProcessUsage.h"

#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <sys/resource.h>
#include <unistd.h>

namespace ua::serverapp {

namespace {

int64_t monotonicNowMs() {
    QElapsedTimer t;
    t.start();
    return t.msecsSinceReference();
}

// /proc/self/statm: "size resident shared text lib data dt", in pages.
int64_t residentBytes() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    long long size = 0, resident = 0;
    const int n = std::fscanf(f, "%lld %lld", &size, &resident);
    std::fclose(f);
    if (n != 2) return 0;
    return int64_t(resident) * int64_t(sysconf(_SC_PAGESIZE));
}

} // namespace

ProcessUsage sampleProcessUsage() {
    ProcessUsage u;
    u.monotonicMs = monotonicNowMs();
    rusage r{};
    if (getrusage(RUSAGE_SELF, &r) == 0)
        u.cpuSeconds = double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + double(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
    u.rssBytes = residentBytes();
    return u;
}

double cpuPercent(const ProcessUsage& before, const ProcessUsage& after) {
    const int64_t dt = after.monotonicMs - before.monotonicMs;
    if (dt <= 0) return 0;
    return std::max(0.0, (after.cpuSeconds - before.cpuSeconds) * 1000.0 / double(dt) * 100.0);
}

} // namespace ua::serverapp

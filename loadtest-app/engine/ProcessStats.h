// CPU time and resident memory of a process on this machine (Linux /proc/PID/stat and status),
// and a description of the machine, for the figures of a step (client and server).
#pragma once

#include <QString>
#include <QtGlobal>

namespace ua::loadtest {

struct ProcessSample {
    double cpuMs = -1;   // user + system CPU time since the process started (ms); -1: unknown
    long rssKb = -1;     // resident set size (kB); -1: unknown
};
// pid 0: this process. A process that does not exist (or not on Linux): both -1.
ProcessSample sampleProcess(qint64 pid);

// "2 cores, AMD EPYC 7B13" (logical CPUs from the OS, the model from /proc/cpuinfo).
QString machineDescription();
int logicalCores();

} // namespace ua::loadtest

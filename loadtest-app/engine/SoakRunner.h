// A soak (docs/Reliability.md "Soak", `ua-loadtest soak`): a mixed load against one server for a
// long time, with a report every reportEveryS seconds of the server's and this process's resident
// memory and open file descriptors and of the requests and errors of each part of the mix, and at
// the end a verdict: no unexpected errors, memory and descriptors flat.
//
// The mix (soakMix) runs its parts at once, each a LoadRunner step of its own (its own Sessions
// and client I/O thread) for the whole duration:
//   read       4 Sessions x 4 outstanding, 10 values per Read, open loop at readRate requests/s
//   write      2 Sessions x 2 outstanding, 5 values per Write, open loop at readRate / 4
//   browse     1 Session, the Server object with ContinuationPoints, open loop at readRate / 20
//   subscribe  2 Sessions x 100 MonitoredItems sampling every 10 ms, publishing every 100 ms
//   connect    1 worker opening and closing SecureChannel + Session in a loop (churn), closed loop
// Every part uses the base parameters' target, security and user.
#pragma once

#include "ProcessStats.h"
#include "StepResult.h"

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

namespace ua::loadtest {

// The parts of the mix for a base (target, security, user) and the read part's rate (requests/s).
std::vector<LoadParameters> soakMix(const LoadParameters& base, double readRate, double durationS);

// Open file descriptors of a process on this machine (entries of /proc/PID/fd; pid 0: this
// process); -1 when unknown (no such process, not ours, not Linux).
int openFileDescriptors(qint64 pid);

struct SoakReport {
    double tS = 0;                       // seconds since the load began
    std::vector<uint64_t> requests;      // per part of the mix, in this interval (answered)
    std::vector<uint64_t> errors;        // per part, errors + timeouts in this interval
    ProcessSample server;                // rssKb -1 when the server's process is unknown
    int serverFds = -1;
    ProcessSample client;
    int clientFds = -1;
    uint64_t totalRequests() const;
    uint64_t totalErrors() const;
};

struct SoakResult {
    QString error;                       // the soak could not run (a part could not connect)
    std::vector<QString> parts;          // scenario name of each part
    std::vector<StepResult> steps;       // each part's step over the whole duration
    std::vector<SoakReport> reports;
    // The verdict, from the report at a quarter of the run (after warm-up growth: allocator
    // arenas, queues and caches filled) to the last one.
    int baselineReport = -1;             // index into reports; -1: too few reports
    double serverRssGrowthPercent = 0;
    double clientRssGrowthPercent = 0;
    int serverFdGrowth = 0;
    int clientFdGrowth = 0;
    uint64_t unexpectedErrors = 0;       // errors + timeouts of every part, and broken connections
    static constexpr double kMaxRssGrowthPercent = 10;
    static constexpr int kMaxFdGrowth = 2;
    bool memoryFlat() const;
    bool descriptorsFlat() const;
    bool passed() const { return error.isEmpty() && unexpectedErrors == 0 && memoryFlat() && descriptorsFlat(); }
    // Fills the verdict fields from steps and reports.
    void judge();
};

class SoakRunner : public QObject {
    Q_OBJECT
public:
    explicit SoakRunner(QObject* parent = nullptr);
    ~SoakRunner() override;

    // Starts the mix for durationS seconds (base.serverPid: the server's process, for its memory
    // and descriptors); returns at once. finished() follows.
    void start(const LoadParameters& base, double readRate, double durationS, double reportEveryS);
    // Ends the load now; finished() follows with what ran.
    void stop();

signals:
    void report(const ua::loadtest::SoakReport& report);
    void finished(const ua::loadtest::SoakResult& result);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace ua::loadtest

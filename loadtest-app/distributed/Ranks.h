// The processes of a distributed run (docs/LoadTesterCli.md "Distributed runs"): when ua-loadtest
// is started by an MPI launcher (`mpirun -np N`, Slurm's `srun`, the MPI Operator), each process
// is a rank of the job; otherwise it is rank 0 of 1. The few collective operations the load tester
// needs, each made by every rank in the same order; MPI stays inside MpiRanks.cpp (built when CMake
// finds MPI; NoMpiRanks.cpp otherwise), so the rest of the tool calls this interface only.
#pragma once

#include <QByteArray>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

namespace ua::loadtest {

class Ranks {
public:
    virtual ~Ranks() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // Each rank's host name, index = rank (the same on every rank).
    virtual const std::vector<QString>& hosts() const = 0;
    // Collective: every rank's bytes, in rank order, on every rank. whileWaiting (if any) is called
    // at most every 250 ms while the others have not all made the call yet.
    virtual std::vector<QByteArray> allGather(const QByteArray& mine, const std::function<void()>& whileWaiting = {}) = 0;
    // Collective: rank 0's bytes on every rank (the others' argument is ignored).
    virtual QByteArray broadcast(const QByteArray& fromRankZero) = 0;
};

// A run in one process: rank 0 of 1.
class SingleProcess : public Ranks {
public:
    SingleProcess();
    int rank() const override { return 0; }
    int size() const override { return 1; }
    const std::vector<QString>& hosts() const override { return m_hosts; }
    std::vector<QByteArray> allGather(const QByteArray& mine, const std::function<void()>& = {}) override { return {mine}; }
    QByteArray broadcast(const QByteArray& fromRankZero) override { return fromRankZero; }

private:
    std::vector<QString> m_hosts;
};

// Whether the environment says an MPI launcher started this process (Open MPI's mpirun sets
// OMPI_COMM_WORLD_SIZE, PMIx launchers PMIX_RANK, Slurm's srun with PMI-2 PMI_RANK).
bool startedByMpiLauncher();
// Whether this build has MPI (CMake found it).
bool mpiBuilt();
// The ranks of this process's MPI job when an MPI launcher started it (MPI is initialized here and
// finalized when the object goes), else a SingleProcess. nullptr and *error when a launcher started
// a job of several processes but this build has no MPI (each would run the whole load alone).
std::unique_ptr<Ranks> openRanks(int* argc, char*** argv, QString* error);

// Collective: every rank's error (empty: none) as one message (RankMerge.h combineRankErrors), the
// same on every rank; "" when no rank has one.
QString agreeOnErrors(Ranks& ranks, const QString& localError, const std::function<void()>& whileWaiting = {});

} // namespace ua::loadtest

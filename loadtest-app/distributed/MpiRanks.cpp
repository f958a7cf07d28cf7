// The ranks of an MPI job (see Ranks.h), over MPI's C API. Only the main thread calls MPI
// (MPI_THREAD_FUNNELED). A collective waits with MPI_Test and short sleeps rather than in a
// blocking call: MPI implementations spin while they wait, and a rank that waits for the others
// (while they set up their Sessions or drain their requests) would take a core from them when
// several ranks share a machine.
#include "Ranks.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>

namespace ua::loadtest {

namespace {

void waitFor(MPI_Request* request, const std::function<void()>& whileWaiting = {}) {
    auto pause = std::chrono::microseconds(20);
    auto nextCall = std::chrono::steady_clock::now() + std::chrono::milliseconds(250);
    for (;;) {
        int done = 0;
        MPI_Test(request, &done, MPI_STATUS_IGNORE);
        if (done) return;
        if (whileWaiting && std::chrono::steady_clock::now() >= nextCall) {
            whileWaiting();
            nextCall = std::chrono::steady_clock::now() + std::chrono::milliseconds(250);
        }
        std::this_thread::sleep_for(pause);
        pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::microseconds(2000));
    }
}

class MpiRanks : public Ranks {
public:
    MpiRanks() {
        MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
        MPI_Comm_size(MPI_COMM_WORLD, &m_size);
        char name[MPI_MAX_PROCESSOR_NAME] = {};
        int length = 0;
        MPI_Get_processor_name(name, &length);
        for (const QByteArray& host : allGather(QByteArray(name, length), {})) m_hosts.push_back(QString::fromUtf8(host));
    }
    ~MpiRanks() override { MPI_Finalize(); }

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }
    const std::vector<QString>& hosts() const override { return m_hosts; }

    std::vector<QByteArray> allGather(const QByteArray& mine, const std::function<void()>& whileWaiting) override {
        int length = int(mine.size());
        std::vector<int> lengths(std::size_t(m_size), 0);
        MPI_Request request;
        MPI_Iallgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD, &request);
        waitFor(&request, whileWaiting);  // where the ranks wait for each other
        std::vector<int> offsets(std::size_t(m_size), 0);
        for (std::size_t r = 1; r < offsets.size(); ++r) offsets[r] = offsets[r - 1] + lengths[r - 1];
        QByteArray all(qsizetype(offsets.back()) + lengths.back(), Qt::Uninitialized);
        MPI_Iallgatherv(mine.constData(), length, MPI_BYTE, all.data(), lengths.data(), offsets.data(), MPI_BYTE,
                        MPI_COMM_WORLD, &request);
        waitFor(&request);
        std::vector<QByteArray> out;
        for (std::size_t r = 0; r < lengths.size(); ++r) out.push_back(all.mid(offsets[r], lengths[r]));
        return out;
    }

    QByteArray broadcast(const QByteArray& fromRankZero) override {
        int length = m_rank == 0 ? int(fromRankZero.size()) : 0;
        MPI_Request request;
        MPI_Ibcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
        waitFor(&request);
        QByteArray bytes = m_rank == 0 ? fromRankZero : QByteArray(length, Qt::Uninitialized);
        if (length > 0) {
            MPI_Ibcast(bytes.data(), length, MPI_BYTE, 0, MPI_COMM_WORLD, &request);
            waitFor(&request);
        }
        return bytes;
    }

private:
    int m_rank = 0;
    int m_size = 1;
    std::vector<QString> m_hosts;
};

} // namespace

bool mpiBuilt() { return true; }

std::unique_ptr<Ranks> openRanks(int* argc, char*** argv, QString* error) {
    if (!startedByMpiLauncher()) return std::make_unique<SingleProcess>();
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        *error = QStringLiteral("MPI_Init_thread failed");
        return nullptr;
    }
    return std::make_unique<MpiRanks>();
}

} // namespace ua::loadtest

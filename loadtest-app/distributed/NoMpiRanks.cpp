// openRanks() of a build without MPI (CMake did not find it): always one process.
#include "Ranks.h"

namespace ua::loadtest {

bool mpiBuilt() { return false; }

std::unique_ptr<Ranks> openRanks(int*, char***, QString* error) {
    const int size = qEnvironmentVariableIntValue("OMPI_COMM_WORLD_SIZE");
    if (startedByMpiLauncher() && size > 1) {
        *error = QStringLiteral("started as one of %1 MPI ranks, but this ua-loadtest was built without MPI: each rank would "
                                "run the whole load alone (install libopenmpi-dev and build again)")
                     .arg(size);
        return nullptr;
    }
    return std::make_unique<SingleProcess>();
}

} // namespace ua::loadtest

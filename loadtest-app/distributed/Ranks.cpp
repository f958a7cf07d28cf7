// SingleProcess, the launcher check and agreeOnErrors (see Ranks.h); openRanks() is in MpiRanks.cpp
// or NoMpiRanks.cpp.
#include "Ranks.h"

#include "engine/RankMerge.h"

#include <QSysInfo>

namespace ua::loadtest {

SingleProcess::SingleProcess() : m_hosts{QSysInfo::machineHostName()} {}

bool startedByMpiLauncher() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
        if (qEnvironmentVariableIsSet(name)) return true;
    return false;
}

QString agreeOnErrors(Ranks& ranks, const QString& localError, const std::function<void()>& whileWaiting) {
    std::vector<QString> errors;
    for (const QByteArray& e : ranks.allGather(localError.toUtf8(), whileWaiting)) errors.push_back(QString::fromUtf8(e));
    return combineRankErrors(errors, ranks.hosts());
}

} // namespace ua::loadtest

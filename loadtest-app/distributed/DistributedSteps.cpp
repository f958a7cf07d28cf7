// A step over the ranks of an MPI job (see DistributedSteps.h): each rank's StepResult travels as
// its JSON (latency histogram included, every bucket's count exact), and every rank merges them.
#include "DistributedSteps.h"

#include "engine/RankMerge.h"

#include <QJsonDocument>

namespace ua::loadtest {

LoadParameters DistributedSteps::share(const LoadParameters& whole) const {
    return shareOfRank(whole, m_ranks.rank(), m_ranks.size());
}

QString DistributedSteps::ready(const QString& localError, const std::function<void()>& whileWaiting) {
    m_ownError = localError;
    m_readyError = agreeOnErrors(m_ranks, localError, whileWaiting);
    return m_readyError;
}

StepResult DistributedSteps::combine(const StepResult& mine, const LoadParameters& whole) {
    // What failed on this rank itself: not the others' failure that ready() made this step's error.
    const QString own = !m_readyError.isEmpty() && mine.error == m_readyError ? m_ownError : mine.error;
    m_ownError.clear();
    m_readyError.clear();
    const QJsonObject message{{QStringLiteral("result"), mine.toJson()}, {QStringLiteral("ownError"), own}};
    const std::vector<QByteArray> all = m_ranks.allGather(QJsonDocument(message).toJson(QJsonDocument::Compact));
    std::vector<StepResult> steps;
    std::vector<QString> ownErrors;
    for (const QByteArray& bytes : all) {
        const QJsonObject o = QJsonDocument::fromJson(bytes).object();
        QString error;
        auto step = StepResult::fromJson(o.value(QStringLiteral("result")).toObject(), &error);
        if (!step) {  // a rank of another version of the tool
            step = StepResult();
            step->error = QStringLiteral("its result could not be read: %1").arg(error);
        }
        ownErrors.push_back(o.contains(QStringLiteral("ownError")) ? o.value(QStringLiteral("ownError")).toString() : step->error);
        steps.push_back(std::move(*step));
    }
    return mergeRankSteps(steps, m_ranks.hosts(), whole, ownErrors);
}

bool DistributedSteps::anyStops(bool localStop) {
    for (const QByteArray& stop : m_ranks.allGather(localStop ? QByteArrayLiteral("1") : QByteArrayLiteral("0")))
        if (stop == "1") return true;
    return false;
}

} // namespace ua::loadtest

#include "ua/client/history/AggregateNames.h"

#include "ua/encoding/generated/NodeIds.h"

#include <array>

namespace ua {

namespace {

constexpr std::array<AggregateName, 37> kAggregateNames = {{
    {"Interpolative", id::AggregateFunction_Interpolative},
    {"Average", id::AggregateFunction_Average},
    {"TimeAverage", id::AggregateFunction_TimeAverage},
    {"TimeAverage2", id::AggregateFunction_TimeAverage2},
    {"Total", id::AggregateFunction_Total},
    {"Total2", id::AggregateFunction_Total2},
    {"Minimum", id::AggregateFunction_Minimum},
    {"Maximum", id::AggregateFunction_Maximum},
    {"MinimumActualTime", id::AggregateFunction_MinimumActualTime},
    {"MaximumActualTime", id::AggregateFunction_MaximumActualTime},
    {"Range", id::AggregateFunction_Range},
    {"Minimum2", id::AggregateFunction_Minimum2},
    {"Maximum2", id::AggregateFunction_Maximum2},
    {"MinimumActualTime2", id::AggregateFunction_MinimumActualTime2},
    {"MaximumActualTime2", id::AggregateFunction_MaximumActualTime2},
    {"Range2", id::AggregateFunction_Range2},
    {"AnnotationCount", id::AggregateFunction_AnnotationCount},
    {"Count", id::AggregateFunction_Count},
    {"DurationInStateZero", id::AggregateFunction_DurationInStateZero},
    {"DurationInStateNonZero", id::AggregateFunction_DurationInStateNonZero},
    {"NumberOfTransitions", id::AggregateFunction_NumberOfTransitions},
    {"Start", id::AggregateFunction_Start},
    {"End", id::AggregateFunction_End},
    {"Delta", id::AggregateFunction_Delta},
    {"StartBound", id::AggregateFunction_StartBound},
    {"EndBound", id::AggregateFunction_EndBound},
    {"DeltaBounds", id::AggregateFunction_DeltaBounds},
    {"DurationGood", id::AggregateFunction_DurationGood},
    {"DurationBad", id::AggregateFunction_DurationBad},
    {"PercentGood", id::AggregateFunction_PercentGood},
    {"PercentBad", id::AggregateFunction_PercentBad},
    {"WorstQuality", id::AggregateFunction_WorstQuality},
    {"WorstQuality2", id::AggregateFunction_WorstQuality2},
    {"StandardDeviationSample", id::AggregateFunction_StandardDeviationSample},
    {"StandardDeviationPopulation", id::AggregateFunction_StandardDeviationPopulation},
    {"VarianceSample", id::AggregateFunction_VarianceSample},
    {"VariancePopulation", id::AggregateFunction_VariancePopulation},
}};

bool sameNameIgnoringCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
        if (lower(a[i]) != lower(b[i])) return false;
    }
    return true;
}

} // namespace

std::span<const AggregateName> standardAggregates() { return kAggregateNames; }

std::optional<NodeId> aggregateFromName(std::string_view name) {
    for (const AggregateName& a : kAggregateNames)
        if (sameNameIgnoringCase(name, a.name)) return NodeId(a.id);
    return std::nullopt;
}

const char* aggregateNameOf(const NodeId& id) {
    if (id.namespaceIndex() != 0 || !id.isNumeric()) return nullptr;
    for (const AggregateName& a : kAggregateNames)
        if (a.id == id.numeric()) return a.name;
    return nullptr;
}

} // namespace ua

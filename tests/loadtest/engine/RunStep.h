// Runs one load-test step to its end in a test (the event loop turns meanwhile): the step and
// history tests of tests/loadtest/engine share it.
#pragma once

#include "engine/LoadRunner.h"

#include <QSignalSpy>
#include <QtGlobal>

#include <vector>

namespace ua::loadtest {

// The step's result; an empty one (and a warning) when it did not finish within timeoutMs. The
// timeline samples go to samples when given.
inline StepResult runTestStep(const LoadParameters& p, std::vector<TimelineSample>* samples = nullptr, int timeoutMs = 30'000) {
    LoadRunner runner;
    QSignalSpy finished(&runner, &LoadRunner::finished);
    QObject::connect(&runner, &LoadRunner::sample, [samples](const TimelineSample& s) {
        if (samples) samples->push_back(s);
    });
    runner.start(p);
    if (!finished.wait(timeoutMs)) {
        qWarning("the step did not finish");
        return {};
    }
    return finished.at(0).at(0).value<StepResult>();
}

} // namespace ua::loadtest

// The files of the load tester's window: saved runs (RunResult as JSON, opened again by Open run
// and Compare), the CSV export (RunResult::toCsv, one row per step) and the charts as one PNG.
#pragma once

#include "engine/StepResult.h"

#include <QImage>
#include <QString>
#include <optional>
#include <vector>

class QWidget;

namespace ua::loadtest {

// Writes run.toJson() (indented) to path; false with *error set when it could not.
bool saveRunJson(const RunResult& run, const QString& path, QString* error = nullptr);
// Reads a saved run; nullopt with *error set ("file: reason") when the file is unreadable, not
// JSON, or not a run.
std::optional<RunResult> loadRunJson(const QString& path, QString* error = nullptr);
bool saveRunCsv(const RunResult& run, const QString& path, QString* error = nullptr);
// The name the save and export dialogs suggest (issue 27 item 13): label, scenario and start time,
// "ours-read-1-20261130-1000.csv"; characters a file name should not hold become '-'. Without a
// start time (nothing run yet) no time; without a label "run".
QString suggestedFileName(const RunResult& run, const QString& suffix);
// The widgets (charts) drawn in a grid of `columns`, each at its size on screen, on white.
QImage renderGrid(const std::vector<QWidget*>& widgets, int columns);

} // namespace ua::loadtest

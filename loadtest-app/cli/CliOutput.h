// Output of the load tester's command line: result lines on stdout (flushed, so that a pipe sees
// each at once; on stderr when --json - takes stdout), progress and warnings on stderr, the JSON
// file. The result line's columns are documented in docs/LoadTesterCli.md.
#pragma once

#include "engine/LoadRunner.h"
#include "engine/StepResult.h"

#include <QJsonObject>
#include <QString>

namespace ua::loadtest {

void printLine(const QString& line);
void printError(const QString& line);
// Result lines go to stderr from now on (stdout holds the JSON document).
void sendResultsToStderr();
// A rank other than 0 of a distributed run: printLine, printResult and printWarnings print nothing
// from now on (rank 0 reports the merged steps); errors still go to stderr.
void stopReporting();
void printResult(const QString& line);

// "read-1", "write-100", "browse", "subscribe-100" (items per Session), "connect".
QString stepName(const LoadParameters& p);
// One line: "read-1 20x1  req/s 12345  values/s 12345  p50 0.52  p90 0.80  p99 1.20  p99.9 2.10
// max 5.30 ms  errors 0  timeouts 0  client 45.2 us/op 85 %  server 20.1 us/op 45.3 MB", then
// the scenario's own figures (subscribe: notifications/s and fidelity; connect: sessions/s, too
// busy, retries), the errors by status, "BROKEN connection" and "beaten-by: <rule>". A step that
// could not run: "read-1 20x1  FAILED: <why>".
QString resultLine(const LoadParameters& p, const StepResult& step);
// Once a second while a step runs (stderr): "  measuring 3 s  12345 req/s  p99 1.20 ms  errors 0  client 85 %".
QString progressLine(const TimelineSample& sample);
QString phaseText(LoadRunner::Phase phase);
// The step's warnings, each "warning: ..." on stderr.
void printWarnings(const StepResult& step);
// A figure for a table: "0", "0.523", "12.4", "153", "23297" (3 significant digits below 100).
QString figureText(double v);
// Milliseconds from µs, with 3 significant digits ("0.523", "12.4", "153").
QString msText(double us);

// Writes the document to path ("-": stdout). false and *error when it could not.
bool writeJson(const QString& path, const QJsonObject& document, QString* error);

} // namespace ua::loadtest

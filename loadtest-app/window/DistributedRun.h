// A distributed sweep started from the window (docs/LoadTesterWindow.md "Distributed runs"): the
// window does not take part in the MPI job itself, it starts
//   mpirun -np N [--hostfile F | --oversubscribe] <this ua-loadtest> sweep <url> --sessions ... --json OUT
// as a child process, shows its progress lines (rank 0's, on its stderr), and when it ends reads
// the merged run from OUT: each step with every rank's share (StepResult::ranks).
#pragma once

#include "engine/StepResult.h"

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>
#include <optional>

namespace ua::loadtest {

struct DistributedSetup {
    int processes = 0;  // the ranks; 0 or 1: the window runs the sweep itself, in this process
    // The machines: "gen-a:4, gen-b:4" (host[:ranks], separated by commas, spaces or lines), or the
    // path of an Open MPI hostfile; empty: this machine (with --oversubscribe).
    QString hosts;
    QString mpirun = QStringLiteral("mpirun");
    QString executable;  // the ua-loadtest the ranks run; empty: this program

    bool enabled() const { return processes > 1; }
};

// "gen-a:4, gen-b" as an Open MPI hostfile ("gen-a slots=4\ngen-b\n"); nullopt and *error for a
// malformed entry (a rank count that is not a whole number > 0) or an empty list.
std::optional<QString> hostfileText(const QString& hosts, QString* error = nullptr);

// The arguments of mpirun for a sweep of `plan` with `base` (a password goes in the environment,
// UA_PASSWORD, forwarded with -x, never in the arguments). hostfile empty: this machine only.
QStringList mpirunArguments(const DistributedSetup& setup, const LoadParameters& base, const SweepPlan& plan, const QString& label,
                            const QString& hostfile, const QString& jsonPath);

class DistributedRun : public QObject {
    Q_OBJECT
public:
    explicit DistributedRun(QObject* parent = nullptr);
    ~DistributedRun() override;

    // Starts mpirun; false and *error when the set-up is invalid or mpirun could not start.
    bool start(const DistributedSetup& setup, const LoadParameters& base, const SweepPlan& plan, const QString& label,
               QString* error = nullptr);
    // Ends the job (mpirun passes SIGTERM on to every rank); finished() follows with what was saved.
    void stop();
    bool isRunning() const;
    // The command started, for the status bar: "mpirun -np 3 ... sweep ...".
    QString commandLine() const { return m_commandLine; }

signals:
    void progress(const QString& line);  // a line of rank 0's progress or an error (stderr)
    void resultLine(const QString& line);  // a step's result line (stdout)
    // The merged run read back; error set when there is none (mpirun failed, no JSON: its last
    // lines of stderr say why) or the steps failed.
    void finished(const ua::loadtest::RunResult& run, const QString& error, int exitCode);

private:
    void readLines(QProcess::ProcessChannel channel);
    void done(int exitCode, QProcess::ExitStatus status);

    QProcess* m_process = nullptr;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_jsonPath;
    QString m_commandLine;
    QByteArray m_partial[2];
    QStringList m_lastErrors;  // the last lines of stderr, for a failure
};

} // namespace ua::loadtest

// The set-up panel of the load tester's window (issue 8 item 2), the left column: what a sweep does.
//   Target      endpoint URL, security policy and mode, user name and password
//   Load        scenario, values per request (read/write), subscription shape (subscribe), event
//               rate and minimum severity (events; the publishing interval too), closed
//               loop or open loop at a target rate (requests/s over all Sessions), request timeout
//   Sweep       the sessions list ("1,2,5,10,20") and the outstanding list ("1,10,100"), the
//               measured duration and the warm-up of each step (s)
//   Stop rules  when a step beats the server (StopRules): errors %, p99 factor, throughput factor,
//               a broken connection
//   Server      its process id (its CPU and RSS from /proc; 0: unknown), a label for the run
//   Distributed the processes of an MPI job (mpirun) that generate the load together, and the
//               machines they run on (DistributedRun.h); 1: this process alone
// Remembered with QSettings (never the password) by save() / restore().
#pragma once

#include "engine/StepResult.h"
#include "window/DistributedRun.h"

#include <QWidget>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLineEdit;
class QRadioButton;
class QSettings;
class QSpinBox;

namespace ua::loadtest {

class SetupPanel : public QWidget {
    Q_OBJECT
public:
    explicit SetupPanel(QWidget* parent = nullptr);

    // The step parameters (sessions and outstanding are the first of each list), the sweep and the
    // label; nullopt with *error set when a field is invalid (the field gets the focus).
    std::optional<LoadParameters> parameters(QString* error = nullptr) const;
    std::optional<SweepPlan> plan(QString* error = nullptr) const;
    QString label() const;
    // The distributed set-up (processes 1: the window runs the sweep itself).
    DistributedSetup distributed() const;
    // Steps planned by the lists as they are (0 when a list is invalid).
    int plannedSteps() const;

    // Fills the fields from a saved run's parameters and plan (the password stays as it is).
    void apply(const LoadParameters& p, const SweepPlan& plan, const QString& label);

    void save(QSettings& settings) const;
    void restore(QSettings& settings);

signals:
    void changed();

private:
    QGroupBox* buildTarget();
    QGroupBox* buildLoad();
    QGroupBox* buildSweep();
    QGroupBox* buildStopRules();
    QGroupBox* buildServer();
    QGroupBox* buildDistributed();
    void updateEnabled();

    QLineEdit* m_endpoint;
    QSpinBox* m_reverseListenPort;  // 0: dial the server; else Reverse Connect (the server dials this port)
    QComboBox* m_policy;
    QComboBox* m_mode;
    QLineEdit* m_user;
    QLineEdit* m_password;
    QComboBox* m_scenario;
    QSpinBox* m_valuesPerRequest;
    QSpinBox* m_historyValues;
    QStringList m_historyNodes;  // history-read: kept from apply() (no field of their own)
    double m_historySpanS = LoadParameters{}.historySpanS;
    QSpinBox* m_eventRate;
    QSpinBox* m_eventMinSeverity;
    uint32_t m_eventQueueSize = LoadParameters{}.eventQueueSize;  // events: kept from apply() (no field)
    QSpinBox* m_monitoredItems;
    QDoubleSpinBox* m_samplingMs;
    QDoubleSpinBox* m_publishingMs;
    QRadioButton* m_closedLoop;
    QRadioButton* m_openLoop;
    QDoubleSpinBox* m_targetRate;
    QSpinBox* m_timeoutMs;
    QSpinBox* m_ioThreads;
    QLineEdit* m_sessions;
    QLineEdit* m_outstanding;
    QDoubleSpinBox* m_duration;
    QDoubleSpinBox* m_warmup;
    QDoubleSpinBox* m_maxErrorsPercent;
    QDoubleSpinBox* m_maxP99Factor;
    QDoubleSpinBox* m_minThroughputFactor;
    QCheckBox* m_brokenConnection;
    QSpinBox* m_serverPid;
    QLineEdit* m_label;
    QSpinBox* m_processes;
    QLineEdit* m_hosts;
};

} // namespace ua::loadtest

// The Diagnostics page: the ServerDiagnosticsSummary counters (SummaryModel) and live charts of
// the last two minutes from DiagnosticsHistory: requests/s per service (a series per service as it
// first becomes active, plus all services), Sessions and Subscriptions, CPU % and RSS.
#pragma once

#include "LiveServer.h"

#include <QWidget>
#include <array>

class QTableView;

namespace ua::serverapp {
class SummaryModel;
}

namespace ua::app {

class LiveChart;

class DiagnosticsPage : public QWidget, public ServerView {
    Q_OBJECT
public:
    explicit DiagnosticsPage(QWidget* parent = nullptr);
    void attach(LiveServer* live) override;
    LiveChart* requestsChart() const { return m_requests; }

private:
    void onPoint();

    LiveServer* m_live = nullptr;
    serverapp::SummaryModel* m_summary;
    QTableView* m_summaryView;
    LiveChart* m_requests;
    LiveChart* m_load;
    LiveChart* m_cpu;
    LiveChart* m_memory;
    std::array<int, kServiceKindCount> m_serviceSeries; // series index in m_requests, -1 before active
};

} // namespace ua::app

// The cost of the alarm conditions (libua/ua/server/conditions/ConditionManager.h) as their count
// grows, without a network: N ExclusiveLevel alarms on N Double Variables.
//   bench_alarm_poll [counts, comma-separated: 100,1000,5000] [rounds: 5]
// For each count prints, medians of the rounds:
//   add      ms to add the N conditions (their nodes) to the address space, and nodes per condition
//   idle     µs per alarm of a poll where no input moved (the steady state of the server's 100 ms poll)
//   moving   µs per alarm of a poll where every input crossed a limit (every condition raises an
//            event: its report, its node values stored, EventManager::raise with no subscriber)
//   method   µs per Acknowledge through ConditionManager::call (the condition found by a hash lookup)
// docs/Benchmarks.md "Alarms" has the figures and the command.
#include "ua/encoding/generated/NodeIds.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/server/addressspace/Ns0NodeManager.h"
#include "ua/server/conditions/ConditionManager.h"
#include "ua/server/events/EventManager.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace ua;

namespace {

class Inputs final : public NodeManager {
public:
    explicit Inputs(int n) : NodeManager("urn:bench:alarms"), m_n(n) {}
    StatusCode populate(AddressSpace& s) override {
        StatusCode st = addFolder(s, makeId(0u), "Inputs", NodeId(id::ObjectsFolder));
        for (int i = 1; i <= m_n && st.isGood(); ++i)
            st = addVariable(s, makeId(uint32_t(i)), "In" + std::to_string(i), makeId(0u), NodeId(id::Double), Variant(0.0));
        return st;
    }

private:
    int m_n;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::vector<int> counts{100, 1000, 5000};
    if (argc > 1) {
        counts.clear();
        for (const QString& c : QString::fromLatin1(argv[1]).split(u',')) counts.push_back(std::max(1, c.toInt()));
    }
    const int rounds = argc > 2 ? std::max(1, atoi(argv[2])) : 5;
    std::printf("%8s %10s %12s %12s %12s %12s\n", "alarms", "add ms", "nodes/alarm", "idle us/al", "moving us/al", "ack us");
    for (const int n : counts) {
        std::vector<double> addMs, idle, moving, ack;
        double nodesPer = 0;
        for (int round = 0; round < rounds; ++round) {
            AddressSpace space;
            Ns0NodeManager ns0;
            Inputs inputs(n);
            if (ns0.install(space).isBad() || inputs.install(space).isBad()) return 1;
            const uint16_t ns = inputs.namespaceIndex();
            const std::size_t before = space.size();
            ConditionManager manager(std::make_shared<EventManager>());
            QElapsedTimer t;
            t.start();
            for (int i = 1; i <= n; ++i) {
                AlarmDefinition d;
                d.name = "A" + std::to_string(i);
                d.input = NodeId(ns, uint32_t(i));
                d.high = 10;
                d.highHigh = 20;
                if (manager.add(space, d).isBad()) return 2;
            }
            addMs.push_back(double(t.nsecsElapsed()) / 1e6);
            nodesPer = double(space.size() - before) / n;
            manager.poll(space, 0);  // the first values
            t.restart();
            manager.poll(space, 0);
            idle.push_back(double(t.nsecsElapsed()) / 1e3 / n);
            for (int i = 1; i <= n; ++i) {
                DataValue v{Variant(15.0)};
                v.setStatus(status::Good);
                space.find(NodeId(ns, uint32_t(i)))->value->store(v);
            }
            t.restart();
            manager.poll(space, 0);
            moving.push_back(double(t.nsecsElapsed()) / 1e3 / n);
            const auto summaries = manager.summaries();
            const int calls = std::min(n, 200);
            t.restart();
            for (int i = 0; i < calls; ++i) {
                const ConditionSummary& c = summaries[std::size_t(i)];
                const StatusCode s = manager.call(ConditionMethod::Acknowledge, c.conditionId,
                                                  Array<Variant>{Variant(c.eventId), Variant(LocalizedText{})}, "bench", 0);
                if (s.isBad()) return 3;
            }
            ack.push_back(double(t.nsecsElapsed()) / 1e3 / calls);
        }
        std::printf("%8d %10.1f %12.0f %12.2f %12.2f %12.2f\n", n, median(addMs), nodesPer, median(idle), median(moving), median(ack));
    }
    return 0;
}

// Shared by the Alarms view's tests (tests/clientapp/models, window, cli): our Server in process
// with two alarms on the demo namespace, polled every 20 ms, and anonymous Operators (who write the
// inputs and call the condition Methods):
//   TankLevel      ExclusiveLevel on Demo.Scalars.Double (writable, starts at 3.25: normal):
//                  High 10 (severity 600), HighHigh 20 (severity 900); ns=1;s=Alarms/TankLevel
//   PumpOffNormal  OffNormal on Demo.Scalars.Boolean, normal value false: the demo's Boolean starts
//                  true, so it is active from the start (severity 300, message "the pump is off
//                  normal"); ns=1;s=Alarms/PumpOffNormal
#pragma once

#include "ua/server/runtime/Server.h"
#include "ua/server/users/Roles.h"

#include <QHostAddress>

namespace ua::test {

struct AlarmsTestServer {
    static NodeId tankLevel() { return NodeId(1, "Alarms/TankLevel"); }
    static NodeId pump() { return NodeId(1, "Alarms/PumpOffNormal"); }

    // port 0: any free port.
    static ServerConfig config(quint16 port = 0) {
        ServerConfig cfg;
        cfg.port = port;
        cfg.hostName = QStringLiteral("127.0.0.1");
        cfg.listenAddress = QHostAddress::LocalHost;
        cfg.ioThreads = 1;
        cfg.benchmarkVariables = 0;
        cfg.demoNamespace = true;
        cfg.alarmPollMs = 20;
        cfg.security.users.anonymousRoles |= roleBit(Role::Operator);
        AlarmDefinition level;
        level.name = "TankLevel";
        level.namespaceUri = "urn:ua-workbench:demo";
        level.input = NodeId(0, String("Demo.Scalars.Double"));
        level.kind = AlarmKind::ExclusiveLevel;
        level.high = 10;
        level.highHigh = 20;
        level.severity = 600;
        level.criticalSeverity = 900;
        cfg.alarms.push_back(level);
        AlarmDefinition pump;
        pump.name = "PumpOffNormal";
        pump.namespaceUri = "urn:ua-workbench:demo";
        pump.input = NodeId(0, String("Demo.Scalars.Boolean"));
        pump.kind = AlarmKind::OffNormal;
        pump.stateValue = Variant(false);
        pump.severity = 300;
        pump.message = "the pump is off normal";
        cfg.alarms.push_back(pump);
        return cfg;
    }
};

} // namespace ua::test

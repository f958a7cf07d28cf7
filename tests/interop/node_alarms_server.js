#!/usr/bin/env node
// A node-opcua server with an exclusive-limit alarm (node-opcua implements OPC 10000-9), for our
// client's Alarms and Conditions against a real peer (tests/client/tst_client_alarms_vs_node.cpp,
// tests/clientapp/cli/tst_cli_alarms.cpp; issue 31 item 4):
//   node node_alarms_server.js <port>
// In the namespace "urn:ua-workbench:test:alarms":
//   s=Tank                 an Object, event notifier of the Server object
//   s=TankLevel            a writable Double (0..100, starts at 50), an event source of Tank
//   s=TankLevelAlarm       an ExclusiveLimitAlarmType condition on TankLevel (InputNode and
//                          SourceNode): LowLow 10, Low 20, High 80, HighHigh 90, with the optional
//                          ConfirmedState and Confirm and the ShelvingState (its Methods below
//                          s=TankLevelAlarm-ShelvingState); ConditionName "TankLevelAlarm"
// Write TankLevel to move the alarm. ConditionRefresh works (installAlarmsAndConditionsService).
// Prints "READY <port> <ns>", then serves until stdin closes or SIGTERM.
"use strict";
const { logToStderr, serve, runMain } = require("./node_test_server");
logToStderr();

const fs = require("fs");
const os = require("os");
const path = require("path");
const { OPCUAServer, OPCUACertificateManager, DataType, MessageSecurityMode, SecurityPolicy } = require("node-opcua");

async function main() {
    const port = Number(process.argv[2] || 0);
    const pki = fs.mkdtempSync(path.join(os.tmpdir(), "ua-node-alarms-"));
    const server = new OPCUAServer({
        port,
        securityPolicies: [SecurityPolicy.None],
        securityModes: [MessageSecurityMode.None],
        allowAnonymous: true,
        serverCertificateManager: new OPCUACertificateManager({ automaticallyAcceptUnknownCertificate: true, rootFolder: pki }),
        serverInfo: { applicationUri: "urn:ua-workbench:node-opcua-alarms" },
    });
    await server.initialize();
    const addressSpace = server.engine.addressSpace;
    // Without it ConditionRefresh answers Bad_InternalError.
    addressSpace.installAlarmsAndConditionsService();
    const namespace = addressSpace.registerNamespace("urn:ua-workbench:test:alarms");
    const tank = namespace.addObject({
        nodeId: "s=Tank", browseName: "Tank", eventNotifier: 0x01,
        notifierOf: addressSpace.rootFolder.objects.server, organizedBy: addressSpace.rootFolder.objects,
    });
    const rw = "CurrentRead | CurrentWrite";
    const level = namespace.addVariable({
        nodeId: "s=TankLevel", browseName: "TankLevel", componentOf: tank, eventSourceOf: tank, dataType: "Double",
        accessLevel: rw, userAccessLevel: rw, value: { dataType: DataType.Double, value: 50 },
    });
    const alarm = namespace.instantiateExclusiveLimitAlarm(addressSpace.findEventType("ExclusiveLimitAlarmType"), {
        nodeId: "s=TankLevelAlarm", browseName: "TankLevelAlarm", conditionName: "TankLevelAlarm", componentOf: tank,
        conditionSource: level, inputNode: level,
        lowLowLimit: 10, lowLimit: 20, highLimit: 80, highHighLimit: 90,
        optionals: ["ConfirmedState", "Confirm", "ShelvingState"],
    });
    // node-opcua leaves the ShelvingState machine without a state (TimedShelve would answer
    // Bad_ConditionAlreadyShelved, OneShotShelve Bad_InternalError): start it Unshelved.
    alarm.shelvingState.setState("Unshelved");
    await serve(server, { tmpDir: pki, extra: `${namespace.index}` });
}

runMain("node_alarms_server.js", main);

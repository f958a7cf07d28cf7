// The commands of the command line, one file each (Command<Name>.cpp). Each checks its arguments
// (a usage error finishes with ExitUsage before anything is sent), connects through the CliSession
// when it needs a Session, prints its results (text, or one JSON document with --json) and
// finishes the session with its exit code.
#pragma once

#include <cstdint>

namespace ua {
class NodeId;
enum class AlarmMethod : uint8_t;
}

namespace ua::clientapp {

class CliSession;
struct NodeArgument;

void runDiscover(CliSession& session);   // FindServers + GetEndpoints (OPC 10000-4 5.4.2, 5.4.4)
void runBrowse(CliSession& session);     // Browse + BrowseNext (5.8.2, 5.8.3)
void runRead(CliSession& session);       // Read (5.10.2)
void runWrite(CliSession& session);      // Write (5.10.4)
void runSubscribe(CliSession& session);  // CreateSubscription + CreateMonitoredItems + Publish (5.13, 5.12)
void runCall(CliSession& session);       // Call (5.11.2)
void runAddNode(CliSession& session);    // AddNodes (5.8.2)
void runDeleteNode(CliSession& session); // DeleteNodes (5.8.4)
void runExportNodeSet(CliSession& session);  // Browse + Read of a namespace, written as NodeSet2 (OPC 10000-6 Annex F)
void runHistory(CliSession& session);    // HistoryRead: raw, modified, processed, at time, events (5.11.3; OPC 10000-11)
// Read Event of a notifier (history --events; OPC 10000-11 6.5.2), called by runHistory.
void runHistoryEvents(CliSession& session, const NodeArgument& node, const NodeId& id);
void runAlarms(CliSession& session);     // the retained conditions: an event item + ConditionRefresh (OPC 10000-9 4.5, 5.5.7)
// ack / confirm: Acknowledge or Confirm of a condition's event (OPC 10000-9 5.7.3, 5.7.4).
void runAcknowledge(CliSession& session, AlarmMethod method);

} // namespace ua::clientapp

// The DiagnosticsPoller constructor that polls a ServerDiagnostics, in a file of its own so that
// users of the other constructor (tests with hand-made snapshots) do not link ServerDiagnostics.
#include "models/DiagnosticsPoller.h"
#include "ua/server/diagnostics/ServerDiagnostics.h"

namespace ua::serverapp {

DiagnosticsPoller::DiagnosticsPoller(ServerDiagnostics& diagnostics, QObject* parent)
    : DiagnosticsPoller(
          [&diagnostics](QObject* receiver, int maxAgeMs, std::function<void(DiagnosticsSnapshotPtr)> done) {
              diagnostics.requestSnapshot(receiver, std::move(done), maxAgeMs);
          },
          parent) {}

} // namespace ua::serverapp

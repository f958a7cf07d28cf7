// Until ua::Client::discover is implemented (branch ccore): discover reports that it is missing.
#include "cli/CliSession.h"
#include "cli/Commands.h"

namespace ua::clientapp {

void runDiscover(CliSession& s) {
    s.fail(ExitOperationFailed, QStringLiteral("discover: %1: not available in this build (ua::Client::discover)").arg(s.url()));
}

} // namespace ua::clientapp

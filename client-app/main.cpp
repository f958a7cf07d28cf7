// ua-client: until the client exists (issue 7), it prints its version and the codec's coverage.
#include "ua/Version.h"
#include "ua/encoding/DataTypeInfo.h"

#include <cstdio>

int main() {
    std::printf("ua-client %s (UA Binary codec: %zu structured types)\n", UA_WORKBENCH_VERSION,
                ua::generatedDataTypes().size());
    return 0;
}

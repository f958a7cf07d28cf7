// ua-server: until the server exists (issue 3), it prints its version and the codec's coverage.
#include "ua/Version.h"
#include "ua/encoding/DataTypeInfo.h"

#include <cstdio>

int main() {
    std::printf("ua-server %s (UA Binary codec: %zu structured types)\n", UA_WORKBENCH_VERSION,
                ua::generatedDataTypes().size());
    return 0;
}

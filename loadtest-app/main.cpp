// ua-loadtest: until the load tester exists (issue 8), it prints its version and the codec's coverage.
#include "ua/Version.h"
#include "ua/encoding/DataTypeInfo.h"

#include <cstdio>

int main() {
    std::printf("ua-loadtest %s (UA Binary codec: %zu structured types)\n", UA_WORKBENCH_VERSION,
                ua::generatedDataTypes().size());
    return 0;
}

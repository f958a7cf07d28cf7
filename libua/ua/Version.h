// The version of UA Workbench (set by the top-level CMakeLists.txt).
#pragma once

#define UA_WORKBENCH_VERSION "0.1.0"

// Implementation pending (issue 8, being built on a branch).
#include "LatencyHistogram.h"

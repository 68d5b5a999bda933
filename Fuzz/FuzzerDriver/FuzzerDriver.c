// Declarations only (include/FuzzerDriver.h); libFuzzer defines them.
#include "FuzzerDriver.h"

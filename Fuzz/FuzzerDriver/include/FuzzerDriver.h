// libFuzzer's entry point for a program with a main of its own (libclang_rt.fuzzer_no_main):
// the CI smoke build links that archive, as its modules are instrumented one by one rather than
// by SwiftPM's --sanitize=fuzzer (scripts/fuzz.sh --quick).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

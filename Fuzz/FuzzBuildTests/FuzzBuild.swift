// No tests: `scripts/fuzz.sh --quick` builds the fuzz harness with `swift test -c release`, the
// command that built the tests, so that the dependencies keep the flags they were built with
// (testable imports) and are not built again; this target stands in for the tests it leaves out.

import Testing

/// Tags to select tests by what they need: `swift test --filter` by name, or in Xcode and
/// `swift test --skip` / `--filter` with `.tags(...)` traits listed by `swift test list`.
extension Tag {
    /// Reads the real data in `../shared/data` in place.
    @Tag public static var sharedData: Self
    /// Needs a PostgreSQL server (`TRAINTRACKER_TEST_POSTGRES`, `scripts/test-postgres.sh`).
    @Tag public static var postgres: Self
    /// Drives headless Chromium.
    @Tag public static var browser: Self
    /// Starts a server process or runs for tens of seconds.
    @Tag public static var slow: Self
}

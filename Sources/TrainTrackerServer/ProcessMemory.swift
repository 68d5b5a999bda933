import Foundation

/// The server process's memory, for `GET /v1/stats`.
enum ProcessMemory {
    /// Resident memory in bytes (Linux: `/proc/self/statm`; elsewhere 0).
    static var residentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

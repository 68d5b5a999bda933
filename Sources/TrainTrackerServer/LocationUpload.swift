import Foundation
import NIOCore
import TrainTrackerCore

/// The body of `POST /v1/sessions/{id}/locations` read into clean fixes and the skipped ones
/// with their reasons: the upload's whole reading of outside input, apart from the HTTP.
///
///     let upload = try LocationUpload(body: buffer, limits: UploadLimits(), maximumIDBytes: 128)
///     store(upload.fixes); answer(upload.skips.json)
///
/// - Complexity: O(n log n) for n fixes.
public struct LocationUpload: Sendable {
    /// The fixes to store, checked and in time order.
    public let fixes: [RecordedFix]
    /// The fixes skipped, with why.
    public let skips: SkipList

    /// Reads `body`.
    ///
    /// - Throws: `HTTPError` 400 when the body is not a JSON object with a `locations` array,
    ///   413 when the array is longer than `limits.maximumBatch`.
    public init(body: ByteBuffer, limits: UploadLimits, maximumIDBytes: Int) throws {
        let batch = try UploadBody.decode(LocationBatch.self, from: body, maximumBatch: limits.maximumBatch)
        try UploadBody.checkCount(batch.locations.count, of: "locations", limits: limits)
        var skips = SkipList()
        var raw: [RawFix] = []
        var indexOfID: [String: Int] = [:]
        for (index, payload) in batch.locations.elements.enumerated() {
            switch payload.raw(maximumIDBytes: maximumIDBytes) {
            case .success(let fix):
                raw.append(fix)
                if indexOfID[fix.id] == nil { indexOfID[fix.id] = index }
            case .failure(let problem): skips.add(index: index, id: payload.id, problem, field: payload.badField?.name)
            }
        }
        let (fixes, report) = FixSanitizer.clean(raw)
        for item in report.skippedFixes { skips.add(index: indexOfID[item.id], id: item.id, item.problem) }
        skips.count += report.skipped - report.skippedFixes.count
        self.fixes = fixes
        self.skips = skips
    }
}

/// The fixes a batch skipped, with why: every one counted, the first 100 listed.
public struct SkipList: Sendable {
    /// How many fixes were skipped.
    public internal(set) var count = 0
    private var items: [String] = []

    mutating func add(index: Int?, id: String?, _ problem: FixProblem, field: String? = nil) {
        count += 1
        guard items.count < FixSanitizer.maximumListedSkips else { return }
        var object = JSONObjectWriter()
        object.integer("index", index)
        // An overlong id is not sent back: the reason says enough.
        object.string("id", problem == .overlongID ? nil : id)
        object.string("reason", problem.rawValue)
        if let field { object.string("field", field) }
        items.append(object.finish())
    }

    /// `[{"index", "id", "reason", "field"?}, ...]` (`field` names the field at fault when
    /// one held the wrong type or an unreadable number).
    public var json: String { JSONObjectWriter.array(items) }
}

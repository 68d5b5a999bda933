import Foundation
import Hummingbird
import NIOCore

/// Reading a request body: at most `UploadLimits.maximumBodyBytes`, JSON, with a 400 that
/// names the field at fault.
enum UploadBody {
    /// The whole body, or 413 past the limit.
    static func collect(_ request: inout Request, limits: UploadLimits) async throws -> ByteBuffer {
        do {
            return try await request.collectBody(upTo: limits.maximumBodyBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw HTTPError(
                .contentTooLarge, message: "request body exceeds the limit of \(limits.maximumBodyBytes) bytes")
        }
    }

    /// 413 for a batch of more than `UploadLimits.maximumBatch` items.
    static func checkCount(_ count: Int, of what: String, limits: UploadLimits) throws {
        guard count <= limits.maximumBatch else {
            throw HTTPError(
                .contentTooLarge, message: "batch of \(count) \(what) exceeds the limit of \(limits.maximumBatch)")
        }
    }

    /// Where a `BoundedArray` finds how many elements it decodes.
    // swift-format-ignore: NeverForceUnwrap
    static let maximumBatchKey = CodingUserInfoKey(rawValue: "maximumBatch")!  // a constant name: never nil

    /// The body decoded as `T` (its `BoundedArray`s decoding at most `maximumBatch` elements),
    /// or 400 naming what is missing or of the wrong type.
    static func decode<T: Decodable>(_ type: T.Type, from body: ByteBuffer, maximumBatch: Int = .max) throws -> T {
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[maximumBatchKey] = maximumBatch
            return try decoder.decode(T.self, from: Data(buffer: body))
        } catch let DecodingError.keyNotFound(key, context) {
            throw HTTPError(.badRequest, message: "missing field '\(path(context.codingPath + [key]))'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw HTTPError(.badRequest, message: "wrong type at '\(path(context.codingPath))'")
        } catch let DecodingError.valueNotFound(_, context) {
            throw HTTPError(.badRequest, message: "null at '\(path(context.codingPath))'")
        } catch {
            throw HTTPError(.badRequest, message: "body is not JSON")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
    }
}

import Foundation
import GRDB
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerStorage

/// Tokens fail closed: a revocation or expiry the server cannot read counts as in the past.
@Suite struct TokenStoreTests {
    @Test(arguments: ["revokedAt", "expiresAt"])
    func anUnreadableDateRevokesTheToken(column: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("sessions.sqlite")
        let store = try SessionDatabase.openStore(path: path)
        let now = Timestamp(secondsSince1970: 1_758_500_000)
        try store.storeToken(hash: "abcdef0123456789", grant: AccessGrant(role: .device, name: "p"), at: now)
        #expect(try store.grant(tokenHash: "abcdef0123456789", at: now.adding(1)) != nil)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE serverAccessToken SET \(column) = 'soon'")
        }
        #expect(try store.grant(tokenHash: "abcdef0123456789", at: now.adding(1)) == nil)
    }
}

import Foundation
import Hummingbird
import Synchronization
import TrainTrackerCore

/// The Session Viewer's logins: an admin token is exchanged once for a random cookie value
/// (`HttpOnly; SameSite=Strict`), so the page never holds the token, in the URL, in storage or
/// in script. A login lives `ServerLimits.viewerLoginSeconds` and ends with the token: every
/// request reads the token's grant again. Logins are kept in memory (a restart logs the
/// viewers out); at most `maximumLogins` at once, the oldest dropped first.
///
/// A login ticket is the same exchange for a link: an admin asks `POST /v1/login-tickets` for
/// a ticket that works once, within a minute, at `GET /login?ticket=…`.
final class ViewerLogins: Sendable {
    /// The cookie's name.
    static let cookieName = "tt_viewer"
    /// The most logins kept at once.
    static let maximumLogins = 10_000
    /// How long a ticket works.
    static let ticketSeconds: Seconds = 60

    private struct Login {
        var tokenHash: String
        var expires: ContinuousClock.Instant
    }

    private let lifetime: Duration
    private let logins = Mutex<[String: Login]>([:])
    private let tickets = Mutex<[String: Login]>([:])

    /// Logins that last `lifetime` seconds.
    init(lifetime: Seconds) {
        self.lifetime = .seconds(lifetime)
    }

    /// A new login for the token with hash `tokenHash`: the cookie value.
    func logIn(tokenHash: String) -> String {
        let value = Self.randomValue()
        let now = ContinuousClock.now
        logins.withLock { logins in
            if logins.count >= Self.maximumLogins {
                logins = logins.filter { $0.value.expires > now }
                if logins.count >= Self.maximumLogins, let oldest = logins.min(by: { $0.value.expires < $1.value.expires }) {
                    logins[oldest.key] = nil
                }
            }
            logins[value] = Login(tokenHash: tokenHash, expires: now + lifetime)
        }
        return value
    }

    /// The token hash behind a cookie value, while the login lasts.
    func tokenHash(of cookie: String) -> String? {
        logins.withLock { logins in
            guard let login = logins[cookie] else { return nil }
            guard login.expires > .now else {
                logins[cookie] = nil
                return nil
            }
            return login.tokenHash
        }
    }

    /// Ends the login of a cookie value.
    func logOut(_ cookie: String) { _ = logins.withLock { $0.removeValue(forKey: cookie) } }

    /// A ticket that logs in as the token with hash `tokenHash`, once, within `ticketSeconds`.
    func ticket(tokenHash: String) -> String {
        let value = Self.randomValue()
        let now = ContinuousClock.now
        tickets.withLock { tickets in
            tickets = tickets.filter { $0.value.expires > now }
            if tickets.count >= Self.maximumLogins { tickets.removeAll() }
            tickets[value] = Login(tokenHash: tokenHash, expires: now + .seconds(Int64(Self.ticketSeconds)))
        }
        return value
    }

    /// The token hash of a ticket, which is used up by asking.
    func redeem(ticket: String) -> String? {
        tickets.withLock { tickets in
            guard let login = tickets.removeValue(forKey: ticket), login.expires > .now else { return nil }
            return login.tokenHash
        }
    }

    /// The cookie that carries a login, or (with `value` nil) ends it in the browser.
    func cookie(_ value: String?, secure: Bool) -> Cookie {
        Cookie(
            name: Self.cookieName, value: value ?? "", maxAge: value == nil ? 0 : Int(lifetime.components.seconds), path: "/",
            secure: secure, httpOnly: true, sameSite: .strict)
    }

    private static func randomValue() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(UInt8.random(in: .min ... .max, using: &generator), radix: 16).leftPadded(2) }
            .joined()
    }
}

import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerRealtime
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerLab

/// The Session Viewer as a person uses it, in headless Chromium against a running server with
/// a real ride on the Tokyo network: open a session, read the rider's view, play, step with
/// the keys, click a station and read its story, follow a live session while a phone uploads,
/// search and delete in the session list, at 1024 px and on a large screen. Each state is
/// kept as a screenshot (`scripts/screenshots.sh` copies them into `docs/`).
@Suite(.serialized, .tags(.sharedData, .browser, .slow), .timeLimit(.minutes(10))) struct ViewerBrowserTests {
    /// Where the screenshots go.
    static let pictures: URL = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/test-artifacts/viewer")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func picture(_ name: String) -> String { pictures.appendingPathComponent(name).path }

    /// The viewer logged in and showing `session`.
    static func openViewer(
        _ live: LiveFixture, session: String, width: Int = 1400, height: Int = 1000
    ) async throws -> HeadlessBrowser {
        let browser = try HeadlessBrowser(width: width, height: height)
        try browser.open(try await LiveServerTests.loginLink(server: live.server, admin: live.admin, session: session))
        try browser.wait(for: "document.querySelector('#rider .rider-name')")
        return browser
    }

    /// A session `session` holding the demonstration ride's first 200 fixes, open in the viewer.
    static func openFirstBatch(_ live: LiveFixture, session: String) async throws -> HeadlessBrowser {
        let phone = APIClient(server: live.server, token: live.phone)
        _ = try await phone.request(.POST, "/v1/sessions", body: "{\"id\":\"\(session)\"}")
        let batches = try LiveServerTests.rideBatches(prefix: session, batch: 200)
        #expect(try await phone.request(.POST, "/v1/sessions/\(session)/locations", body: batches[0]).status == .ok)
        return try await openViewer(live, session: session)
    }

    /// The index of the selected row of the fixes table.
    static let selectedFix =
        "[...document.querySelectorAll('#fixes tbody tr')].findIndex((row) => row.classList.contains('selected'))"

    @Test func aRideReadsAsTheRiderSawItAndPlaysWithTheKeys() async throws {
        let live = try LiveFixture()
        defer { live.server.stop() }
        let phone = APIClient(server: live.server, token: live.phone)
        _ = try await phone.request(
            .POST, "/v1/sessions", body: #"{"id":"VIEW-1","startDate":"2025-09-20T08:00:00Z","notes":"Hiyoshi to Kikuna"}"#)
        let batches = try LiveServerTests.rideBatches(prefix: "VIEW-1", batch: 200)
        for body in batches { #expect(try await phone.request(.POST, "/v1/sessions/VIEW-1/locations", body: body).status == .ok) }
        #expect(try await phone.request(.POST, "/v1/sessions/VIEW-1/end").status == .ok)
        let browser = try await Self.openViewer(live, session: "VIEW-1")

        // The rider's view at the last fix: the line, where it goes, and the phase at Kikuna.
        let rider = try browser.text("document.getElementById('rider').innerText")
        #expect(rider.contains("Toyoko Line"), "\(rider)")
        #expect(rider.contains("→ Yokohama"), "\(rider)")
        #expect(["Next", "Soon", "Now"].contains { rider.contains($0) }, "\(rider)")
        // The list names the session with its notes and device, the line the tracker found.
        let row = try browser.text("document.querySelector('#sessions tr[data-id=\"VIEW-1\"]').innerText")
        #expect(row.contains("Hiyoshi to Kikuna") && row.contains("phone-1") && row.contains("Toyoko Line"), "\(row)")
        // Directions by their names, never raw ids; the score's units explained.
        let answer = try browser.text("document.getElementById('answer').innerText")
        #expect(answer.contains("→ Yokohama"), "\(answer)")
        #expect(try browser.text("document.querySelector('#candidates td.score').title").contains("nats"))
        // The offline base map: the whole network on a canvas under the ride, station names.
        #expect(try browser.evaluate("!!document.querySelector('.leaflet-base-pane canvas')") as? Bool == true)
        try browser.wait(for: "document.querySelectorAll('.place-label').length > 3")
        // The score chart: a line per leading candidate, the selected fix marked.
        #expect(try browser.number("document.querySelectorAll('#score-chart path.series').length") >= 1)
        let markAtEnd = try browser.number("Number(document.getElementById('chart-marker').getAttribute('x1'))")

        // The station story of the Toyoko Line towards Yokohama.
        let story = try #require(
            try browser.evaluate(
                "[...document.querySelectorAll('#stations li')].map((item) => [item.querySelector('.name').textContent, item.className])"
            )
                as? [[String]])
        let status = Dictionary(story.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        #expect(story.first?.first == "Shibuya", "travel order from Shibuya: \(story.map { $0[0] })")
        #expect(status["Shibuya"]?.contains("not-reached") == true, "\(status)")
        #expect(status["Yokohama"]?.contains("not-reached") == true, "\(status)")
        #expect(status["Hiyoshi"]?.contains("departed") == true, "\(status)")
        #expect(status["Tsunashima"]?.contains("visited") == true, "\(status)")
        #expect(status["Kikuna"].map { $0.contains("here") || $0.contains("visited") } == true, "\(status)")
        try browser.screenshot(Self.picture("viewer-session.png"))

        // A click on a station: its phases with times, the deciding fixes circled on the map.
        try browser.click("#stations li[data-station='Tokyu.Toyoko.Tsunashima'] .name")
        try browser.wait(for: "document.querySelector('#station-detail h3')?.textContent === 'Tsunashima'")
        let detail = try browser.text("document.getElementById('station-detail').innerText")
        #expect(detail.contains("approaching") && detail.contains("visiting") && detail.contains("departure"), "\(detail)")
        #expect(detail.contains("visited") && detail.contains("stood"), "\(detail)")
        let rows = try browser.number("document.querySelectorAll('#station-detail tr').length")
        #expect(rows == 3)
        #expect(try browser.number("document.querySelectorAll('path.story-ring').length") == rows)
        try browser.screenshot(Self.picture("viewer-station-story.png"))

        // Home goes to the first fix, Space plays: the table and the rider's view follow.
        try browser.press("Home")
        try browser.wait(for: "\(Self.selectedFix) === 0")
        // The story so far: at the first fix, Kikuna is still ahead.
        #expect(
            try browser.text("document.querySelector('#stations li[data-station=\"Tokyu.Toyoko.Kikuna\"]').className").contains(
                "not-reached"))
        // Nothing missing is ever written out as "null" or "undefined".
        let page = try browser.text("document.body.innerText")
        #expect(!page.contains("null") && !page.contains("undefined"), "\(page)")
        let riderAtStart = try browser.text("document.getElementById('rider').innerText")
        try browser.press(" ")
        #expect(try browser.text("document.getElementById('play').getAttribute('aria-pressed')") == "true")
        try browser.wait(for: "\(Self.selectedFix) >= 40", timeout: 60)
        try browser.wait(for: "document.getElementById('rider').innerText !== \(riderAtStart.jsonQuoted)")
        try browser.press(" ")
        #expect(try browser.text("document.getElementById('play').getAttribute('aria-pressed')") == "false")
        // The selected row is in view inside the table's scroll box.
        let inView =
            try browser.evaluate(
                """
                (() => { const box = document.getElementById('fixes-scroll').getBoundingClientRect();
                  const row = document.querySelector('#fixes tr.selected').getBoundingClientRect();
                  return row.top >= box.top && row.bottom <= box.bottom; })()
                """) as? Bool
        #expect(inView == true)
        let paused = Int(try browser.number(Self.selectedFix))
        try browser.press("ArrowRight")
        try browser.wait(for: "\(Self.selectedFix) === \(paused + 1)")
        try browser.press("ArrowLeft")
        try browser.wait(for: "\(Self.selectedFix) === \(paused)")
        #expect(try browser.number("Number(document.getElementById('chart-marker').getAttribute('x1'))") < markAtEnd)
        #expect(try browser.text("document.getElementById('clock').textContent").contains("fix \(paused + 1)/"))
        try browser.screenshot(Self.picture("viewer-playback.png"))

        // From 1024 px wide to a large screen: nothing cut off, the score column inside its panel.
        for (width, height) in [(1024, 768), (1920, 1080)] {
            try browser.viewport(width: width, height: height)
            try browser.wait(for: "window.innerWidth === \(width)")
            let fits =
                try browser.evaluate(
                    """
                    (() => { const panel = document.getElementById('inspector').getBoundingClientRect();
                      const score = document.querySelector('#candidates th.score').getBoundingClientRect();
                      const rider = document.querySelector('#rider .rider-station').getBoundingClientRect();
                      const map = document.getElementById('map-panel').getBoundingClientRect();
                      return document.documentElement.scrollWidth <= window.innerWidth && score.right <= panel.right + 1
                        && panel.right <= window.innerWidth && rider.right <= map.right; })()
                    """) as? Bool
            #expect(fits == true, "layout at \(width) px")
            try browser.screenshot(Self.picture("viewer-\(width).png"))
        }
    }

    @Test func aLiveSessionGrowsWithoutReloadingAndTheListFindsAndDeletes() async throws {
        let live = try LiveFixture()
        defer { live.server.stop() }
        let phone = APIClient(server: live.server, token: live.phone)
        _ = try await phone.request(.POST, "/v1/sessions", body: #"{"id":"LIVE-2","notes":"followed live"}"#)
        _ = try await phone.request(.POST, "/v1/sessions", body: #"{"id":"OLD-1","notes":"Tamagawa test ride"}"#)
        let batches = try LiveServerTests.rideBatches(prefix: "LIVE-2", batch: 40)
        #expect(try await phone.request(.POST, "/v1/sessions/OLD-1/locations", body: batches[0]).status == .ok)
        #expect(try await phone.request(.POST, "/v1/sessions/OLD-1/end").status == .ok)
        for body in batches.prefix(3) {
            #expect(try await phone.request(.POST, "/v1/sessions/LIVE-2/locations", body: body).status == .ok)
        }
        // Enough sessions for two pages of the list (50 a page).
        let operator_ = APIClient(server: live.server, token: live.admin)
        for index in 1...55 {
            let id = "BULK-\(String(index).leftPadded(2))"
            _ = try await operator_.request(
                .POST, "/v1/sessions", body: "{\"id\":\"\(id)\",\"startDate\":\"2025-01-01T00:00:00Z\"}")
            _ = try await operator_.request(.POST, "/v1/sessions/\(id)/end")
        }
        let browser = try await Self.openViewer(live, session: "LIVE-2")
        #expect(try browser.text("document.getElementById('page-info').textContent") == "1–50 of 57")
        try browser.click("#page-next")
        try browser.wait(for: "document.getElementById('page-info').textContent === '51–57 of 57'")
        #expect(try browser.number("document.querySelectorAll('#sessions tbody tr[data-id^=\"BULK-\"]').length") == 7)
        try browser.click("#page-prev")
        try browser.wait(for: "document.getElementById('page-info').textContent === '1–50 of 57'")
        try browser.wait(for: "document.querySelectorAll('#fixes tbody tr').length === 120")
        #expect(try browser.text("document.querySelector('#sessions tr[data-id=\"LIVE-2\"]').className").contains("live"))
        #expect(!(try browser.text("document.querySelector('#sessions tr[data-id=\"OLD-1\"]').className").contains("live")))

        // Another phone starts a session meanwhile: the list shows it without a reload.
        _ = try await phone.request(.POST, "/v1/sessions", body: #"{"id":"LATE-1","notes":"started while watching"}"#)
        // The phone uploads the rest: every answer is appended, none reloaded.
        var total = 120
        for body in batches.dropFirst(3) {
            let reply = try await phone.request(.POST, "/v1/sessions/LIVE-2/locations", body: body)
            #expect(reply.status == .ok)
            total += reply.json?["accepted"] as? Int ?? 0
        }
        try browser.wait(for: "document.querySelectorAll('#fixes tbody tr').length === \(total)")
        try browser.wait(for: "\(Self.selectedFix) === \(total - 1)")
        let loads = try browser.number(
            "performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/results')).length")
        #expect(loads == 1, "the session was loaded once, then followed")
        #expect(try browser.text("document.getElementById('rider').innerText").contains("Toyoko Line"))
        try browser.wait(for: "document.querySelector('#sessions tr[data-id=\"LATE-1\"]')", timeout: 40)
        try browser.screenshot(Self.picture("viewer-live.png"))
        #expect(try await phone.request(.POST, "/v1/sessions/LIVE-2/end").status == .ok)
        try browser.wait(for: "document.getElementById('status').textContent.includes('live stream ended (session ended)')")

        // Search finds a session by its notes; a confirmed delete removes it from the store.
        try browser.click("#search")
        try browser.type("tamagawa")
        try browser.wait(for: "document.querySelectorAll('#sessions tbody tr').length === 1")
        #expect(try browser.text("document.querySelector('#sessions tbody tr').dataset.id") == "OLD-1")
        try browser.click("#sessions tr[data-id='OLD-1'] button.delete")
        try browser.wait(for: "document.getElementById('confirm-delete').open")
        #expect(try browser.text("document.getElementById('confirm-text').textContent").contains("OLD-1 and its 40 fixes"))
        try browser.screenshot(Self.picture("viewer-delete.png"))
        try browser.click("#confirm-ok")
        try browser.wait(for: "document.querySelectorAll('#sessions tbody tr').length === 0")
        let stored = try SessionDatabase.open(path: live.db).sessions().map(\.session.id)
        #expect(stored.filter { !$0.hasPrefix("BULK-") }.sorted() == ["LATE-1", "LIVE-2"])
        #expect(try SessionDatabase.open(path: live.db).rawFixes(sessionID: "OLD-1").isEmpty)
    }

    @Test func aRideOnTheYamanoteLoopReadsInOnePiece() async throws {
        let live = try LiveFixture()
        defer { live.server.stop() }
        let network = try LiveServerTests.network.get()
        // From Tamachi to Osaki, the station the line's list begins and ends with.
        let fixes = try JourneySimulator(network: network).journey(
            on: "JR-East.Yamanote", from: "JR-East.Yamanote.Tamachi", to: "JR-East.Yamanote.Osaki",
            start: Timestamp(secondsSince1970: 1_758_355_200))
        let phone = APIClient(server: live.server, token: live.phone)
        _ = try await phone.request(.POST, "/v1/sessions", body: #"{"id":"LOOP-1"}"#)
        let items = fixes.enumerated().map { index, fix in
            locationJSON(
                id: "LOOP-\(index)", latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude,
                timestamp: fix.timestamp.iso8601, accuracy: fix.horizontalAccuracy, speed: fix.speed, course: fix.course)
        }
        for start in stride(from: 0, to: items.count, by: 500) {
            let body = "{\"locations\":[" + items[start..<min(items.count, start + 500)].joined(separator: ",") + "]}"
            #expect(try await phone.request(.POST, "/v1/sessions/LOOP-1/locations", body: body).status == .ok)
        }
        let browser = try await Self.openViewer(live, session: "LOOP-1")
        #expect(try browser.text("document.getElementById('rider').innerText").contains("Yamanote Line"))
        let names = try #require(
            try browser.evaluate("[...document.querySelectorAll('#stations li .name')].map((item) => item.textContent)")
                as? [String])
        #expect(Set(names).count == names.count, "each station once: \(names)")
        let (tamachi, osaki) = (names.firstIndex(of: "Tamachi"), names.firstIndex(of: "Osaki"))
        #expect(tamachi != nil && osaki != nil && tamachi! < osaki!, "in the order ridden: \(names)")
        let kinds = try #require(
            try browser.evaluate(
                "Object.fromEntries([...document.querySelectorAll('#stations li')].map((item) => [item.querySelector('.name').textContent, item.className]))"
            )
                as? [String: String])
        // The simulated train goes the long way round (the line's list runs Osaki … Shinagawa,
        // Osaki): departed Tamachi, stopped at every station to Osaki, never reached Shinagawa.
        #expect(kinds["Tamachi"]?.contains("departed") == true, "\(kinds)")
        #expect(kinds["Osaki"]?.contains("here") == true, "\(kinds)")
        #expect(kinds["Shinagawa"]?.contains("not-reached") == true, "\(kinds)")
        if let tamachi, let osaki {
            let between = names[(tamachi + 1)..<osaki]
            #expect(between.count == 26 && between.allSatisfy { kinds[$0]?.contains("visited") == true }, "\(kinds)")
        }
    }

    @Test func aGapInTheFixesIsPlayedAsTheTrackerEstimatesIt() async throws {
        let live = try LiveFixture()
        defer { live.server.stop() }
        let phone = APIClient(server: live.server, token: live.phone)
        _ = try await phone.request(.POST, "/v1/sessions", body: #"{"id":"GAP-1"}"#)
        // The Toyoko ride with 90 s of fixes lost, as in a tunnel.
        let bodies = try LiveServerTests.rideBatches(prefix: "GAP-1", batch: 10)
        for (index, body) in bodies.enumerated() where !(15..<24).contains(index) {
            #expect(try await phone.request(.POST, "/v1/sessions/GAP-1/locations", body: body).status == .ok)
        }
        let browser = try await Self.openViewer(live, session: "GAP-1")
        #expect(try browser.text("document.getElementById('rider').className").contains("muted") == false)
        // Played from just before the gap at 60×: the rider's view turns muted and says so.
        try browser.evaluate("document.getElementById('rate').value = '60'")
        try browser.click("#fixes tbody tr:nth-child(148) td")
        try browser.wait(for: "\(Self.selectedFix) === 147")
        try browser.press(" ")
        try browser.wait(for: "document.getElementById('rider').className.includes('muted')", timeout: 30)
        let rider = try browser.text("document.getElementById('rider').innerText")
        #expect(rider.contains("Estimated: no fix for") && rider.contains("Toyoko Line"), "\(rider)")
        #expect(try browser.text("document.getElementById('clock').textContent").contains("no fix since fix 150"))
        try browser.screenshot(Self.picture("viewer-estimated.png"))
        // After the gap, fixes again: no longer muted.
        try browser.wait(
            for: "\(Self.selectedFix) >= 152 && !document.getElementById('rider').className.includes('muted')", timeout: 30)
        try browser.press(" ")
    }

    @Test func withTimetablesTheRiderSeesTheTrainTypeAndTheArrivalTime() async throws {
        // A timetabled Toyoko or Meguro train, simulated on the mini-tokyo-3d timetables.
        let rides = try TemporaryDirectory()
        let simulated = await try ToolRunner.run([
            "simulate", "--railways", SharedPaths.miniTokyo3D, "--out", rides.path("rides"), "--scenario", "toyoko-meguro",
            "--count", "1", "--seed", "11",
        ])
        #expect(simulated.status == 0, "\(simulated.standardError)")
        let recorded = try SessionDatabase.open(path: rides.path("rides/sessions.sqlite"))
        let session = try #require(try recorded.sessions().first?.session)
        let fixes = try recorded.fixes(sessionID: session.id).fixes
        let live = try LiveFixture(railways: SharedPaths.miniTokyo3D)
        defer { live.server.stop() }
        let phone = APIClient(server: live.server, token: live.phone)
        _ = try await phone.request(
            .POST, "/v1/sessions", body: "{\"id\":\"TIMED-1\",\"startDate\":\"\(session.startDate.iso8601)\"}")
        let items = fixes.map { fix in
            locationJSON(
                id: fix.id, latitude: fix.location.coordinate.latitude, longitude: fix.location.coordinate.longitude,
                timestamp: fix.location.timestamp.iso8601, accuracy: fix.location.horizontalAccuracy, speed: fix.location.speed,
                course: fix.location.course)
        }
        for start in stride(from: 0, to: items.count, by: 500) {
            let body = "{\"locations\":[" + items[start..<min(items.count, start + 500)].joined(separator: ",") + "]}"
            #expect(try await phone.request(.POST, "/v1/sessions/TIMED-1/locations", body: body).status == .ok)
        }
        let browser = try await Self.openViewer(live, session: "TIMED-1")
        // Mid-ride: the train type beside the line, the next stop with its arrival time.
        let middle = fixes.count * 3 / 5
        try browser.click("#fixes tbody tr:nth-child(\(middle + 1)) td")
        try browser.wait(for: "\(Self.selectedFix) === \(middle)")
        let type = try browser.text("document.querySelector('#rider .rider-type')?.textContent ?? ''")
        #expect(!type.isEmpty, "a train type")
        let next = try browser.text("document.querySelector('#rider .rider-next')?.textContent ?? ''")
        #expect(next.range(of: #"^Next stop .+ · \d\d:\d\d$"#, options: .regularExpression) != nil, "\(next)")
        // On the timetables' clock, Tokyo's: the fix's time in the table is nine hours on from UTC.
        #expect(try browser.text("document.getElementById('time-header').textContent") == "Time (Asia/Tokyo)")
        let shown = try browser.text("document.querySelector('#fixes tr.selected td:nth-child(2)').textContent")
        let utc = fixes[middle].location.timestamp.iso8601
        let utcHour = try #require(Int(utc.dropFirst(11).prefix(2)))
        #expect(shown == String(format: "%02d:", (utcHour + 9) % 24) + utc.dropFirst(14).prefix(5), "\(shown) for \(utc)")
        try browser.screenshot(Self.picture("viewer-timetables.png"))
    }

    @Test func whileTheLinesAreNotToldApartTheRiderSeesWhichAreStillPossible() async throws {
        // Boarding at Hiyoshi, where the Toyoko and Meguro lines share the platforms.
        let live = try LiveFixture()
        defer { live.server.stop() }
        let browser = try await Self.openFirstBatch(live, session: "UNDECIDED-1")
        var listed = ""
        var parting = ""
        var nextWhileParting = ""
        for row in 1...150 where parting.isEmpty {
            try browser.click("#fixes tbody tr:nth-child(\(row)) td")
            try browser.wait(for: "\(Self.selectedFix) === \(row - 1)")
            let here = try browser.text("document.querySelector('#rider .rider-undecided > div')?.textContent ?? ''")
            if listed.isEmpty { listed = here }
            parting = try browser.text("document.querySelector('#rider .rider-parting')?.textContent ?? ''")
            nextWhileParting = try browser.text("document.querySelector('#rider .rider-next')?.textContent ?? ''")
        }
        // Each line still possible with its share, as text.
        #expect(listed.hasPrefix("Not yet told apart: "), "\(listed)")
        #expect(listed.components(separatedBy: " %").count >= 3, "\(listed)")
        // Where the lines part, the next stop is not named: each line's own is, as a choice.
        #expect(parting.hasPrefix("Next stop not known yet: ") && parting.contains(" or "), "\(parting)")
        #expect(nextWhileParting.isEmpty, "\(nextWhileParting)")
    }

    @Test func aPaleOrBrokenRailwayColourIsDrawnVisiblyAsThePicturesDrawIt() async throws {
        // The table the pictures' ColourLanguage.drawable is held to.
        let table = RailwayColourCases.drawn
        let live = try LiveFixture()
        defer { live.server.stop() }
        let browser = try await Self.openFirstBatch(live, session: "COLOUR-1")
        let inputs = String(data: try JSONSerialization.data(withJSONObject: table.map(\.0)), encoding: .utf8) ?? "[]"
        let drawn =
            try browser.evaluate(
                "import('/viewer/dom.js').then((dom) => \(inputs).map((colour) => dom.safeColour(colour)))") as? [String]
        #expect(drawn == table.map(\.1))
    }

    @Test func trainsFromAnOperatorsFeedAreOnTheMapAndARiderSeesWhereItsDelayCameFrom() async throws {
        // An operator's feed, served here and polled by the server (serve --realtime): a Caltrain
        // trip the timetable runs at this hour, 7 minutes late. The server's realtime clock runs
        // from a Monday morning of the timetable's (serve --realtime-clock-from): the machine's
        // own clock may be at night, or past the timetable's last day.
        let dataset = try GTFSImporter.load(path: SharedPaths.caltrain2024)
        let model = TrackerModel(dataset: dataset)
        let now = try #require(Timestamp(parsing: "2024-12-02T16:00:00Z"))  // 08:00 in San Francisco
        let trip = try #require(
            dataset.timetable.trains.lazy.map(\.id).first { model.progress(ofTrip: $0, delay: 420, at: now) != nil })
        let feed = RealtimeFeedWriter.bytes(RealtimeFeed(timestamp: now, trips: [TripReport(tripID: trip, delay: 420)]))
        let router = Router()
        router.get("/feed") { _, _ in Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: feed))) }
        let operatorServer = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await operatorServer.test(.live) { client in
            let port = try #require(client.port)
            let live = try LiveFixture(
                railways: SharedPaths.caltrain2024,
                extra: [
                    "--realtime", "http://127.0.0.1:\(port)/feed?key=secret", "--realtime-every", "1",
                    "--realtime-clock-from", now.iso8601,
                ])
            defer { live.server.stop() }
            let phone = APIClient(server: live.server, token: live.phone)
            _ = try await phone.request(.POST, "/v1/sessions", body: #"{"id":"TRAINS-1"}"#)
            // A rider where that train is, so the picture shows both.
            let place = try #require(model.progress(ofTrip: trip, delay: 420, at: now)).coordinate
            let body =
                "{\"locations\":["
                + locationJSON(
                    id: "T-1", latitude: place.latitude, longitude: place.longitude, timestamp: now.iso8601,
                    accuracy: 10, speed: nil, course: nil) + "]}"
            #expect(try await phone.request(.POST, "/v1/sessions/TRAINS-1/locations", body: body).status == .ok)
            let browser = try HeadlessBrowser(width: 1400, height: 1000)
            try browser.open(try await LiveServerTests.loginLink(server: live.server, admin: live.admin, session: "TRAINS-1"))
            try browser.wait(for: "document.querySelector('.train-marker.train-operator')")
            #expect(try browser.text("document.getElementById('train-count').textContent") == " · 1 train live")
            let label = try browser.text(
                "import('/viewer/trains.js').then((t) => fetch('/v1/realtime/trains').then((r) => r.json()).then((b) => t.trainLabel(b.trains[0])))"
            )
            #expect(label == "Train \(model.tripName(trip) ?? trip) · 7 min late · operator's feed", "\(label)")
            // The rider's view names where its train's delay came from.
            let said = try browser.text(
                "import('/viewer/rider.js').then((r) => r.trainText({train: '102', delaySeconds: 240, delaySource: 'other riders'}))"
            )
            #expect(said == "Train 102 · 4 min late (by other riders)")
            try browser.screenshot(Self.picture("viewer-trains.png"))
            let metrics = try await APIClient(server: live.server, token: live.admin).request(.GET, "/metrics")
            #expect(
                metrics.body.contains("traintracker_realtime_feed_trips{source=\"http://127.0.0.1:\(port)/feed\"} 1.0"),
                "\(metrics.body)")
            #expect(!metrics.body.contains("secret"))
        }
    }

    @Test func theTimetablesClockFollowsDaylightSaving() async throws {
        // A real Caltrain ride of 2024-11-29 (Pacific Standard Time, UTC−08:00), and before it
        // a fix at its first place four weeks earlier, on 2024-11-01 (daylight time, UTC−07:00).
        let recording = try VehiclePositionRecording.read(path: SharedPaths.caltrainRecording, zone: .utc)
        // The first such trip by id: a dictionary's order changes from run to run.
        let trips = Dictionary(grouping: recording.positions, by: \.tripID)
        let trip = try #require(trips.keys.sorted().lazy.compactMap { trips[$0] }.first { $0.count > 40 })
        let ride = trip.sorted { $0.time < $1.time }
        let first = try #require(ride.first)
        let live = try LiveFixture(railways: SharedPaths.caltrain2024)
        defer { live.server.stop() }
        let phone = APIClient(server: live.server, token: live.phone)
        _ = try await phone.request(.POST, "/v1/sessions", body: #"{"id":"DST-1","startDate":"2024-11-01T16:00:00Z"}"#)
        let summer = Timestamp(secondsSince1970: 1_730_476_800)  // 2024-11-01T16:00:00Z: 09:00 PDT
        var items = [
            locationJSON(
                id: "DST-0", latitude: first.coordinate.latitude, longitude: first.coordinate.longitude,
                timestamp: summer.iso8601, accuracy: 10, speed: nil, course: nil)
        ]
        for (index, position) in ride.enumerated() {
            items.append(
                locationJSON(
                    id: "DST-\(index + 1)", latitude: position.coordinate.latitude, longitude: position.coordinate.longitude,
                    timestamp: position.time.iso8601, accuracy: 10, speed: nil, course: nil))
        }
        let body = "{\"locations\":[" + items.joined(separator: ",") + "]}"
        #expect(try await phone.request(.POST, "/v1/sessions/DST-1/locations", body: body).status == .ok)
        let browser = try await Self.openViewer(live, session: "DST-1")
        #expect(try browser.text("document.getElementById('time-header').textContent") == "Time (America/Los_Angeles)")
        // The same wall clock either side of 3 November: UTC−07:00 before, UTC−08:00 after.
        let cell = { (row: Int) in
            try browser.text("document.querySelector('#fixes tbody tr:nth-child(\(row)) td:nth-child(2)').textContent")
        }
        #expect(try cell(1) == "09:00:00")
        let winter = ride[0].time.iso8601
        let winterHour = try #require(Int(winter.dropFirst(11).prefix(2)))
        #expect(try cell(2) == String(format: "%02d:", (winterHour + 24 - 8) % 24) + winter.dropFirst(14).prefix(5), "\(winter)")
        // A third of the way along the ride, the stops ahead with their times and intervals;
        // the rider names one of them as theirs, and it comes first.
        try browser.evaluate("document.querySelector('#fixes tbody tr:nth-child(\(2 + ride.count / 3))').click()")
        try browser.wait(for: "document.querySelectorAll('#rider .rider-stop').length >= 3")
        let stops = try browser.text(
            "[...document.querySelectorAll('#rider .rider-stop')].map((stop) => stop.textContent).join('|')")
        let shape = /^[^|]+ \d\d:\d\d( \(\d\d:\d\d–\d\d:\d\d\))?$/
        #expect(stops.split(separator: "|").allSatisfy { $0.wholeMatch(of: shape) != nil }, "\(stops)")
        let third = try browser.text("document.querySelectorAll('#rider .rider-stop')[2].dataset.station")
        try browser.evaluate("document.querySelectorAll('#rider .rider-stop')[2].click()")
        try browser.wait(for: "document.querySelector('#rider .rider-stop').classList.contains('mine')")
        #expect(try browser.text("document.querySelector('#rider .rider-stop').dataset.station") == third)
        #expect(try browser.text("document.querySelector('#rider .rider-stop').textContent").hasPrefix("Your stop: "))
        try browser.screenshot(Self.picture("viewer-stops-ahead.png"))
    }

    @Test func aTileServerIsTheBaseMapAndItsOriginAloneIsAllowed() async throws {
        let live = try LiveFixture(extra: [
            "--tiles", "http://127.0.0.1:9/{z}/{x}/{y}.png", "--tiles-attribution", "Tiles <b>by</b> Example",
        ])
        defer { live.server.stop() }
        let browser = try await Self.openFirstBatch(live, session: "TILES-1")
        try browser.wait(for: "document.querySelectorAll('img.leaflet-tile').length > 0")
        let source = try browser.text("document.querySelector('img.leaflet-tile').src")
        #expect(source.hasPrefix("http://127.0.0.1:9/") && source.hasSuffix(".png"), "\(source)")
        #expect(try browser.text("document.querySelector('img.leaflet-tile').referrerPolicy") == "strict-origin")
        // The attribution is shown as text, its markup stripped; no offline network drawn.
        let attribution = try browser.text("document.querySelector('.leaflet-control-attribution').innerText")
        #expect(attribution.contains("Tiles bby/b Example"), "\(attribution)")
        #expect(try browser.evaluate("!!document.querySelector('.leaflet-base-pane canvas')") as? Bool == false)
        let reply = try await APIClient(server: live.server, token: live.admin).request(.GET, "/")
        #expect(reply.headers["Content-Security-Policy"]?.contains("img-src 'self' data: http://127.0.0.1:9;") == true)
    }
}

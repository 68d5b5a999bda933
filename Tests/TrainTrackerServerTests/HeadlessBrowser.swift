import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// the browser reads commands on descriptor 3 and answers on 4, each message JSON ending in a
/// NUL byte), so a test opens pages, presses keys, clicks, reads the DOM and takes
/// screenshots as a person would. Waits are for conditions in the page, each with a deadline.
final class HeadlessBrowser {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Debian's Chromium, where `.ci/run` installs it.
    static let executable = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    private let pid: pid_t
    private let commands: Int32
    private let replies: Int32
    private let profile: String
    private var buffer: [UInt8] = []
    private var lastID = 0
    private var sessionID = ""

    /// Starts the browser with one empty page of `width` × `height` CSS pixels.
    init(width: Int = 1400, height: Int = 1000) throws {
        guard let executable = Self.executable else {
            throw Failure(description: "headless Chromium is needed (Debian's chromium; .ci/run installs it)")
        }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("tt-chromium-\(UUID().uuidString)").path
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw Failure(description: "pipe failed") }
        // Out of the way of descriptors 3 and 4 before they are placed there in the child.
        let (childIn, childOut) = (fcntl(toBrowser[0], F_DUPFD_CLOEXEC, 100), fcntl(fromBrowser[1], F_DUPFD_CLOEXEC, 100))
        for descriptor in [toBrowser[0], fromBrowser[1]] { close(descriptor) }
        commands = toBrowser[1]
        replies = fromBrowser[0]
        for descriptor in [commands, replies] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, childIn, 3)
        posix_spawn_file_actions_adddup2(&actions, childOut, 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [
            executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
            "--user-data-dir=\(profile)", "--window-size=\(width),\(height)", "--hide-scrollbars", "about:blank",
        ]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // In a process group of its own, so that every process it starts can be stopped with it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var child = pid_t()
        let spawned = posix_spawn(&child, executable, &actions, &attributes, &argv, environ)
        for descriptor in [childIn, childOut] { close(descriptor) }
        guard spawned == 0 else { throw Failure(description: "could not start \(executable): error \(spawned)") }
        pid = child
        let target = try send("Target.createTarget", ["url": "about:blank"], inPage: false)
        let attached = try send("Target.attachToTarget", ["targetId": target["targetId"] ?? "", "flatten": true], inPage: false)
        sessionID = attached["sessionId"] as? String ?? ""
        try viewport(width: width, height: height)
    }

    deinit {
        _ = try? send("Browser.close", inPage: false, timeout: 5)
        close(commands)
        close(replies)
        // The browser and the processes it started (its renderers, its GPU and network
        // services), all at once: one left running would write into the profile after it is
        // removed, leaving a copy in the temporary folder at every test run.
        Glibc.kill(-pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: profile)
    }

    // MARK: The protocol

    /// Sends one command and returns its result; throws the browser's error or on timeout.
    @discardableResult
    func send(_ method: String, _ parameters: [String: Any] = [:], inPage: Bool = true, timeout: Double = 30) throws
        -> [String: Any]
    {
        lastID += 1
        var message: [String: Any] = ["id": lastID, "method": method, "params": parameters]
        if inPage { message["sessionId"] = sessionID }
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(0)
        try data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = write(commands, base + offset, bytes.count - offset)
                guard written > 0 else { throw Failure(description: "the browser went away (\(method))") }
                offset += written
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let text = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let reply = try JSONSerialization.jsonObject(with: text) as? [String: Any],
                    reply["id"] as? Int == lastID
                else { continue }  // an event, or an answer to an abandoned command
                if let error = reply["error"] as? [String: Any] {
                    throw Failure(description: "\(method): \(error["message"] ?? error)")
                }
                return reply["result"] as? [String: Any] ?? [:]
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: "\(method): no answer within \(timeout) s") }
            var poller = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 60) * 1000)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = read(replies, &chunk, chunk.count)
            guard count > 0 else { throw Failure(description: "the browser closed its pipe (\(method))") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    // MARK: What a test does

    /// Sets the page's size in CSS pixels.
    func viewport(width: Int, height: Int) throws {
        try send(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
    }

    /// Opens `url` and waits for the page to load.
    func open(_ url: String) throws {
        try send("Page.navigate", ["url": url])
        try wait(for: "document.readyState === 'complete' && location.href !== 'about:blank'")
    }

    /// The value of a JavaScript expression (awaited when it is a promise).
    @discardableResult
    func evaluate(_ expression: String, timeout: Double = 30) throws -> Any? {
        let reply = try send(
            "Runtime.evaluate", ["expression": expression, "awaitPromise": true, "returnByValue": true], timeout: timeout)
        if let exception = reply["exceptionDetails"] as? [String: Any] {
            let detail = (exception["exception"] as? [String: Any])?["description"] ?? exception["text"] ?? exception
            throw Failure(description: "\(detail)")
        }
        return (reply["result"] as? [String: Any])?["value"]
    }

    /// A string the page computes (empty when it gives something else).
    func text(_ expression: String) throws -> String { try evaluate(expression) as? String ?? "" }

    /// A number the page computes (-1 when it gives something else).
    func number(_ expression: String) throws -> Double { try evaluate(expression) as? Double ?? -1 }

    /// Waits until `condition` (a JavaScript expression) is truthy in the page, checking it
    /// every frame or so; throws naming the condition after `timeout` seconds.
    @discardableResult
    func wait(for condition: String, timeout: Double = 30) throws -> Any? {
        let quoted = String(data: try JSONSerialization.data(withJSONObject: [condition]), encoding: .utf8) ?? "[]"
        return try evaluate(
            """
            new Promise((resolve, reject) => {
              const until = Date.now() + \(Int(timeout * 1000));
              (function check() {
                let value;
                try { value = (\(condition)); } catch (error) { value = undefined; }
                if (value) resolve(value);
                else if (Date.now() > until) reject(new Error("timed out waiting for " + \(quoted)[0]));
                else setTimeout(check, 30);
              })();
            })
            """, timeout: timeout + 10)
    }

    /// Presses and releases a key: `" "`, `"ArrowRight"`, `"ArrowLeft"`, `"Home"`, `"End"`.
    func press(_ key: String) throws {
        let codes = [
            " ": ("Space", 32), "ArrowRight": ("ArrowRight", 39), "ArrowLeft": ("ArrowLeft", 37),
            "Home": ("Home", 36), "End": ("End", 35),
        ]
        let (code, keyCode) = codes[key] ?? (key, 0)
        var down: [String: Any] = ["type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": keyCode]
        if key == " " { down["text"] = " " }
        try send("Input.dispatchKeyEvent", down)
        try send("Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": keyCode])
    }

    /// Clicks the middle of the first element `selector` matches, with the mouse.
    func click(_ selector: String) throws {
        let quoted = String(data: try JSONSerialization.data(withJSONObject: [selector]), encoding: .utf8) ?? "[]"
        guard
            let point = try wait(
                for: """
                    (() => { const element = document.querySelector(\(quoted)[0]); if (!element) return null;
                      element.scrollIntoView({ block: "center" }); const box = element.getBoundingClientRect();
                      return box.width > 0 ? [box.left + box.width / 2, box.top + box.height / 2] : null; })()
                    """) as? [Double], point.count == 2
        else { throw Failure(description: "nothing to click at \(selector)") }
        for type in ["mousePressed", "mouseReleased"] {
            try send(
                "Input.dispatchMouseEvent", ["type": type, "x": point[0], "y": point[1], "button": "left", "clickCount": 1])
        }
    }

    /// Types `text` into the focused element.
    func type(_ text: String) throws { try send("Input.insertText", ["text": text]) }

    /// Saves what the page shows as a PNG at `path`.
    func screenshot(_ path: String) throws {
        let shot = try send("Page.captureScreenshot", ["format": "png"])
        guard let base64 = shot["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot")
        }
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

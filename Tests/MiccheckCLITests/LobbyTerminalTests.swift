import Foundation
import MicCheck
import MicCheckTerminal
import MicCheckTesting
import Testing

/// A private tmux server with one pane running a command, driven like a person at the keyboard.
final class TmuxPane {
    let folder: URL
    private var socket: String { folder.appendingPathComponent("tmux.sock").path }

    /// Starts `command` through `sh -c` in a `width`×`height` pane, with a UTF-8 locale. The pane's
    /// shell then sleeps, so the last screen can be read: a pane whose process has ended (even with
    /// remain-on-exit) can lose the output written just before the end, when tmux sees the exit first.
    init(_ command: String, width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws {
        folder = tempDir()
        let env = (["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"].merging(environment) { $1 })
            .map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        try tmux([
            "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "\(width)", "-y", "\(height)",
            "env \(env) sh -c '\(command); exec sleep 600'",
        ])
    }

    /// Runs tmux on this pane's server and returns what it printed. Through posix_spawn and a file:
    /// the server that `new-session` starts keeps the client's descriptors (a pipe would never reach
    /// its end), and Foundation's Process was seen never to reap that client.
    @discardableResult
    func tmux(_ args: [String]) throws -> String {
        let file = folder.appendingPathComponent("out-\(UUID().uuidString)").path
        defer { unlink(file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ["/usr/bin/tmux", "-S", socket] + args
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for arg in cArgs { free(arg) } }
        // The test runner blocks most signals on its threads and posix_spawn hands that mask on: a
        // tmux server started with it never sees SIGCHLD and outlives kill-server. Start with none.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, &cArgs, environ)
        guard spawned == 0 else { throw CocoaError(.fileNoSuchFile) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    func screen() -> String { (try? tmux(["capture-pane", "-p", "-t", "t"])) ?? "" }
    func value(_ format: String) -> String {
        ((try? tmux(["display-message", "-p", "-t", "t", format])) ?? "").trimmingCharacters(
            in: .whitespacesAndNewlines)
    }
    func press(_ key: String) throws { try tmux(["send-keys", "-t", "t", key]) }
    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits until the screen shows `text` (or, with `gone`, no longer shows it); returns when, or nil.
    @discardableResult
    func wait(for text: String, gone: Bool = false, timeout: Double = 10) -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if screen().contains(text) != gone { return Date() }
            usleep(20_000)
        }
        return nil
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: folder)
    }
}

@Suite(.serialized, .tags(.live)) struct LobbyTerminalTests {
    /// The lobby in a pane, between two readings of the terminal's modes, then its exit status.
    static func lobbyCommand(_ folder: URL, _ args: String = "--demo") -> String {
        let f = folder.path
        return
            "stty -g > \(f)/before; \(binary.path) lobby \(args) --events \(f)/events.jsonl; echo EXIT=$?; stty -g > \(f)/after"
    }

    static func events(_ folder: URL) -> [[String: Any]] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Once the lobby has ended, the terminal is as it was: main screen, cursor shown, the same modes
    /// as before the lobby.
    static func expectRestored(
        _ pane: TmuxPane, _ folder: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(pane.wait(for: "EXIT=", timeout: 5) != nil, sourceLocation: sourceLocation)
        #expect(pane.value("#{alternate_on}") == "0", sourceLocation: sourceLocation)
        #expect(pane.value("#{cursor_flag}") == "1", sourceLocation: sourceLocation)
        // The shell creates `after` before stty writes its line into it: wait for the whole line.
        let read = { (name: String) in
            (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        let deadline = Date().addingTimeInterval(5)
        while !read("after").hasSuffix("\n"), Date() < deadline { usleep(20_000) }
        let before = read("before")
        let after = read("after")
        #expect(!before.isEmpty && before == after, "stty modes", sourceLocation: sourceLocation)
    }

    /// Speech onsets of the bundled sample (s), from its levels: a rise above -45 dBFS after 300 ms
    /// below -55 dBFS. Independent of the speech detector under test.
    static func sampleOnsets() throws -> (onsets: [Double], length: Double) {
        let run = try miccheck(["analyze", "--sample", "--format", "jsonl"])
        var onsets: [Double] = []
        var quiet = 0.0
        var last = 0.0
        for line in run.stdout.split(separator: "\n") {
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let t = o["t"] as? Double, let db = o["level_db"] as? Double
            else { continue }
            if db > -45 && quiet >= 0.3 { onsets.append(t) }
            quiet = db < -55 ? quiet + 0.01 : 0
            last = t
        }
        return (onsets, last + 0.01)
    }

    @Test func aPersonMutesJoinsIsToldTheyAreMutedAndLeaves() throws {
        let state = tempDir()
        let folder = tempDir()
        let pane = try TmuxPane(Self.lobbyCommand(folder), environment: ["XDG_STATE_HOME": state.path])
        #expect(pane.wait(for: "Before Joining") != nil, "\(pane.screen())")
        #expect(pane.value("#{alternate_on}") == "1", "full screen")
        for text in [
            "Setup your audio and video", "You are about to join a call.", "There are 3 more people in the call.",
            "Join Call", "Microphone: on", "Camera: off", "Speaker: on",
        ] {
            #expect(pane.screen().contains(text), "\(text)")
        }
        try pane.press("m")
        #expect(pane.wait(for: "Microphone: off", timeout: 3) != nil)
        try pane.press("Enter")
        #expect(pane.wait(for: "In the call · 4 participants", timeout: 3) != nil)
        // The sample loops every 11.6 s; the notice may wait out one cooldown.
        let shown = try #require(pane.wait(for: "You are muted.", timeout: 20), "\(pane.screen())")
        let hidden = try #require(pane.wait(for: "You are muted.", gone: true, timeout: 5))
        let onScreen = hidden.timeIntervalSince(shown)
        #expect(onScreen > 1.6 && onScreen < 2.8, "on screen \(onScreen) s")
        try pane.press("q")
        #expect(pane.wait(for: "miccheck: you left the call.", timeout: 5) != nil)
        try Self.expectRestored(pane, folder)
        #expect(pane.screen().contains("EXIT=0"))

        // Within a second of the sample's speech: the speech that raised the notice began at audio
        // time `onset`, which played at clock `audio_started + onset`.
        let events = Self.events(folder)
        let started = try #require(events.first { $0["event"] as? String == "audio_started" }?["clock"] as? Double)
        let notice = try #require(events.first { $0["event"] as? String == "muted_notice_shown" })
        let noticeClock = try #require(notice["clock"] as? Double)
        let cause = try #require(notice["t"] as? Double)
        let (onsets, length) = try Self.sampleOnsets()
        #expect(onsets.count >= 2, "the sample has at least two utterances: \(onsets)")
        let loop = (cause / length).rounded(.down)
        let onset = try #require(
            (onsets.map { $0 + loop * length } + onsets.map { $0 + (loop - 1) * length })
                .filter { $0 <= cause + 0.05 }.max())
        let latency = noticeClock - (started + onset)
        #expect(latency >= 0 && latency <= 1.0, "notice \(latency) s after the speech began")
        let hiddenEvent = try #require(
            events.first { $0["event"] as? String == "muted_notice_hidden" }?["clock"] as? Double)
        // Shown for 2 s; the session's clock ticks late when the test machine is loaded.
        #expect(abs(hiddenEvent - noticeClock - 2) < 0.3)
    }

    @Test(arguments: [("TERM", 143), ("HUP", 129), ("SEGV", 139), ("ABRT", 134)])
    func theTerminalComesBackAfterASignalOrACrash(signal: String, status: Int) throws {
        let folder = tempDir()
        let pane = try TmuxPane(
            Self.lobbyCommand(folder), environment: ["XDG_STATE_HOME": folder.path, "SWIFT_BACKTRACE": "enable=no"])
        #expect(pane.wait(for: "Before Joining") != nil)
        let pid = try #require(lobbyProcess(eventsPath: folder.appendingPathComponent("events.jsonl").path))
        let kill = Process()
        kill.executableURL = URL(fileURLWithPath: "/bin/kill")
        kill.arguments = ["-\(signal)", "\(pid)"]
        try kill.run()
        kill.waitUntilExit()
        #expect(pane.wait(for: "EXIT=\(status)", timeout: 10) != nil, "\(pane.screen())")
        try Self.expectRestored(pane, folder)
    }

    @Test func redrawsOnResize() throws {
        let folder = tempDir()
        let pane = try TmuxPane(Self.lobbyCommand(folder), environment: ["XDG_STATE_HOME": folder.path])
        #expect(pane.wait(for: "Before Joining") != nil)
        try pane.resize(width: 56, height: 40)
        // Narrow: one column, the join panel under the microphone; nothing drawn beyond the width.
        #expect(pane.wait(for: "[ Join Call ]", timeout: 3) != nil)
        let narrow = pane.screen().split(separator: "\n")
        #expect(narrow.allSatisfy { Canvas.displayWidth(String($0)) <= 56 })
        #expect(narrow.contains { $0.contains("┌─ Join") && $0.hasPrefix(" ┌") }, "\(narrow.joined(separator: "\n"))")
        try pane.resize(width: 30, height: 10)
        #expect(pane.wait(for: "Make the terminal at least", timeout: 3) != nil)
        try pane.resize(width: 100, height: 30)
        #expect(pane.wait(for: "Before Joining", timeout: 3) != nil)
        #expect(pane.wait(for: "Make the terminal", gone: true, timeout: 3) != nil)
        try pane.press("Escape")
        #expect(pane.wait(for: "EXIT=0", timeout: 5) != nil)
        try Self.expectRestored(pane, folder)
        #expect(Self.events(folder).contains { $0["event"] as? String == "resized" && $0["width"] as? Int == 56 })
    }

    @Test func aDismissedPromptStaysDismissedForTheCall() throws {
        // A machine with a camera: no prompt.
        guard !FileManager.default.fileExists(atPath: "/dev/video0") else { return }
        let state = tempDir()
        var folder = tempDir()
        var pane = try TmuxPane(Self.lobbyCommand(folder), height: 40, environment: ["XDG_STATE_HOME": state.path])
        #expect(pane.wait(for: "Camera access required") != nil)
        #expect(pane.screen().contains("[o] Open Settings") && pane.screen().contains("[d] Dismiss"))
        try pane.press("o")
        #expect(pane.wait(for: "sudo usermod -aG video", timeout: 3) != nil)
        try pane.press("d")
        #expect(pane.wait(for: "Camera access required", gone: true, timeout: 3) != nil)
        try pane.press("q")
        #expect(pane.wait(for: "EXIT=0", timeout: 5) != nil)
        // A new run of the same call: no prompt. The demo call's id is "demo".
        folder = tempDir()
        pane = try TmuxPane(Self.lobbyCommand(folder), height: 40, environment: ["XDG_STATE_HOME": state.path])
        #expect(pane.wait(for: "Before Joining") != nil)
        usleep(300_000)
        #expect(!pane.screen().contains("Camera access required"))
        try pane.press("q")
        #expect(pane.wait(for: "EXIT=0", timeout: 5) != nil)
        let stored = try String(contentsOfFile: state.path + "/miccheck/permission-prompts.json", encoding: .utf8)
        #expect(stored.contains("\"demo\"") && stored.contains("\"camera\""))
    }

    @Test func theExampleFactoryDrawsMicrophoneTiles() throws {
        let folder = tempDir()
        let pane = try TmuxPane(
            Self.lobbyCommand(folder, "--demo --tiles microphone --name \"Jo Doe\""),
            environment: ["XDG_STATE_HOME": folder.path])
        #expect(pane.wait(for: "Before Joining") != nil)
        #expect(pane.screen().contains("╭─╮") && pane.screen().contains("Jo Doe"))
        try pane.press("Enter")
        #expect(pane.wait(for: "In the call", timeout: 3) != nil)
        // Someone in the demo call is speaking most of the time: a filled microphone.
        #expect(pane.wait(for: "╭█╮", timeout: 5) != nil)
        try pane.press("q")
        try Self.expectRestored(pane, folder)
    }

    @Test func withoutATerminalOrWithABadCallItSaysSo() throws {
        let dir = tempDir()
        var run = try miccheck(["lobby", "--demo"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("lobby needs a terminal"))
        let bad = dir.appendingPathComponent("call.json")
        try Data("{\"id\": \"x\", \"participants\": [{\"id\": \"a\"}]}".utf8).write(to: bad)
        run = try miccheck(["lobby", "--demo", "--call", bad.path])
        #expect(run.status == 65)
        #expect(run.stderr == "miccheck: \(bad.path): not a usable call: participants[0] has no \"name\".\n")
        run = try miccheck(["lobby", "--demo", "--call", dir.appendingPathComponent("none.json").path])
        #expect(run.status == 66 && run.stderr.contains("no such file"))
        run = try miccheck(["lobby", "--demo", "--source", "x"])
        #expect(run.status == 64)
    }
}

/// The pid of the `miccheck lobby` whose command line names `eventsPath`.
func lobbyProcess(eventsPath: String) -> Int32? {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else {
                continue
            }
            let args = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if args.contains("lobby") && args.contains(eventsPath) && args.first?.hasSuffix("miccheck") == true {
                return pid
            }
        }
        usleep(20_000)
    }
    return nil
}

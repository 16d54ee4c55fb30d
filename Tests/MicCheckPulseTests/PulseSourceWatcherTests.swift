#if os(Linux)
    import Foundation
    import MicCheckPulse
    import MicCheckTesting
    import Testing

    @Suite("Sources that come and go, against a private server", .serialized, .tags(.live))
    struct PulseSourceWatcherTests {
        /// Polls `take` for up to `timeout` seconds until `found` picks something out of what it gave.
        static func wait<T>(
            _ timeout: Double, _ take: () -> [PulseSourceChange], until found: ([PulseSourceChange]) -> T?
        ) -> (T?, [PulseSourceChange]) {
            var seen: [PulseSourceChange] = []
            let end = Date().addingTimeInterval(timeout)
            while Date() < end {
                seen += take()
                if let hit = found(seen) { return (hit, seen) }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return (nil, seen)
        }

        @Test(
            "a microphone plugged in is reported once with its description; its feed's monitor is not; unplugged, it is removed"
        )
        func addedAndRemoved() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let watcher = try PulseSourceWatcher(server: server.address)
            defer { watcher.close() }
            #expect(watcher.sources.map(\.name) == ["virtmic"], "monitors are not microphones")
            #expect(watcher.take().isEmpty, "what was there at the start is not new")

            let mic = try server.addMicrophone(name: "newmic", description: "NewMic")
            let (added, seen) = Self.wait(5, watcher.take) { changes in
                changes.lazy.compactMap { if case .added(let s) = $0, s.name == "newmic" { s } else { nil } }.first
            }
            #expect(added?.description == "NewMic")
            #expect(added?.isMonitor == false)
            Thread.sleep(forTimeInterval: 0.2)
            let all = seen + watcher.take()
            #expect(all.count == 1, "only the microphone, once: \(all)")
            #expect(Set(watcher.sources.map(\.name)) == ["virtmic", "newmic"])

            try server.remove(mic)
            let (removed, _) = Self.wait(5, watcher.take) { changes in
                changes.lazy.compactMap { if case .removed(let s) = $0 { s } else { nil } }.first
            }
            #expect(removed?.name == "newmic" && removed?.description == "NewMic")
            #expect(watcher.sources.map(\.name) == ["virtmic"])
        }

        @Test("as an AsyncStream; with monitors when asked")
        func asyncStreamWithMonitors() async throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let watcher = try PulseSourceWatcher(server: server.address, includeMonitors: true)
            defer { watcher.close() }
            #expect(watcher.sources.contains { $0.name == "speaker.monitor" })
            let changes = watcher.changes
            _ = try server.addMicrophone(name: "newmic", description: "NewMic")
            var names: Set<String> = []
            for await change in changes {
                if case .added(let s) = change { names.insert(s.name) }
                if names == ["newmic", "newmic_feed.monitor"] { break }
            }
            #expect(names == ["newmic", "newmic_feed.monitor"])
            #expect(watcher.take().isEmpty, "changes go to the stream only")
            watcher.close()
            for await _ in watcher.changes { Issue.record("a closed watcher's stream ends at once") }
        }

        @Test("the microphone switches to another source when asked, and stays when the source cannot be opened")
        func switchSource() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            _ = try server.addMicrophone(name: "newmic", description: "NewMic")
            let notices = NoticeLog()
            let mic = try PulseMicrophone(server: server.address, reconnectWindow: .seconds(1)) { notices.add($0) }
            defer { mic.close() }
            #expect(mic.source?.name == "virtmic")
            var buffer = [Float](repeating: 0, count: 4096)
            func readUntil(_ wanted: PulseMicrophone.Read?, seconds: Double) throws -> Bool {
                let end = Date().addingTimeInterval(seconds)
                while Date() < end {
                    let r = try buffer.withUnsafeMutableBufferPointer {
                        try mic.read(into: $0, timeout: .milliseconds(100))
                    }
                    if wanted == nil, case .samples = r { return true }
                    if r == wanted { return true }
                }
                return false
            }
            #expect(try readUntil(nil, seconds: 2), "samples from virtmic")

            mic.switchSource(to: "nope")
            #expect(try readUntil(nil, seconds: 2))
            #expect(mic.source?.name == "virtmic")
            #expect(
                notices.all.contains {
                    if case .switchFailed(let name, let reason) = $0 {
                        name == "nope" && reason.contains("no source")
                    } else {
                        false
                    }
                }, "\(notices.all)")

            mic.switchSource(to: "newmic")
            #expect(try readUntil(.restarted, seconds: 2))
            #expect(mic.source?.name == "newmic")
            #expect(
                notices.all.last.map { if case .switched(let s) = $0 { s.name == "newmic" } else { false } } == true)
            #expect(try readUntil(nil, seconds: 2), "samples from newmic")
        }
    }
#endif

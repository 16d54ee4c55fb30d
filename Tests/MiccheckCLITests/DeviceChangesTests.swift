#if os(Linux)
    import Foundation
    import MicCheckTesting
    import Testing

    /// Microphones that come and go while `listen` and the lobby run (issue 47): a new one is offered
    /// (reported by listen), and losing the one in use falls back to the default and says so.
    @Suite("Devices that come and go, against a private PulseAudio server", .serialized, .tags(.live))
    struct DeviceChangesTests {
        /// With MICCHECK_SCREENSHOTS=DIR, the lobby's screens are written there as text (Guides/images).
        static func capture(_ pane: TmuxPane, as name: String) {
            guard let dir = ProcessInfo.processInfo.environment["MICCHECK_SCREENSHOTS"], !dir.isEmpty else { return }
            let lines = pane.screen().split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            let text = lines.joined(separator: "\n").trimmingCharacters(in: .newlines) + "\n"
            try? text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
        }

        /// The pane's rows trimmed and joined with spaces, so that a sentence wrapped in a column reads whole.
        static func joined(_ pane: TmuxPane) -> String {
            pane.screen().split(separator: "\n").map { row in
                // Only the left column: a row's right part belongs to the join panel.
                row.split(separator: "│").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
            }.joined(separator: " ")
        }

        /// `miccheck lobby --name Ada` in a 100×34 tmux pane, on the private PulseAudio `server`, its event
        /// log and state in `folder`.
        static func lobby(on server: PrivatePulseServer, folder: URL) throws -> TmuxPane {
            let env = [
                "XDG_RUNTIME_DIR": server.directory.path,
                "PULSE_RUNTIME_PATH": server.directory.appendingPathComponent("pulse").path,
                "XDG_STATE_HOME": folder.path,
            ]
            return try TmuxPane(
                LobbyTerminalTests.lobbyCommand(folder, "--name Ada"), width: 100, height: 34, environment: env)
        }

        /// Waits until `text` reads on the screen, wrapped or not.
        static func wait(_ pane: TmuxPane, for text: String, gone: Bool = false, timeout: Double = 5) -> Bool {
            poll(timeout: timeout) { joined(pane).contains(text) != gone }
        }

        @Test("listen --format jsonl: source_added for a new microphone (not its monitor), source_removed, source_lost")
        func listenReportsInJSONLines() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let p = try LiveProcess(["listen", "--format", "jsonl"], environment: server.environment)
            #expect(p.wait(timeout: 5) { (p.lastFrameTime ?? 0) > 0.3 }, "\(p.stderr)")
            let mic = try server.addMicrophone(name: "newmic", description: "NewMic")
            #expect(p.wait(timeout: 5) { !p.events("source_added").isEmpty }, "\(p.stderr)")
            let added = p.events("source_added")
            #expect(added.count == 1, "\(added)")
            #expect(added.first?["name"] as? String == "newmic")
            #expect(added.first?["description"] as? String == "NewMic")
            // In time order with the frames around it.
            let times = p.records.compactMap { $0["t"] as? Double }
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 })

            try server.remove(mic)
            #expect(p.wait(timeout: 5) { !p.events("source_removed").isEmpty })
            #expect(p.events("source_removed").first?["name"] as? String == "newmic")

            try server.removeVirtmic()
            #expect(p.wait(timeout: 5) { !p.events("source_lost").isEmpty }, "\(p.stderr)")
            let lost = p.events("source_lost").first
            #expect(lost?["name"] as? String == "virtmic")
            #expect((lost?["fallback"] as? String)?.isEmpty == false)
            #expect(p.stderr.contains("the source virtmic disappeared; listening to the default source"))
            kill(p.process.processIdentifier, SIGINT)
            #expect(p.finish(timeout: 5) == 0, "\(p.stderr)")
        }

        @Test("listen in text says a new microphone is available on stderr")
        func listenSaysSoInText() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let p = try LiveProcess(["listen"], environment: server.environment)
            #expect(p.wait(timeout: 5) { p.stderr.contains("listening to") })
            _ = try server.addMicrophone(name: "newmic", description: "NewMic")
            #expect(
                p.wait(timeout: 5) {
                    p.stderr.contains(
                        "miccheck: a new microphone is available: NewMic (newmic); `miccheck listen --source newmic` listens to it."
                    )
                }, "\(p.stderr)")
            #expect(!p.stderr.contains("newmic_feed"), "the feed's monitor is not a microphone")
            kill(p.process.processIdentifier, SIGINT)
            #expect(p.finish(timeout: 5) == 0)
        }

        @Test("the lobby offers a new microphone, w switches to it, i ignores one; losing it falls back to the default")
        func lobbyOffersSwitchesAndFallsBack() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let folder = tempDir()
            let pane = try DeviceChangesTests.lobby(on: server, folder: folder)
            #expect(pane.wait(for: "VirtualMic (virtmic)") != nil, "\(pane.screen())")

            let mic = try server.addMicrophone(name: "newmic", description: "NewMic")
            #expect(Self.wait(pane, for: "A new microphone is available: NewMic. Switch (w)?"), "\(pane.screen())")
            #expect(pane.screen().contains("w switch · i ignore"))
            Self.capture(pane, as: "lobby-new-microphone.txt")
            try pane.press("w")
            #expect(pane.wait(for: "NewMic (newmic)", timeout: 5) != nil, "\(pane.screen())")
            #expect(Self.wait(pane, for: "A new microphone", gone: true, timeout: 2))
            #expect(!pane.screen().contains("VirtualMic (virtmic)"))

            // Unplugged while in use: the default source takes its place, and the lobby says so.
            try server.remove(mic)
            #expect(
                Self.wait(pane, for: "The microphone NewMic was disconnected: using VirtualMic."), "\(pane.screen())")
            #expect(pane.screen().contains("VirtualMic (virtmic)"))
            Self.capture(pane, as: "lobby-microphone-disconnected.txt")

            // Another one, ignored.
            _ = try server.addMicrophone(name: "usbmic", description: "USBMic")
            #expect(Self.wait(pane, for: "A new microphone is available: USBMic."), "\(pane.screen())")
            try pane.press("i")
            #expect(Self.wait(pane, for: "A new microphone", gone: true, timeout: 2))
            #expect(pane.screen().contains("VirtualMic (virtmic)"))
            try pane.press("q")
            try LobbyTerminalTests.expectRestored(pane, folder)

            let events = LobbyTerminalTests.events(folder)
            func named(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
            #expect(named("microphone_offered").compactMap { $0["microphone"] as? String } == ["newmic", "usbmic"])
            #expect(named("microphone_switched").first?["microphone"] as? String == "newmic")
            let lost = named("microphone_disconnected").first
            #expect(lost?["microphone"] as? String == "newmic" && lost?["fallback"] as? String == "virtmic")
            #expect(named("microphone_offer_ignored").first?["microphone"] as? String == "usbmic")
        }

        @Test("in the call, a headset plugged in is offered too, and w switches to it")
        func callOffersAndSwitches() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let folder = tempDir()
            let pane = try DeviceChangesTests.lobby(on: server, folder: folder)
            #expect(pane.wait(for: "VirtualMic (virtmic)") != nil, "\(pane.screen())")
            try pane.press("Enter")
            #expect(pane.wait(for: "In the call", timeout: 3) != nil, "\(pane.screen())")
            _ = try server.addMicrophone(name: "headset", description: "Headset")
            #expect(Self.wait(pane, for: "A new microphone is available: Headset. Switch (w)?"), "\(pane.screen())")
            Self.capture(pane, as: "call-new-microphone.txt")
            try pane.press("w")
            #expect(Self.wait(pane, for: "A new microphone", gone: true, timeout: 3), "\(pane.screen())")
            #expect(
                poll(timeout: 5) {
                    LobbyTerminalTests.events(folder).contains { $0["event"] as? String == "microphone_switched" }
                })
            try pane.press("q")
            try LobbyTerminalTests.expectRestored(pane, folder)
            let switched = LobbyTerminalTests.events(folder).first { $0["event"] as? String == "microphone_switched" }
            #expect(switched?["microphone"] as? String == "headset")
        }
    }
#endif

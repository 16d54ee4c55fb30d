#if os(Linux)
    import Foundation
    import MicCheck
    import MicCheckTesting
    import Testing

    /// "Test your microphone" in the terminal lobby (issue 47), as a person goes through it: t records 5 s of
    /// the virtual microphone, plays them back through the private server's output, and shows the verdict.
    @Suite("The lobby's microphone test, against a private PulseAudio server", .serialized, .tags(.live))
    struct MicrophoneTestLobbyTests {
        /// A WAV of a voice talking over a room, `seconds` long, for the virtual microphone.
        static func voiceFile(_ folder: URL, voiceDB: Double, roomDB: Double, seconds: Double = 20) throws -> String {
            var x = Signals.pinkNoise(rmsDB: roomDB, seconds: seconds, sampleRate: 16_000)
            for (i, v) in Signals.voice(rmsDB: voiceDB, seconds: seconds, sampleRate: 16_000).enumerated() { x[i] += v }
            let path = folder.appendingPathComponent("voice.wav").path
            let bytes = WAVWriter.file(interleaved: x, sampleRate: 16_000, channels: 1, encoding: .signedInt16)
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw CocoaError(.fileWriteUnknown)
            }
            return path
        }

        /// Runs the lobby on the private server while `voice` plays into its microphone, presses t, and
        /// waits for the verdict; returns the event log.
        func test(
            voiceDB: Double, roomDB: Double, expecting sentence: String, screenshot: String
        ) throws -> [[String: Any]] {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let folder = tempDir()
            try server.play(Self.voiceFile(folder, voiceDB: voiceDB, roomDB: roomDB))
            let pane = try DeviceChangesTests.lobby(on: server, folder: folder)
            #expect(DeviceChangesTests.wait(pane, for: "[t] Test your microphone"), "\(pane.screen())")
            try pane.press("t")
            #expect(DeviceChangesTests.wait(pane, for: "Recording: say a sentence or two"), "\(pane.screen())")
            DeviceChangesTests.capture(pane, as: "lobby-microphone-test-recording.txt")
            #expect(DeviceChangesTests.wait(pane, for: "Playing back your recording…", timeout: 9), "\(pane.screen())")
            // The recording plays through the server's default output while the screen says so.
            let inputs = try server.pactl(["list", "sink-inputs"])
            #expect(inputs.contains("miccheck microphone test"), "\(inputs)")
            #expect(DeviceChangesTests.wait(pane, for: sentence), "\(pane.screen())")
            #expect(DeviceChangesTests.wait(pane, for: "[t] Test again", timeout: 8), "\(pane.screen())")
            #expect(try !server.pactl(["list", "sink-inputs"]).contains("miccheck microphone test"), "played and gone")
            DeviceChangesTests.capture(pane, as: screenshot)
            try pane.press("q")
            try LobbyTerminalTests.expectRestored(pane, folder)
            return LobbyTerminalTests.events(folder)
        }

        @Test("a good recording: recorded, played back, and 'Your voice came through clearly' with its figures")
        func goodRecording() throws {
            let events = try test(
                voiceDB: -24, roomDB: -62, expecting: "Your voice came through clearly:",
                screenshot: "lobby-microphone-test-clear.txt")
            let names = events.compactMap { $0["event"] as? String }.filter { $0.hasPrefix("microphone_test") }
            #expect(names == ["microphone_test_started", "microphone_test_recorded", "microphone_test_played_back"])
            let recorded = try #require(events.first { $0["event"] as? String == "microphone_test_recorded" })
            #expect(recorded["verdict"] as? String == "clear", "\(recorded)")
            #expect(recorded["plays_back"] as? Bool == true)
            #expect(abs((recorded["recorded_seconds"] as? Double ?? 0) - 5) < 0.05)
            #expect((recorded["speech_level_db"] as? Double ?? -99) > -32)
        }

        @Test("a quiet recording: too quiet, naming the microphone whose volume to raise")
        func quietRecording() throws {
            let events = try test(
                voiceDB: -56, roomDB: -85, expecting: "Raise the input volume of VirtualMic (virtmic)",
                screenshot: "lobby-microphone-test-quiet.txt")
            let recorded = try #require(events.first { $0["event"] as? String == "microphone_test_recorded" })
            #expect(recorded["verdict"] as? String == "too_quiet", "\(recorded)")
        }
    }
#endif

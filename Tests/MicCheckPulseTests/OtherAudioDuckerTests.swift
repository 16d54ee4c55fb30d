#if os(Linux)
    import Foundation
    import Logging
    import MicCheck
    import MicCheckPulse
    import MicCheckTesting
    import Testing

    @Suite("OtherAudioDucker against a private server", .serialized, .tags(.live))
    struct OtherAudioDuckerTests {
        @Test("what the ducker does is in the app's log: each stream ducked, a stream the user turned up, the restore")
        func logsWhatItDoes() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let wav = try server.writeWAV(
                Signals.sine(frequency: 440, rmsDB: -20, seconds: 30, sampleRate: 16_000), sampleRate: 16_000,
                named: "tone.wav")
            let connection = try PulseConnection(server: server.address)
            defer { connection.close() }
            try server.play(wav, sink: "speaker")
            let stream = try #require(waitFor(5) { try? connection.sinkInputs().first })

            let log = LogRecorder()
            let store = DuckingJournalStore(directory: "/nowhere/ducking", storage: MemoryStateStorage())
            let ducker = try OtherAudioDucker(
                level: .max, advanced: false, server: server.address, store: store, logger: log.logger())
            try ducker.start()
            #expect(ducker.duckedStreams == [stream.index])
            let name = stream.applicationName.map { "\($0) (\(stream.name))" } ?? stream.name
            #expect(
                log.entries == [
                    LogRecorder.Entry(
                        level: .debug, message: "ducking \(name) by 30 dB",
                        metadata: ["ducking.stream": "\(stream.index)"])
                ])

            try server.pactl(["set-sink-input-volume", String(stream.index), "50%"])
            let turnedUp =
                "the volume of \(name) was changed during ducking; it is kept, and that stream is no longer ducked"
            #expect(waitFor(5) { log.messages(at: .info) == [turnedUp] ? true : nil } == true)
            #expect(ducker.takeNotes() == [turnedUp])

            let outcome = try ducker.stop()
            #expect(outcome.restored == 0 && outcome.keptChanged == 0 && outcome.gone == 0)
            let logged = log.entries.count
            _ = try ducker.stop()
            #expect(log.entries.count == logged, "a second stop restores nothing and logs nothing")
            #expect(
                log.entries.last
                    == LogRecorder.Entry(
                        level: .debug, message: "ducking stopped",
                        metadata: ["ducking.restored": "0", "ducking.kept_changed": "0", "ducking.gone": "0"]))
        }

        /// The first non-nil value of `probe` within `seconds`, asked every 50 ms.
        private func waitFor<T>(_ seconds: Double, _ probe: () -> T?) -> T? {
            let end = Date().addingTimeInterval(seconds)
            repeat {
                if let value = probe() { return value }
                Thread.sleep(forTimeInterval: 0.05)
            } while Date() < end
            return nil
        }
    }
#endif

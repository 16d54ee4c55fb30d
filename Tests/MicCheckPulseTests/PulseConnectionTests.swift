#if os(Linux)
    import Foundation
    import Logging
    import MicCheck
    import MicCheckPulse
    import MicCheckTesting
    import Testing

    @Suite("PulseConnection and PulseMicrophone against a private server", .serialized, .tags(.live))
    struct PulseConnectionTests {
        @Test("lists the sources with the default, the monitors and the mute state")
        func sources() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let connection = try PulseConnection(server: server.address)
            defer { connection.close() }
            #expect(try connection.serverDefaults().defaultSource == "virtmic")
            var sources = try connection.sources()
            #expect(sources.filter(\.isDefault).map(\.name) == ["virtmic"])
            #expect(sources.first { $0.name == "speaker.monitor" }?.isMonitor == true)
            #expect(sources.allSatisfy { $0.sampleRate > 0 && $0.channels > 0 })
            try server.pactl(["set-source-mute", "virtmic", "1"])
            sources = try connection.sources()
            #expect(sources.first { $0.name == "virtmic" }?.isMuted == true)
            #expect(try connection.source(named: nil).name == "virtmic")
            #expect(throws: PulseError.self) { try connection.source(named: "nope") }
        }

        @Test("no server: a noServer error, never a crash")
        func noServer() {
            #expect { try PulseConnection(server: "unix:/nonexistent/pulse/native") } throws: { error in
                (error as? PulseError)?.kind == .noServer
            }
        }

        @Test("the microphone delivers what is played into it, at its level, and reports the server's death")
        func capture() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let wav = try server.writeWAV(
                Signals.sine(frequency: 440, rmsDB: -15, seconds: 3, sampleRate: 16_000), sampleRate: 16_000,
                named: "tone.wav")
            let notices = NoticeLog()
            let log = LogRecorder()
            let mic = try PulseMicrophone(
                server: server.address, reconnectWindow: .milliseconds(500), logger: log.logger()
            ) {
                notices.add($0)
            }
            defer { mic.close() }
            try server.play(wav)
            var buffer = [Float](repeating: 0, count: 4096)
            var peak: Float = 0
            var total = 0
            let end = Date().addingTimeInterval(2.5)
            while Date() < end {
                if case .samples(let n) = try buffer.withUnsafeMutableBufferPointer({
                    try mic.read(into: $0, timeout: .milliseconds(100))
                }) {
                    total += n
                    for x in buffer[0..<n] { peak = max(peak, abs(x)) }
                }
            }
            #expect(abs(Decibels.fromAmplitude(Double(peak)) - (-15 + 3.01)) < 1, "peak \(peak)")
            #expect(total > mic.sampleRate * 2)
            #expect(mic.droppedSamples == 0)

            server.kill()
            // What was captured before the kill may still be handed over first; the loss must follow within 3 s.
            #expect {
                let until = Date().addingTimeInterval(3)
                while Date() < until {
                    _ = try buffer.withUnsafeMutableBufferPointer {
                        try mic.read(into: $0, timeout: .milliseconds(500))
                    }
                }
            } throws: { error in
                (error as? PulseError)?.kind == .connectionLost
            }
            #expect(notices.all == [.serverLost(window: .milliseconds(500))])
            // The same notice in the log, as a warning with the server; then each attempt to reconnect, at debug.
            let warning = LogRecorder.Entry(
                level: .warning, message: "the PulseAudio server went away; reconnecting for up to 0.5 s",
                metadata: ["pulse.server": server.address])
            #expect(log.entries.first == warning)
            let attempts = log.entries.dropFirst()
            #expect(
                !attempts.isEmpty
                    && attempts.allSatisfy { $0.level == .debug && $0.message.hasPrefix("reconnecting: ") })
            // At the backoff's pace (0.1 s, 0.2 s, 0.4 s, ...): in a 0.5 s window, three attempts, a fourth at most
            // on a slow machine. The blocks of samples signalled while capture ran do not cut the pauses short
            // (they did: hundreds of attempts, a core busy for as long as the server stayed away).
            #expect(attempts.count <= 4, "\(attempts.count) attempts to reconnect in 0.5 s")
        }
    }

    final class NoticeLog: @unchecked Sendable {
        // @unchecked Sendable: `items` is guarded by `lock`.
        private let lock = NSLock()
        private var items: [PulseMicrophone.Notice] = []
        func add(_ n: PulseMicrophone.Notice) { lock.withLock { items.append(n) } }
        var all: [PulseMicrophone.Notice] { lock.withLock { items } }
    }
#endif

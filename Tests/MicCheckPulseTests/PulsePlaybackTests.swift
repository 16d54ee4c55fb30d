#if os(Linux)
    import Foundation
    import MicCheck
    import MicCheckPulse
    import MicCheckTesting
    import Synchronization
    import Testing

    @Suite("PulsePlayback: the microphone test's playback, against a private server", .serialized, .tags(.live))
    struct PulsePlaybackTests {
        /// Captures the private server's virtual microphone (which hears the `micsink` output) for `seconds`
        /// on a thread of its own, while `body` runs; returns the samples and their rate.
        func capturing(seconds: Double, server: PrivatePulseServer, _ body: () throws -> Void) throws -> ([Float], Int)
        {
            let mic = try PulseMicrophone(server: server.address, reconnectWindow: .milliseconds(500)) { _ in }
            defer { mic.close() }
            let captured = Mutex<[Float]>([])
            let finished = DispatchSemaphore(value: 0)
            let thread = Thread {
                var buffer = [Float](repeating: 0, count: 4096)
                let end = Date().addingTimeInterval(seconds)
                while Date() < end {
                    guard
                        case .samples(let n) = try? buffer.withUnsafeMutableBufferPointer({
                            try mic.read(into: $0, timeout: .milliseconds(100))
                        })
                    else { continue }
                    captured.withLock { $0 += buffer[0..<n] }
                }
                finished.signal()
            }
            thread.start()
            try body()
            finished.wait()
            return (captured.withLock { $0 }, mic.sampleRate)
        }

        /// 100 ms levels of `x`, dBFS.
        func levels(_ x: [Float], rate: Int) -> [Double] {
            stride(from: 0, to: x.count - rate / 10, by: rate / 10).map { Signals.rmsDB(x[$0..<($0 + rate / 10)]) }
        }

        @Test(
            "a recording played to an output is heard there whole, at its level, and play returns once it has been played"
        )
        func playsWholeAndWaits() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let connection = try PulseConnection(server: server.address)
            defer { connection.close() }
            let tone = Signals.sine(frequency: 440, rmsDB: -15, seconds: 1.5, sampleRate: 16_000)
            var elapsed = 0.0
            var complete = false
            let (heard, rate) = try capturing(seconds: 3.5, server: server) {
                Thread.sleep(forTimeInterval: 0.3)
                let playback = try PulsePlayback(connection: connection, sink: "micsink", sampleRate: 16_000)
                defer { playback.close() }
                let start = Date()
                complete = try playback.play(tone)
                elapsed = Date().timeIntervalSince(start)
            }
            #expect(complete)
            #expect(elapsed > 1.3 && elapsed < 3, "play returned after \(elapsed) s for 1.5 s of audio")
            let loud = levels(heard, rate: rate).filter { $0 > -25 }
            #expect((13...17).contains(loud.count), "\(loud.count) loud 100 ms windows; the tone lasts 15")
            // The windows that the tone's start and end cut may be lower; those inside it are the tone's level.
            #expect(loud.dropFirst().dropLast().allSatisfy { abs($0 + 15) < 1 }, "levels \(loud)")
        }

        @Test("stopped mid-recording: done is called at once, and the output falls silent")
        func stops() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let tone = Signals.sine(frequency: 440, rmsDB: -15, seconds: 6, sampleRate: 16_000)
            let done = DispatchSemaphore(value: 0)
            let failure = Mutex<PulseError?>(nil)
            var stoppedIn = 0.0
            let (heard, rate) = try capturing(seconds: 3, server: server) {
                let stop = PulsePlayback.start(tone, sampleRate: 16_000, sink: "micsink", server: server.address) {
                    error in
                    failure.withLock { $0 = error }
                    done.signal()
                }
                Thread.sleep(forTimeInterval: 1)
                let start = Date()
                stop()
                #expect(done.wait(timeout: .now() + 2) == .success)
                stoppedIn = Date().timeIntervalSince(start)
            }
            #expect(failure.withLock { $0 } == nil)
            #expect(stoppedIn < 0.5, "done \(stoppedIn) s after stop")
            let l = levels(heard, rate: rate)
            #expect(l.contains { $0 > -20 }, "the tone was heard before the stop")
            #expect(l.suffix(8).allSatisfy { $0 < -40 }, "silent after the stop: \(l.suffix(8))")
        }

        @Test("an output that does not exist is an error that names it; a bad rate is refused")
        func refusals() throws {
            let server = try PrivatePulseServer()
            defer { server.stop() }
            let connection = try PulseConnection(server: server.address)
            defer { connection.close() }
            #expect { try PulsePlayback(connection: connection, sink: "nope", sampleRate: 16_000) } throws: { error in
                "\(error)".contains("nope")
            }
            #expect(throws: PulseError.self) { try PulsePlayback(connection: connection, sampleRate: 0) }
            let done = DispatchSemaphore(value: 0)
            let failure = Mutex<PulseError?>(nil)
            _ = PulsePlayback.start([0, 0], sampleRate: 16_000, server: "unix:/nonexistent/native") { error in
                failure.withLock { $0 = error }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 5) == .success)
            #expect(failure.withLock { $0 }?.kind == .noServer)
        }
    }
#endif

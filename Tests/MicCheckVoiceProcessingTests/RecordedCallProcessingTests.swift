#if os(Linux)
    import Foundation
    import MicCheck
    import MicCheckTesting
    import MicCheckVoiceProcessing
    import Testing

    @Suite("A recorded call through voice processing")
    struct RecordedCallProcessingTests {
        /// A float WAV file of `samples` in memory, opened for reading.
        func reader(_ samples: [Float], rate: Int) throws -> WAVReader {
            try WAVReader(
                source: MemoryByteSource(
                    WAVWriter.file(interleaved: samples, sampleRate: rate, channels: 1, encoding: .float32)))
        }

        /// Runs `near` (and `far`) through a stream with `configuration`; the processed audio and the summary.
        func run(
            near: [Float], nearRate: Int = 16_000, far: [Float]?, farRate: Int = 16_000,
            configuration: VoiceProcessingConfiguration = .call()
        )
            throws -> (out: [Float], summary: RecordedCallProcessing.Summary, stream: VoiceProcessingStream)
        {
            let stream = try VoiceProcessingStream(
                configuration: configuration, nearRate: nearRate, farRate: far == nil ? nearRate : farRate)
            var out: [Float] = []
            let summary = try RecordedCallProcessing.run(
                near: try reader(near, rate: nearRate), far: try far.map { try reader($0, rate: farRate) },
                through: stream
            ) { out += $0 }
            return (out, summary, stream)
        }

        @Test("the far end's echo in the near end is cancelled; every near-end sample comes out, levels measured")
        func echoCancelled() throws {
            let rate = 16_000
            let far = Signals.voice(rmsDB: -20, seconds: 6, sampleRate: rate)
            let delay = rate * 40 / 1000
            let noise = Signals.whiteNoise(rmsDB: -70, seconds: 6, sampleRate: rate)
            let near = (0..<far.count).map { i in (i >= delay ? 0.3 * far[i - delay] : 0) + noise[i] }
            let (out, summary, _) = try run(near: near, far: far)
            #expect(out.count == near.count)
            #expect(abs(summary.seconds - 6) < 1e-9)
            #expect(abs(summary.inputLevelDB - Signals.rmsDB(near[...])) < 0.01)
            #expect(abs(summary.outputLevelDB - Signals.rmsDB(out[...])) < 0.01)
            // Once the canceller has converged, little of the echo is left.
            let tail = 4 * rate..<near.count
            #expect(
                Signals.rmsDB(out[tail]) < Signals.rmsDB(near[tail]) - 15,
                "\(Signals.rmsDB(out[tail])) against \(Signals.rmsDB(near[tail]))")
        }

        @Test(
            "a far end shorter than the near end is followed by silence, matched by time at any far-end rate",
            arguments: [16_000, 48_000])
        func shortFarEnd(farRate: Int) throws {
            let near = Signals.whiteNoise(rmsDB: -40, seconds: 2, sampleRate: 16_000)
            let far = Signals.voice(rmsDB: -20, seconds: 1, sampleRate: farRate)
            let (out, summary, stream) = try run(near: near, far: far, farRate: farRate)
            #expect(out.count == near.count && abs(summary.seconds - 2) < 1e-9)
            // The second second's 100 frames had no far end (give or take the canceller's few frames of lag).
            #expect((95...105).contains(stream.framesWithoutFar), "\(stream.framesWithoutFar)")
            let (_, _, whole) = try run(
                near: near, far: Signals.voice(rmsDB: -20, seconds: 3, sampleRate: farRate), farRate: farRate)
            #expect(whole.framesWithoutFar == 0)
        }

        @Test("a 48 kHz near end comes out at the processing rate, with no far end")
        func nearOnly() throws {
            let near = Signals.sine(frequency: 440, rmsDB: -20, seconds: 1, sampleRate: 48_000)
            let (out, summary, stream) = try run(
                near: near, nearRate: 48_000, far: nil,
                configuration: VoiceProcessingConfiguration(sampleRate: 48_000))
            #expect(stream.rate == 48_000 && out.count == near.count)
            #expect(abs(summary.inputLevelDB + 20) < 0.1)
            // The high-pass filter leaves 440 Hz alone.
            #expect(abs(summary.outputLevelDB - summary.inputLevelDB) < 1, "\(summary.outputLevelDB)")
        }
    }
#endif

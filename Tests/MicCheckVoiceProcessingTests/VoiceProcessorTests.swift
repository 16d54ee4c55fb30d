#if os(Linux)
    import Foundation
    import MicCheck
    import MicCheckTesting
    import MicCheckVoiceProcessing
    import Testing

    /// Runs `near` through a new processor frame by frame, with `far` as the echo reference.
    /// Returns the processed near end (whole frames only) and the processor.
    func processed(
        near: [Float], far: [Float], configuration: VoiceProcessingConfiguration
    ) throws
        -> (output: [Float], processor: VoiceProcessor)
    {
        let processor = try VoiceProcessor(configuration: configuration)
        let n = processor.frameLength
        var out = near
        var start = 0
        while start + n <= min(near.count, far.count) {
            try far.withUnsafeBufferPointer {
                try processor.analyzeFar(UnsafeBufferPointer(rebasing: $0[start..<start + n]))
            }
            try out.withUnsafeMutableBufferPointer {
                try processor.processNear(UnsafeMutableBufferPointer(rebasing: $0[start..<start + n]))
            }
            start += n
        }
        return (Array(out[0..<start]), processor)
    }

    func energy(_ x: ArraySlice<Float>) -> Double { x.reduce(0.0) { $0 + Double($1) * Double($1) } }

    /// The echo test set-up: a far-end voice through a 40 ms (or `delaySeconds`), -10 dB echo path, a
    /// -70 dBFS noise floor, and a different near-end voice for double talk. 12 s at 16 kHz.
    struct EchoScene {
        let far: [Float]
        let echo: [Float]
        let floor: [Float]
        let talker: [Float]

        init(delaySeconds: Double = 0.04) throws {
            let far = try CorpusAudio.mono("clean_01_asterisk-en-allison", seconds: 12) ?? []
            let talker = try CorpusAudio.mono("clean_00_hedgewars-British", seconds: 12) ?? []
            let count = min(far.count, talker.count)
            self.far = Array(far[0..<count])
            self.talker = Array(talker[0..<count])
            echo = CorpusAudio.echo(of: self.far, delaySeconds: delaySeconds, gainDB: -10, sampleRate: 16_000)
            floor = Signals.whiteNoise(rmsDB: -70, seconds: Double(count) / 16_000, sampleRate: 16_000)
        }

        var echoOnly: [Float] { zip(echo, floor).map { $0 + $1 } }
        var doubleTalk: [Float] { (0..<far.count).map { echo[$0] + talker[$0] + floor[$0] } }
    }

    @Suite("Voice processing", .enabled(if: CorpusAudio.isPresent, "needs ../shared/corpus"))
    struct VoiceProcessorTests {
        /// Echo return loss enhancement after the first second: the echo's energy over the output's.
        @Test(arguments: [
            (VoiceProcessingConfiguration.call(), 30.0, 80.0),
            (VoiceProcessingConfiguration(echoCancellation: .moderate), 25.0, 80.0),
            // No canceller: the echo passes (the measure can fail).
            (VoiceProcessingConfiguration(noiseSuppression: .moderate), -1.0, 6.0),
        ])
        func echoIsCancelled(configuration: VoiceProcessingConfiguration, atLeast: Double, atMost: Double) throws {
            let scene = try EchoScene()
            let (out, _) = try processed(near: scene.echoOnly, far: scene.far, configuration: configuration)
            let erle = 10 * log10(energy(scene.echo[16_000..<out.count]) / energy(out[16_000...]))
            #expect(erle >= atLeast && erle <= atMost, "ERLE \(erle) dB")
        }

        @Test func doubleTalkKeepsTheNearEndTalker() throws {
            let scene = try EchoScene()
            let (out, _) = try processed(near: scene.doubleTalk, far: scene.far, configuration: .call())
            let talker = Signals.rmsDB(scene.talker[16_000..<out.count])
            let output = Signals.rmsDB(out[16_000...])
            #expect(talker - output <= 3, "talker \(talker) dBFS, output \(output) dBFS")
            #expect(output - talker <= 1, "the output is not louder than the talker plus the echo left")
        }

        @Test func reportsItsMetrics() throws {
            let scene = try EchoScene()
            let (_, processor) = try processed(near: scene.echoOnly, far: scene.far, configuration: .call())
            let metrics = processor.metrics
            let erle = try #require(metrics.averageEchoReturnLossEnhancementDB)
            #expect(erle >= 30)
            let erl = try #require(metrics.averageEchoReturnLossDB)
            #expect(abs(erl - 10) <= 3, "the echo path is 10 dB down; measured \(erl)")
            let delay = try #require(metrics.delayMilliseconds)
            #expect((20...60).contains(delay), "the echo path is 40 ms long; estimated \(delay)")
            #expect(metrics.speechProbability != nil)
        }
    }

    @Suite("Voice processing without echo")
    struct VoiceProcessingComponentTests {
        static let silence = [Float](repeating: 0, count: 64_000)

        @Test func noiseSuppressionLevelsRemoveMoreNoise() throws {
            let noise = Signals.whiteNoise(rmsDB: -40, seconds: 4, sampleRate: 16_000)
            let levels = try VoiceProcessingConfiguration.NoiseSuppressionLevel.allCases.map {
                Signals.rmsDB(
                    try processed(near: noise, far: Self.silence, configuration: .init(noiseSuppression: $0)).output[
                        16_000...])
            }
            #expect(levels[0] <= -45, "low suppression removes at least 5 dB: \(levels)")
            #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 > $1 + 2 }, "each level removes more: \(levels)")
        }

        @Test func noiseSuppressionKeepsSpeech() throws {
            let speech = Signals.syllables(rmsDB: -40, seconds: 4, sampleRate: 16_000)
            let noise = Signals.whiteNoise(rmsDB: -60, seconds: 4, sampleRate: 16_000)
            let input = zip(speech, noise).map { $0 + $1 }
            let out = try processed(near: input, far: Self.silence, configuration: .init(noiseSuppression: .moderate))
                .output
            #expect(abs(Signals.rmsDB(out[16_000...]) - Signals.rmsDB(input[16_000..<out.count])) <= 3)
        }

        @Test(arguments: VoiceProcessingConfiguration.GainControlMode.allCases)
        func gainControlRaisesQuietSpeech(mode: VoiceProcessingConfiguration.GainControlMode) throws {
            let speech = Signals.syllables(rmsDB: -40, seconds: 4, sampleRate: 16_000)
            let out = try processed(near: speech, far: Self.silence, configuration: .init(gainControl: mode)).output
            let gain = Signals.rmsDB(out[32_000...]) - Signals.rmsDB(speech[32_000..<out.count])
            #expect(gain >= 6, "\(mode) gained \(gain) dB")
        }

        @Test(arguments: [(true, -80.0, -30.0), (false, -20.5, -19.5)])
        func highPassFilterRemovesHum(enabled: Bool, low: Double, high: Double) throws {
            let hum = Signals.sine(frequency: 40, rmsDB: -20, seconds: 2, sampleRate: 16_000)
            let out = try processed(near: hum, far: Self.silence, configuration: .init(highPassFilter: enabled)).output
            let level = Signals.rmsDB(out[16_000...])
            #expect(level >= low && level <= high, "40 Hz at -20 dBFS came out at \(level)")
        }

        @Test(arguments: VoiceProcessingConfiguration.supportedSampleRates)
        func framesAreTenMilliseconds(rate: Int) throws {
            #expect(try VoiceProcessor(configuration: .call(sampleRate: rate)).frameLength == rate / 100)
        }

        @Test func refusesWhatItCannotDo() {
            #expect(throws: VoiceProcessingError.unsupportedSampleRate(44_100)) {
                try VoiceProcessor(configuration: .call(sampleRate: 44_100))
            }
            #expect(throws: VoiceProcessingError.self) {
                try VoiceProcessor(configuration: .init(gainControl: .fixedDigital, gainTargetDBFS: 40))
            }
        }

        @Test(arguments: [
            (8_000, 8_000), (11_025, 16_000), (16_000, 16_000), (22_050, 32_000), (44_100, 48_000),
            (48_000, 48_000), (96_000, 48_000),
        ])
        func processingRate(input: Int, expected: Int) {
            #expect(VoiceProcessingConfiguration.processingRate(for: input) == expected)
        }
    }
#endif

#if os(Linux)
    @Suite("Voice processing stream", .enabled(if: CorpusAudio.isPresent, "needs ../shared/corpus"))
    struct VoiceProcessingStreamTests {
        /// Feeds the echo scene in 10 ms blocks, the far end held back for `stall` blocks from block 300
        /// and then delivered at once (a capture thread late under load). Returns the processed near end.
        func run(stall: Int) throws -> (output: [Float], scene: EchoScene, stream: VoiceProcessingStream) {
            let scene = try EchoScene()
            let stream = try VoiceProcessingStream(
                configuration: .call(), nearRate: 16_000, farRate: 16_000, maximumFarWait: 0.05)
            var out: [Float] = []
            var held = 0
            let near = scene.echoOnly
            for block in 0..<(near.count / 160) {
                let range = block * 160..<(block + 1) * 160
                if block >= 300 && block < 300 + stall {
                    held += 1
                } else {
                    let from = (block - held) * 160
                    scene.far.withUnsafeBufferPointer {
                        stream.pushFar(UnsafeBufferPointer(rebasing: $0[from..<range.upperBound]))
                    }
                    held = 0
                }
                try near.withUnsafeBufferPointer {
                    try stream.pushNear(UnsafeBufferPointer(rebasing: $0[range])) { out.append(contentsOf: $0) }
                }
            }
            try stream.finish { out.append(contentsOf: $0) }
            return (out, scene, stream)
        }

        @Test("a far end that arrives late is skipped, not shifted: cancellation goes on", arguments: [0, 20, 60])
        func lateFarEnd(stall: Int) throws {
            let (out, scene, stream) = try run(stall: stall)
            #expect(abs(out.count - scene.echoOnly.count) < 160)
            // After the stall, the far end is back in step with the near end.
            let after = (300 + stall + 100) * 160
            let erle = 10 * log10(energy(scene.echo[after..<out.count]) / energy(out[after...]))
            #expect(erle >= 25, "ERLE after a \(stall * 10) ms stall: \(erle) dB")
            #expect(stream.framesWithoutFar >= max(0, stall - 5))
        }

        /// The scene with an echo path of `delay` s, through a stream in 10 ms blocks.
        func streamed(_ scene: EchoScene, near: [Float]) throws -> (output: [Float], stream: VoiceProcessingStream) {
            let stream = try VoiceProcessingStream(
                configuration: .call(), nearRate: 16_000, farRate: 16_000, maximumFarWait: 0.05)
            var out: [Float] = []
            for block in 0..<(near.count / 160) {
                let range = block * 160..<(block + 1) * 160
                scene.far.withUnsafeBufferPointer { stream.pushFar(UnsafeBufferPointer(rebasing: $0[range])) }
                try near.withUnsafeBufferPointer {
                    try stream.pushNear(UnsafeBufferPointer(rebasing: $0[range])) { out.append(contentsOf: $0) }
                }
            }
            return (out, stream)
        }

        /// The canceller's filter spans about 130 ms after the far end it is handed; alone, it removes
        /// 2-5 dB of an echo 200 ms late. The stream measures the delay and hands the far end over later.
        @Test(
            "echo paths of up to 450 ms are cancelled once the stream has found their delay",
            arguments: [0.04, 0.2, 0.45])
        func longEchoPaths(delay: Double) throws {
            let scene = try EchoScene(delaySeconds: delay)
            let (out, stream) = try streamed(scene, near: scene.echoOnly)
            let found = try #require(stream.echoDelayMilliseconds)
            #expect(abs(Double(found) - delay * 1_000) <= 10, "found \(found) ms")
            // From the second utterance on (the first, 1.5-5 s, is where the delay is found).
            let from = 6 * 16_000
            let erle = 10 * log10(energy(scene.echo[from..<out.count]) / energy(out[from...]))
            #expect(erle >= 30, "ERLE with a \(Int(delay * 1_000)) ms echo path: \(erle) dB")
        }

        @Test("double talk on a long echo path: the near-end talker loses at most 3 dB")
        func longEchoPathDoubleTalk() throws {
            let scene = try EchoScene(delaySeconds: 0.3)
            let (out, _) = try streamed(scene, near: scene.doubleTalk)
            let from = 6 * 16_000
            let talker = Signals.rmsDB(scene.talker[from..<out.count])
            let output = Signals.rmsDB(out[from...])
            #expect(talker - output <= 3 && output - talker <= 1, "talker \(talker) dBFS, output \(output) dBFS")
        }

        /// Loses 300 ms of one side from block 300 on (a ring that overflowed), says so, and measures
        /// the cancellation after it. With `nearLost`, the output is 300 ms shorter than the echo.
        @Test("samples lost on either side keep the pairing in time", arguments: [false, true])
        func lostSamples(nearLost: Bool) throws {
            let scene = try EchoScene()
            let stream = try VoiceProcessingStream(
                configuration: .call(), nearRate: 16_000, farRate: 16_000, maximumFarWait: 0.05)
            var out: [Float] = []
            let near = scene.echoOnly
            for block in 0..<(near.count / 160) {
                let range = block * 160..<(block + 1) * 160
                let lost = (300..<330).contains(block)
                if lost && !nearLost {
                    stream.farSamplesLost(160)
                } else {
                    scene.far.withUnsafeBufferPointer { stream.pushFar(UnsafeBufferPointer(rebasing: $0[range])) }
                }
                if lost && nearLost {
                    stream.nearSamplesLost(160)
                    continue
                }
                try near.withUnsafeBufferPointer {
                    try stream.pushNear(UnsafeBufferPointer(rebasing: $0[range])) { out.append(contentsOf: $0) }
                }
            }
            let shift = nearLost ? 30 * 160 : 0
            let after = 430 * 160
            let erle = 10 * log10(energy(scene.echo[(after + shift)..<(out.count + shift)]) / energy(out[after...]))
            #expect(erle >= 25, "ERLE after losing 300 ms of the \(nearLost ? "near" : "far") end: \(erle) dB")
        }
    }
    /// Feeds `near` and `far` to an estimator in 10 ms frames; returns the delay it holds after each.
    func delays(near: [Float], far: [Float]) -> [Int?] {
        var estimator = EchoDelayEstimator()
        return (0..<(min(near.count, far.count) / 160)).map { i in
            near.withUnsafeBufferPointer { n in
                far.withUnsafeBufferPointer { f in
                    estimator.add(
                        far: UnsafeBufferPointer(rebasing: f[i * 160..<(i + 1) * 160]),
                        near: UnsafeBufferPointer(rebasing: n[i * 160..<(i + 1) * 160]))
                }
            }
            return estimator.delayMilliseconds
        }
    }

    @Suite("Echo delay estimator", .enabled(if: CorpusAudio.isPresent, "needs ../shared/corpus"))
    struct EchoDelayEstimatorTests {
        @Test(
            "finds the echo path's delay within 10 ms, during the first utterance",
            arguments: [0.0, 0.03, 0.12, 0.25, 0.45])
        func findsTheDelay(delay: Double) throws {
            let scene = try EchoScene(delaySeconds: delay)
            let found = delays(near: scene.echoOnly, far: scene.far)
            let last = try #require(found.last ?? nil)
            #expect(abs(Double(last) - delay * 1_000) <= 10, "found \(last) ms")
            // The far voice starts at about 1.5 s; the delay is known before 4 s.
            #expect(found[400] != nil, "nothing found by 4 s")
        }

        @Test(
            "in a room noise as loud as the echo, the delay is still found",
            arguments: ["noise_04_pink", "noise_10_machinery_ottd"])
        func findsTheDelayInNoise(noise: String) throws {
            let scene = try EchoScene(delaySeconds: 0.15)
            let raw = try #require(try CorpusAudio.mono(noise, seconds: 12))
            let gain = Float(Decibels.amplitude(Signals.rmsDB(scene.echo[...]) - Signals.rmsDB(raw[...])))
            var near = scene.echo
            for i in 0..<min(near.count, raw.count) { near[i] += gain * raw[i] }
            let found = Set(delays(near: near, far: scene.far).compactMap { $0 })
            #expect(found == [150], "\(found)")
        }

        @Test("no echo, no delay: a silent loudspeaker")
        func findsNothingWithoutFarEnd() throws {
            let scene = try EchoScene()
            #expect(
                delays(near: scene.echoOnly, far: [Float](repeating: 0, count: scene.far.count)).allSatisfy {
                    $0 == nil
                })
        }

        @Test(
            "no echo, no delay: a microphone that hears another voice, or music with singing",
            arguments: [
                ("clean_01_asterisk-en-allison", "clean_00_hedgewars-British"),
                ("clean_02_espeak-ng-es+f3", "clean_03_hedgewars-British"),
                ("clean_05_espeak-ng-en-us+klatt2", "quiet_00_near_hedgewars-British"),
                ("clean_04_hedgewars-Robot", "noise_07_music_vocals_lmms"),
            ])
        func findsNothingInAnotherSound(far: String, near: String) throws {
            let f = try #require(try CorpusAudio.mono(far, seconds: 12))
            let n = try #require(try CorpusAudio.mono(near, seconds: 12))
            let found = Set(delays(near: n, far: f).compactMap { $0 })
            #expect(found.isEmpty, "\(found)")
        }

        @Test("double talk does not move a delay found before it")
        func doubleTalkKeepsTheDelay() throws {
            let scene = try EchoScene(delaySeconds: 0.12)
            // Echo alone for 6 s, then the near-end talker 6 dB louder than the echo path's output.
            var near = scene.echoOnly
            for i in 96_000..<near.count { near[i] += 2 * scene.talker[i] }
            let found = delays(near: near, far: scene.far)
            let before = try #require(found[599] ?? nil)
            #expect(abs(before - 120) <= 10)
            #expect(found[600...].allSatisfy { $0 == before }, "\(Set(found[600...].compactMap { $0 }))")
        }
    }
#endif

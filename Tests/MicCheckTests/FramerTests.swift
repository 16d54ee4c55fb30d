import MicCheck
import MicCheckTesting
import Testing

/// The training features (`miccheck features`) and the runtime's analysis frame audio the same way.
@Suite struct FramerTests {
    /// Speech-like sound with pauses, at `rate`, ending mid-frame.
    private func audio(rate: Int) -> [Float] {
        let voice = Signals.voice(rmsDB: -24, seconds: 0.9, sampleRate: rate)
        let room = Signals.pinkNoise(rmsDB: -55, seconds: 0.37, sampleRate: rate)
        return voice + room + voice.map { $0 * 0.5 } + [Float](repeating: 0, count: rate / 300)
    }

    @Test(arguments: [16_000, 44_100, 48_000, 8_000])
    func trainingFeaturesAreTheAnalyzersFrameForFrame(rate: Int) throws {
        let samples = audio(rate: rate)
        let wav = WAVWriter.file(interleaved: samples, sampleRate: rate, channels: 1, encoding: .float32)
        let rows = try TrainingFeatures.rows(of: WAVReader(source: MemoryByteSource(wav)))
        let width = VoiceFeatureExtractor.count
        #expect(rows.count % width == 0)

        // Fed in 7-sample blocks, the analyzer completes at most one frame a call: compare each as it comes.
        var analyzer = Analyzer(inputRate: rate)
        var compared = 0
        forEachBlock(of: samples, sizes: [7]) { block in
            let before = analyzer.frameCount
            analyzer.process(block) { _ in }
            guard analyzer.frameCount == before + 1 else { return }
            let row = Array(rows[(before * width)..<min(rows.count, (before + 1) * width)])
            #expect(row == analyzer.lastFeatures, "frame \(before) at \(rate) Hz")
            compared += 1
        }
        analyzer.finish { _ in }
        // The last frames, which only the resampler's flush completes, are in the training rows too.
        #expect(rows.count / width == analyzer.frameCount)
        #expect(Array(rows.suffix(width)) == analyzer.lastFeatures)
        #expect(compared > analyzer.frameCount - 3)
        // 10 ms frames of 16 kHz audio: as many as the input's whole frames.
        #expect(abs(analyzer.frameCount - samples.count * 100 / rate) <= 1)
    }

    @Test func framesDoNotDependOnBlockSizes() {
        let samples = audio(rate: 44_100)
        func frames(sizes: [Int]) -> [Float] {
            var framer = Framer(inputRate: 44_100)
            var out: [Float] = []
            forEachBlock(of: samples, sizes: sizes) { block in framer.process(block) { out += $0 } }
            framer.finish { out += $0 }
            return out
        }
        let whole = frames(sizes: [samples.count])
        #expect(whole.count % VoiceFeatureExtractor.frameLength == 0)
        #expect(frames(sizes: [1, 441, 13, 4_096]) == whole)
        // A second finish adds nothing.
        var framer = Framer(inputRate: 16_000)
        var count = 0
        samples.withUnsafeBufferPointer { framer.process($0) { _ in count += 1 } }
        framer.finish { _ in count += 1 }
        framer.finish { _ in count += 1 }
        #expect(count == samples.count / VoiceFeatureExtractor.frameLength)
    }
}

import Foundation
import MicCheck
import MicCheckTesting
import Testing

/// The whole analysis of `x` with `configuration` (and `model`): its frames and events.
private func analysed(
    _ x: [Float], rate: Int = 16_000, configuration: AnalysisConfiguration = .init(),
    model: VoiceActivityModel = .bundled
) -> ([AnalysisFrame], [AnalysisEvent]) {
    var a = Analyzer(inputRate: rate, configuration: configuration, model: model)
    var records: [AnalysisOutput] = []
    let sink: (AnalysisOutput) -> Void = { records.append($0) }
    forEachBlock(of: x, sizes: [4_096]) { a.process($0, emit: sink) }
    a.finish(emit: sink)
    return records.split
}

/// The share of `frames` from `from` to `to` seconds that are speech.
private func speechShare(_ frames: [AnalysisFrame], from: Double, to: Double) -> Double {
    let sel = frames.filter { $0.time >= from && $0.time < to }
    return Double(sel.filter(\.isSpeech).count) / Double(max(1, sel.count))
}

/// A fan as a microphone beside it hears one: pink noise whose loudness beats by ±10 % at 25 Hz (the
/// blades), with a 120 Hz motor tone, at `rmsDB`.
private func fan(rmsDB: Double, seconds: Double, rate: Int = 16_000) -> [Float] {
    let air = Signals.pinkNoise(rmsDB: rmsDB, seconds: seconds, sampleRate: rate, seed: 11)
    let tone = Signals.sine(frequency: 120, rmsDB: rmsDB - 12, seconds: seconds, sampleRate: rate)
    return air.indices.map { i in
        let t = Double(i) / Double(rate)
        return air[i] * Float(1 + 0.1 * sin(2 * Double.pi * 25 * t)) + tone[i]
    }
}

/// `voice` added to `bed` from `at` seconds on.
private func mixed(_ bed: [Float], _ voice: [Float], at: Double, rate: Int = 16_000) -> [Float] {
    var y = bed
    let start = Int(at * Double(rate))
    for (i, v) in voice.enumerated() where start + i < y.count { y[start + i] += v }
    return y
}

/// The bundled model with its output bias raised by 12: it calls nearly every frame speech, a stand-in
/// for a model that has drifted over minutes of a sound it never heard.
private func overeagerModel() throws -> VoiceActivityModel {
    try VoiceActivityModel(
        json: ModelFiles.bundled { json in
            guard var output = json["output"] as? [String: Any], let bias = output["bias"] as? [Double] else { return }
            output["bias"] = bias.map { $0 + 12 }
            json["output"] = output
        })
}

/// `x` through the voice features and a `SteadyBackgroundGate` alone, every frame given a probability of
/// 0.9: for each frame its time, whether the gate held it down, and whether the window was steady.
private func gateFrames(_ x: [Float], named: Bool = false) -> [(time: Double, held: Bool, steady: Bool)] {
    var extractor = VoiceFeatureExtractor()
    var gate = SteadyBackgroundGate()
    var features = [Float](repeating: 0, count: VoiceFeatureExtractor.count)
    var out: [(time: Double, held: Bool, steady: Bool)] = []
    var start = 0
    while start + VoiceFeatureExtractor.frameLength <= x.count {
        x[start..<(start + VoiceFeatureExtractor.frameLength)].withUnsafeBufferPointer { f in
            features.withUnsafeMutableBufferPointer { extractor.process(frame: f, into: $0) }
        }
        let p = gate.process(probability: 0.9, features: extractor, steadyNoiseNamed: named)
        out.append((Double(out.count) / 100, p < 0.9, gate.isSteadyBackground))
        start += VoiceFeatureExtractor.frameLength
    }
    return out
}

@Suite("Steady background")
struct SteadyBackgroundTests {
    @Test("the gate learns a steady background and holds its frames below speech; a voice over it stands out")
    func gateOnGeneratedNoise() {
        let rate = 16_000
        let bed = fan(rmsDB: -40, seconds: 20)
        let frames = gateFrames(mixed(bed, Signals.voice(rmsDB: -35, seconds: 4, sampleRate: rate), at: 12))
        let steadyAt = frames.first(where: \.steady)?.time
        let before = frames.filter { $0.time >= 3 && $0.time < 12 }
        let during = frames.filter { $0.time >= 12.5 && $0.time < 15.5 }
        #expect(steadyAt.map { $0 <= 2 } == true, "steady from \(String(describing: steadyAt)) s")
        #expect(
            before.allSatisfy { $0.held },
            "the fan alone: \(before.filter(\.held).count) of \(before.count) frames held down")
        #expect(
            Double(during.filter(\.held).count) < 0.1 * Double(during.count),
            "the voice: \(during.filter(\.held).count) of \(during.count) frames held down")
    }

    @Test(
        "music, a voice and applause are not a steady background",
        arguments: ["voice", "applause", "syllables"])
    func notSteady(kind: String) {
        let rate = 16_000
        let x: [Float] =
            switch kind {
            case "voice": Signals.voice(rmsDB: -30, seconds: 12, sampleRate: rate)
            case "applause": Signals.applause(rmsDB: -30, seconds: 12, sampleRate: rate)
            default: Signals.syllables(vowels: Signals.vowelFormants, rmsDB: -30, seconds: 12, sampleRate: rate)
            }
        let held = gateFrames(x).filter(\.held).count
        #expect(held == 0, "\(kind): \(held) frames held down")
    }

    @Test(
        "a model that calls everything speech still calls no frame of a fan speech once the fan is learnt, and still hears the voice over it"
    )
    func overeagerModelOverFan() throws {
        let rate = 16_000
        let model = try overeagerModel()
        let x = mixed(fan(rmsDB: -35, seconds: 30), Signals.voice(rmsDB: -30, seconds: 5, sampleRate: rate), at: 20)
        let (frames, events) = analysed(x, model: model)
        // From the portrait (a steady second) and the hold on, no frame of the fan is speech.
        let fanOnly = frames.filter { $0.time >= 2 && $0.time < 19.95 }  // the last frames hear the voice's start
        #expect(
            fanOnly.allSatisfy { !$0.isSpeech },
            "fan frames called speech at \(fanOnly.filter(\.isSpeech).map(\.time).prefix(20))")
        let starts = events.compactMap { if case .speechStarted(let t, _) = $0 { t } else { nil } }
        #expect(starts.allSatisfy { $0 < 2 || $0 >= 20 }, "speech started in the fan at \(starts)")
        #expect(speechShare(frames, from: 20.2, to: 25) > 0.8, "the voice over the fan")
        // Without the gate the same model calls the fan speech: the test is of the gate, not of the model.
        let (raw, _) = analysed(x, configuration: .init(background: .off), model: model)
        #expect(speechShare(raw, from: 5, to: 20) > 0.9)
    }

    @Test(
        "the steady noises of the corpus: no frame is speech once the gate has them, even for a model that calls everything speech",
        .enabled(if: corpusPresent, "../shared/corpus is not beside the repository"),
        arguments: ["noise_01_fan_hum_synth", "noise_02_hum_synth", "noise_03_white", "noise_04_pink"])
    func corpusSteadyNoise(file: String) throws {
        let x = try #require(try CorpusAudio.mono(file))
        let (frames, _) = analysed(x, model: try overeagerModel())
        let after = frames.filter { $0.time >= 2 }
        #expect(
            after.filter(\.isSpeech).isEmpty, "\(file): speech at \(after.filter(\.isSpeech).map(\.time).prefix(20))")
    }

    @Test(
        "a background the noisy-microphone detector names a hum or a hiss is held down even where the gate's window is not steady"
    )
    func namedBackground() {
        // Two seconds of a fan (the portrait), then the fan stutters: a tenth of a second in three drops
        // 30 dB, so the window's bands spread far, while nothing rises over the portrait.
        let rate = 16_000
        var x = fan(rmsDB: -35, seconds: 8)
        for i in (2 * rate)..<x.count where (i / (rate / 10)) % 3 == 0 { x[i] *= 0.03 }
        let unnamed = gateFrames(x).filter { $0.time >= 6 }
        let named = gateFrames(x, named: true).filter { $0.time >= 6 }
        #expect(
            !unnamed.contains(where: \.steady) && !unnamed.contains(where: \.held),
            "not named: \(unnamed.filter(\.held).count) frames held down")
        #expect(named.allSatisfy { $0.held }, "named: \(named.filter(\.held).count) of \(named.count) frames held down")
    }

    @Test(
        "minutes of a steady background (3, or 10 with MICCHECK_LONG_TESTS=1): the speech share after the first minute is none, and no larger than the first minute's",
        .tags(.slow), arguments: [-50.0, -40.0, -30.0])
    func minutesGenerated(level: Double) {
        let minutes = LongSession.minutes
        let minute = fan(rmsDB: level, seconds: 60)
        let x = Array((0..<minutes).map { _ in minute }.joined())
        let (frames, _) = analysed(x)
        let first = speechShare(frames, from: 0, to: 60)
        let later = speechShare(frames, from: 60, to: Double(60 * minutes))
        #expect(later <= first, "at \(level) dBFS: \(first) in the first minute, \(later) after")
        #expect(later == 0, "at \(level) dBFS: \(later) of minutes 2-\(minutes) called speech")
    }

    @Test(
        "minutes of the corpus's machines, ambience and crowd (3, or 10 with MICCHECK_LONG_TESTS=1): the speech share after the first minute is no larger than the first minute's",
        .tags(.slow), .enabled(if: corpusPresent, "../shared/corpus is not beside the repository"),
        arguments: [
            "noise_09_ambience_ottd", "noise_10_machinery_ottd", "noise_08_crowd_applause_ottd",
            "noise_01_fan_hum_synth",
        ])
    func minutesOfMaterial(file: String) throws {
        let seconds = 60 * LongSession.minutes
        let once = try #require(try CorpusAudio.mono(file))
        var x: [Float] = []
        x.reserveCapacity(seconds * 16_000)
        while x.count < seconds * 16_000 { x += once }
        let (frames, _) = analysed(Array(x.prefix(seconds * 16_000)))
        let first = speechShare(frames, from: 0, to: 60)
        let later = speechShare(frames, from: 60, to: Double(seconds))
        #expect(
            later <= first,
            "\(file): \(first) of the first minute called speech, \(later) of minutes 2-\(seconds / 60)")
    }

    @Test("speech over a steady background at 0-10 dB SNR keeps its frames with the gate")
    func speechOverFan() {
        let rate = 16_000
        for snr in [0.0, 5.0, 10.0] {
            let x = mixed(
                fan(rmsDB: -40, seconds: 40), Signals.voice(rmsDB: -40 + snr, seconds: 8, sampleRate: rate), at: 30)
            let (gated, _) = analysed(x)
            let (raw, _) = analysed(x, configuration: .init(background: .off))
            let withGate = speechShare(gated, from: 30, to: 38)
            let without = speechShare(raw, from: 30, to: 38)
            #expect(
                withGate >= without - 0.03,
                "at \(snr) dB SNR: \(withGate) of the voice's frames with the gate, \(without) without")
        }
    }
}

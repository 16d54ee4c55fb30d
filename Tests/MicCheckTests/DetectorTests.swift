import Foundation
import MicCheck
import MicCheckLive
import MicCheckTesting
import Testing

/// Runs the whole analysis on `x` and returns its frames and events.
func analyse(
    _ x: [Float], rate: Int, detector: SpeechDetectorKind = .vad, model: VoiceActivityModel = .bundled,
    speech: SpeechEventDetector.Configuration = .default
) -> ([AnalysisFrame], [AnalysisEvent]) {
    analyseRecords(x, rate: rate, detector: detector, model: model, speech: speech).split
}

/// Runs the whole analysis on `x`, fed in blocks of `blocks` samples (cycled; by default odd-sized
/// blocks, as a capture callback would deliver them), and returns its records in the order they came.
func analyseRecords(
    _ x: [Float], rate: Int, detector: SpeechDetectorKind = .vad, model: VoiceActivityModel = .bundled,
    speech: SpeechEventDetector.Configuration = .default, blocks: [Int] = [333]
) -> [AnalysisOutput] {
    var a = Analyzer(inputRate: rate, configuration: .init(detector: detector, speech: speech), model: model)
    var records: [AnalysisOutput] = []
    let sink: (AnalysisOutput) -> Void = { records.append($0) }
    forEachBlock(of: x, sizes: blocks) { a.process($0, emit: sink) }
    a.finish(emit: sink)
    return records
}

extension [AnalysisOutput] {
    var split: ([AnalysisFrame], [AnalysisEvent]) {
        (
            compactMap { if case .frame(let f) = $0 { f } else { nil } },
            compactMap { if case .event(let e) = $0 { e } else { nil } }
        )
    }
}

func silentTimes(_ events: [AnalysisEvent]) -> [Double] {
    events.compactMap { if case .microphoneSilent(let t, _) = $0 { t } else { nil } }
}

@Suite("Speech events")
struct SpeechEventTests {
    @Test(
        "hysteresis: a start needs the minimum duration, an end needs the hangover",
        arguments: [
            // probabilities (one per 10 ms) → frames where events fire
            ([Float](repeating: 0.9, count: 5) + [Float](repeating: 0.1, count: 40), [Int: SpeechActivityEvent]()),
            ([Float](repeating: 0.9, count: 15) + [Float](repeating: 0.1, count: 40), [9: .started, 44: .ended]),
            ([Float](repeating: 0.9, count: 15) + [Float](repeating: 0.5, count: 40), [9: .started]),
            ([0.9, 0.9, 0.1] + [Float](repeating: 0.9, count: 8), [:]),
        ])
    func hysteresis(probabilities: [Float], expected: [Int: SpeechActivityEvent]) {
        // Start at 0.8 held for 100 ms (10 frames), end below 0.4 held for 300 ms.
        var d = SpeechEventDetector(
            configuration: .init(startThreshold: 0.8, endThreshold: 0.4, minimumSpeech: 0.1, hangover: 0.3))
        var got: [Int: SpeechActivityEvent] = [:]
        for (i, p) in probabilities.enumerated() { if let e = d.process(probability: p) { got[i] = e } }
        #expect(got == expected)
    }

    @Test("the defaults: start on one frame at 0.8, end below 0.7 held for 300 ms")
    func defaults() {
        var d = SpeechEventDetector()
        let p: [Float] =
            [0.79, 0.7, 0.75] + [0.8, 0.7, 0.7] + [Float](repeating: 0.7, count: 10)
            + [Float](repeating: 0.6, count: 35)
        var got: [Int: SpeechActivityEvent] = [:]
        for (i, v) in p.enumerated() { if let e = d.process(probability: v) { got[i] = e } }
        // Frames under 0.8 do not start; the first at exactly 0.8 does (frame 3). A 0.7 is not below
        // 0.7: the end comes 30 frames into the 0.6s (frame 45).
        #expect(got == [3: .started, 45: .ended])
    }

    @Test("the level rule fires while any of the last three levels is above -50 dBFS")
    func levelRule() {
        var d = LevelRuleDetector()
        #expect(d.process(levelDB: -60) == nil)
        #expect(d.process(levelDB: -45) == .started)
        #expect(d.process(levelDB: -70) == nil)
        #expect(d.process(levelDB: -70) == nil)
        #expect(d.process(levelDB: -70) == .ended)
    }
}

@Suite("Frame decisions")
struct SpeechFrameDecisionTests {
    @Test(
        "a frame is speech at or above the threshold and for the hold after it, never longer",
        arguments: [
            // probabilities (one per 10 ms) → which frames are speech, threshold 0.5 held 30 ms
            ([0.2, 0.5, 0.2, 0.2, 0.2, 0.2, 0.2], [false, true, true, true, true, false, false]),
            ([0.7, 0.1, 0.1, 0.8, 0.1, 0.1, 0.1, 0.1, 0.1], [true, true, true, true, true, true, true, false, false]),
            ([0.49, 0.49, 0.49], [false, false, false]),
            ([Float.nan, 0.9, Float.nan], [false, true, true]),
        ])
    func decisions(probabilities: [Float], expected: [Bool]) {
        var d = SpeechFrameDecision()
        #expect(probabilities.map { d.process(probability: $0) } == expected)
    }

    @Test("with no hold, exactly the frames at or above the threshold")
    func noHold() {
        var d = SpeechFrameDecision(configuration: .init(threshold: 0.5, hold: 0))
        #expect([0.4, 0.5, 0.49, 1].map { d.process(probability: $0) } == [false, true, false, true])
    }

    @Test("in a pause inside an utterance the frames are not speech while the utterance stays open")
    func pauseInsideUtterance() throws {
        let rate = 16_000
        let floor = Signals.pinkNoise(rmsDB: -70, seconds: 5, sampleRate: rate)
        // "Can you hear me now?" (the test voice's first 1.08 s), a 200 ms pause, the same again: the
        // pause is shorter than the default 300 ms hangover.
        let words = Signals.voice(rmsDB: -25, seconds: 1.08, sampleRate: rate)
        var x = [Float](repeating: 0, count: rate)
        x += words + [Float](repeating: 0, count: rate / 5) + words
        x += [Float](repeating: 0, count: floor.count - x.count)
        let (frames, events) = analyse(zip(x, floor).map { $0 + $1 }, rate: rate)
        #expect(events.filter { $0.name == "speech_started" }.count == 1)
        // The pause is frames 208..<228; these are its middle: from 100 ms in (the bundled model's
        // probability takes about 60 ms to fall below 0.5 after the last word, then the 30 ms hold) to
        // 40 ms before its end (clear of any look-ahead).
        let pause = frames[218..<224]
        #expect(pause.allSatisfy { $0.isSpeaking })
        #expect(pause.allSatisfy { !$0.isSpeech }, "\(pause.map(\.probability))")
        // After the utterance ends nothing is speech.
        let ended = try #require(events.first { $0.name == "speech_ended" }).time
        #expect(frames.filter { $0.time >= ended + 0.1 }.allSatisfy { !$0.isSpeech })
        // Most frames of the words themselves (well above the -70 dBFS floor) are speech.
        let loud = frames.filter { $0.levelDB > -40 }
        let loudSpeech = loud.filter(\.isSpeech).count
        #expect(Double(loudSpeech) > 0.6 * Double(loud.count), "\(loudSpeech) of \(loud.count) word frames are speech")
    }
}

@Suite("Voice activity")
struct VoiceActivityTests {
    @Test("a voice scores far above steady noise, hum and silence")
    func separates() {
        let rate = 16_000
        let floor = Signals.pinkNoise(rmsDB: -65, seconds: 4, sampleRate: rate)
        let voice = zip(Signals.voice(rmsDB: -25, seconds: 4, sampleRate: rate), floor).map { $0 + $1 }
        let (vf, _) = analyse(floor + voice, rate: rate)
        let speechProb = vf[500..<800].map(\.probability).reduce(0, +) / 300
        let floorProb = vf[100..<400].map(\.probability).reduce(0, +) / 300
        #expect(speechProb > floorProb + 0.3, "speech \(speechProb) vs floor \(floorProb)")
        let white = Signals.whiteNoise(rmsDB: -30, seconds: 5, sampleRate: rate)
        let (wf, we) = analyse(white, rate: rate)
        #expect(wf.dropFirst(100).allSatisfy { !$0.isSpeech })
        #expect(!we.contains { $0.name == "speech_started" })
    }

    @Test(
        "applause alone starts nothing; a voice over it at 5 dB SNR is heard within 300 ms and held",
        arguments: [UInt64(3), 4])
    func voiceOverApplause(seed: UInt64) {
        let rate = 16_000
        let applause = Signals.applause(rmsDB: -30, seconds: 7, sampleRate: rate, seed: seed)
        let voice = Signals.voice(rmsDB: -25, seconds: 4, sampleRate: rate)
        var x = applause
        for (i, v) in voice.enumerated() { x[3 * rate + i] += v }
        let (frames, events) = analyse(x, rate: rate)
        let starts = events.compactMap { if case .speechStarted(let t, _) = $0 { t } else { nil } }
        #expect(starts.allSatisfy { $0 >= 3 }, "applause alone started speech at \(starts)")
        #expect(starts.contains { $0 >= 3 && $0 <= 3.3 }, "the voice's first start: \(starts)")
        let voiced = frames[330..<700]
        let heard = Double(voiced.filter(\.isSpeech).count) / Double(voiced.count)
        #expect(heard > 0.8, "share of the voice's frames called speech: \(heard)")
    }

    @Test("the same audio at 48 kHz stereo-downmixed gives the same decisions as at 16 kHz")
    func rateIndependent() {
        let v16 = Signals.voice(rmsDB: -25, seconds: 3, sampleRate: 16_000)
        let v48 = Signals.resampled(v16, from: 16_000, to: 48_000)
        let (a, _) = analyse(v16, rate: 16_000)
        let (b, _) = analyse(v48, rate: 48_000)
        #expect(abs(a.count - b.count) <= 1)
        let agree = zip(a, b).filter { $0.isSpeech == $1.isSpeech }.count
        #expect(Double(agree) / Double(min(a.count, b.count)) > 0.97)
        for (x, y) in zip(a, b).dropFirst(10) where x.levelDB > -60 { #expect(abs(x.levelDB - y.levelDB) < 0.5) }
    }
}

@Suite("Analyzer blocks")
struct AnalyzerBlockTests {
    @Test("frames, probabilities and events do not depend on the block size", arguments: [16_000, 48_000])
    func blockSizes(rate: Int) {
        let voice = Signals.voice(rmsDB: -24, seconds: 3, sampleRate: rate)
        let x =
            [Float](repeating: 0, count: rate / 2)
            + zip(voice, Signals.pinkNoise(rmsDB: -55, seconds: 3, sampleRate: rate)).map { $0 + $1 }
        let whole = analyseRecords(x, rate: rate, blocks: [x.count])
        #expect(whole.contains { if case .event(.speechStarted) = $0 { return true } else { return false } })
        for sizes in [[1, 159], [160], [4_096], [7, 333, 1_000]] {
            #expect(analyseRecords(x, rate: rate, blocks: sizes) == whole, "blocks of \(sizes)")
        }
    }
}

@Suite("Look-ahead")
struct LookaheadTests {
    /// The bundled model, told that its output after frame n is frame n − `frames`'s (it was trained
    /// with 3).
    func bundled(lookahead frames: Int) throws -> VoiceActivityModel {
        try VoiceActivityModel(json: ModelFiles.bundled(lookahead: frames))
    }

    @Test(
        "with 30 ms of look-ahead a frame's record carries the probability the model gave 3 frames later; events do not move"
    )
    func delaysFrames() throws {
        let rate = 16_000
        let x = zip(
            [Float](repeating: 0, count: rate) + Signals.voice(rmsDB: -25, seconds: 3, sampleRate: rate),
            Signals.pinkNoise(rmsDB: -65, seconds: 4, sampleRate: rate)
        ).map { $0 + $1 }
        let (plain, plainEvents) = analyse(x, rate: rate, model: try bundled(lookahead: 0))
        let (ahead, aheadEvents) = analyse(x, rate: rate, model: try bundled(lookahead: 3))
        #expect(ahead.count == plain.count && plain.count == 400)
        #expect(ahead.map(\.index) == Array(0..<ahead.count))
        #expect(zip(ahead, plain).allSatisfy { $0.time == $1.time && $0.levelDB == $1.levelDB })
        #expect(
            zip(ahead, plain.dropFirst(3)).allSatisfy {
                $0.probability == $1.probability && $0.isSpeaking == $1.isSpeaking
            })
        // The last three records had no later audio: they keep the last probability.
        #expect(ahead.suffix(3).allSatisfy { $0.probability == plain[plain.count - 1].probability })
        #expect(aheadEvents == plainEvents)
        #expect(plainEvents.contains { $0.name == "speech_started" })
    }

    @Test("records put back in time order: every record once, frames in order, each event after the frames before it")
    func timeOrder() throws {
        let rate = 16_000
        let x =
            [Float](repeating: 0, count: rate) + Signals.voice(rmsDB: -25, seconds: 2, sampleRate: rate)
            + [Float](repeating: 0, count: rate)
        let raw = analyseRecords(x, rate: rate, model: try bundled(lookahead: 3))
        // As they come, a speech event precedes the last frames' records.
        let times = raw.map(\.time)
        #expect(zip(times, times.dropFirst()).contains { $0 > $1 })
        var order = TimeOrderedRecords()
        var ordered: [AnalysisOutput] = []
        for r in raw { order.add(r) { ordered.append($0) } }
        order.flush { ordered.append($0) }
        let t = ordered.map(\.time)
        #expect(zip(t, t.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(ordered.count == raw.count)
        #expect(ordered.split.0 == raw.split.0 && ordered.split.1 == raw.split.1)
    }
}

@Suite("Dead microphone")
struct SilentMicrophoneTests {
    let rate = 16_000

    @Test(
        "exact zeros or a constant value from the start: silent within 2 s, never before 1.5 s",
        arguments: [Float(0), 0.05, -0.3])
    func constantFromStart(value: Float) {
        let (_, events) = analyse([Float](repeating: value, count: 5 * rate), rate: rate)
        let t = silentTimes(events)
        #expect(t.count == 1)
        #expect((1.5...2.0).contains(t.first ?? -1))
        if case .microphoneSilent(_, let sig)? = events.first(where: { $0.name == "microphone_silent" }) {
            #expect(sig == (value == 0 ? .digitalSilence : .constantValue))
        }
    }

    @Test("a device that dies after showing its room tone between sounds is caught within 2 s, and comes back active")
    func diesAndReturns() {
        // 1.5 s of room tone, 1.5 s of syllables over it, 1.2 s of room tone: a microphone as a call hears
        // it, its pause after the voice holding the room (room tone before the first sound only would not
        // tell it from a gated source, whose first pause is zeros).
        let room = Signals.pinkNoise(rmsDB: -60, seconds: 4.2, sampleRate: rate)
        let voice =
            [Float](repeating: 0, count: rate * 3 / 2) + Signals.syllables(rmsDB: -30, seconds: 1.5, sampleRate: rate)
            + [Float](repeating: 0, count: rate * 6 / 5)
        let live = zip(room, voice).map { $0 + $1 }
        let x = live + [Float](repeating: 0, count: 4 * rate) + live
        let (_, events) = analyse(x, rate: rate)
        let t = silentTimes(events)
        #expect(t.count == 1 && t[0] >= 5.1 && t[0] <= 5.3, "silent at \(t)")
        let active = events.compactMap { if case .microphoneActive(let t) = $0 { t } else { nil } }
        #expect(active.count == 1 && active[0] >= 8.2 && active[0] <= 8.4)
    }

    @Test("a source that pauses in digital silence between sounds is not called dead for a 3 s pause")
    func gatedSource() {
        let burst = Signals.syllables(rmsDB: -25, seconds: 1, sampleRate: rate)
        var x: [Float] = []
        for pause in [0.5, 1.5, 3.0, 2.0] { x += burst + [Float](repeating: 0, count: Int(pause * Double(rate))) }
        x += burst
        #expect(silentTimes(analyse(x, rate: rate).1).isEmpty)
    }

    @Test("a featureless hiss below -70 dBFS is dead; pink room tone at the same level with speech is not")
    func hissVersusQuietRoom() {
        let hiss = Signals.whiteNoise(rmsDB: -78, seconds: 5, sampleRate: rate)
        #expect((1.45...2.0).contains(silentTimes(analyse(hiss, rate: rate).1).first ?? -1))
        let room = Signals.pinkNoise(rmsDB: -78, seconds: 12, sampleRate: rate)
        var quiet = room
        let voice = Signals.syllables(rmsDB: -42, seconds: 1, sampleRate: rate)
        for start in stride(from: 1, to: 11, by: 3) {
            for (i, v) in voice.enumerated() { quiet[start * rate + i] += v }
        }
        #expect(silentTimes(analyse(quiet, rate: rate).1).isEmpty)
    }
}

// Memory over a long stream is measured on a `miccheck analyze` process in the CLI tests
// (LongFileTests.flatMemory): this test process runs other suites at the same time.

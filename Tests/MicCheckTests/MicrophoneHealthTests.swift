import Foundation
import MicCheck
import MicCheckTesting
import Testing

/// The events of `name` in `events`, with their times.
func times(_ events: [AnalysisEvent], _ name: String) -> [Double] { events.filter { $0.name == name }.map(\.time) }

func noisy(_ events: [AnalysisEvent]) -> [(t: Double, kind: NoiseKind?, db: Float)] {
    events.compactMap { if case .noisyMicrophone(let t, let k, let db) = $0 { (t, k, db) } else { nil } }
}

/// `x` and `y` added sample by sample (the length of the shorter).
func mix(_ x: [Float], _ y: [Float]) -> [Float] { zip(x, y).map { $0 + $1 } }

@Suite("Dead microphone: sources that pause in digital silence")
struct GatedSourceTests {
    let rate = 16_000

    /// Bursts of voice with digital silence between them and none before, as a DTX codec, a noise
    /// gate or a synthetic voice delivers them: every burst ends on a loud sample.
    func gated(pauses: [Double]) -> [Float] {
        let burst = Signals.voice(rmsDB: -22, seconds: 1.2, sampleRate: rate)
        var x = burst
        for p in pauses { x += [Float](repeating: 0, count: Int(p * Double(rate))) + burst }
        return x
    }

    /// The time just after the last non-zero sample.
    func lastSound(_ x: [Float]) -> Double { Double((x.lastIndex { $0 != 0 } ?? -1) + 1) / Double(rate) }

    @Test(
        "digital-silence pauses of up to 3.5 s between words, from the first word on, are never a dead device",
        arguments: [[1.5, 3.0, 2.5], [3.5, 0.6, 3.5], [2.2]])
    func pausesAreNotDead(pauses: [Double]) {
        let (_, events) = analyse(gated(pauses: pauses), rate: rate)
        #expect(silentTimes(events).isEmpty, "silent at \(silentTimes(events))")
    }

    @Test("a source that has shown gaps between words and then stays silent is called dead after 10 s, not before")
    func gatedSourceGoesQuiet() {
        // Syllables: their own 70 ms gaps are too short to show a gate; the 0.5 and 0.8 s pauses do.
        let burst = Signals.syllables(rmsDB: -25, seconds: 1.25, sampleRate: rate)
        let x =
            burst + [Float](repeating: 0, count: rate / 2) + burst + [Float](repeating: 0, count: rate * 4 / 5) + burst
            + [Float](repeating: 0, count: 12 * rate)
        let silenceStart = lastSound(x)
        let t = silentTimes(analyse(x, rate: rate).1)
        #expect(
            t.count == 1 && abs((t.first ?? 0) - silenceStart - 10) < 0.05,
            "silent at \(t), silence from \(silenceStart)")
    }

    @Test(
        "sound with no room tone after it and no gap yet, then digital silence: dead after 10 s (the first pause may be a gate's)"
    )
    func unprovenSource() {
        let x = Signals.syllables(rmsDB: -25, seconds: 3, sampleRate: rate) + [Float](repeating: 0, count: 12 * rate)
        let t = silentTimes(analyse(x, rate: rate).1)
        #expect(
            t.count == 1 && abs((t.first ?? 0) - lastSound(x) - 10) < 0.05,
            "silent at \(t), silence from \(lastSound(x))")
    }

    /// Room tone as a microphone delivers it (pink noise at `db`), `seconds` long.
    func roomTone(_ seconds: Double, db: Double = -60, seed: UInt64 = 2) -> [Float] {
        Signals.pinkNoise(rmsDB: db, seconds: seconds, sampleRate: rate, seed: seed)
    }

    /// What a page sends for a microphone behind a noise gate (or whose browser's processing gates it), as
    /// captured from headless Chromium (scripts/capture-page-audio.py): its room tone until the voice
    /// comes, the sentences over that room tone, and digital silence in every pause, the first included;
    /// `dither`: the silence is zeros with a sparse ±1 step (about 60 a second, as Chromium's processing
    /// and the page's resampling leave an idle converter's dither), else exact zeros.
    func gatedAfterRoomTone(pauses: Int, pause: Double, dither: Bool) -> [Float] {
        var g = SeededGenerator(seed: 5)
        func silence(_ seconds: Double) -> [Float] {
            (0..<Int(seconds * Double(rate))).map { _ in
                guard dither, g.next() % 256 == 0 else { return 0 }
                return g.next() % 2 == 0 ? 1 / 32_768 : -1 / 32_768
            }
        }
        var x = roomTone(2)
        for i in 0..<pauses {
            x += mix(Signals.voice(rmsDB: -22, seconds: 3, sampleRate: rate), roomTone(3, seed: UInt64(10 + i)))
            x += silence(pause)
        }
        return x
    }

    @Test(
        "room tone, then sentences with digital silence in every pause (a gated microphone, as Chromium sends it): no pause is a dead device",
        arguments: [false, true])
    func roomToneThenGatedPauses(dither: Bool) {
        let (_, events) = analyse(gatedAfterRoomTone(pauses: 4, pause: 4.5, dither: dither), rate: rate)
        #expect(silentTimes(events).isEmpty, "silent at \(silentTimes(events))")
    }

    @Test("room tone heard in a pause after a sound, then digital silence: dead within a second (a device that died)")
    func diesAfterRoomToneBetweenWords() {
        let word = mix(Signals.voice(rmsDB: -22, seconds: 0.8, sampleRate: rate), roomTone(0.8, seed: 3))
        let x = roomTone(2) + word + roomTone(2.5, seed: 4) + word + roomTone(0.2, seed: 5)
        let died = Double(x.count) / Double(rate)
        let t = silentTimes(analyse(x + [Float](repeating: 0, count: 3 * rate), rate: rate).1)
        #expect(t.count == 1 && (died + 0.95...died + 1.05).contains(t.first ?? -1), "silent at \(t), died at \(died)")
    }

    @Test(
        "a steady tone or a loud room muted part way through a frame (a fading frame, then zeros) is dead within a second",
        arguments: [0.0, 0.1, 0.3, 0.6, 0.9])
    func mutedPartWayThroughAFrame(into: Double) {
        // 2.5 s of each, cut at `into` of the 10 ms frame after 2.5 s: the cut frame falls far below the running
        // level, which no voice or knock does (a source mid-call that only ever fell was judged gated: 10 s).
        let cut = Int((2.5 + 0.01 * into) * Double(rate))
        let tone = (0..<cut).map { Float(0.5 * sin(2 * Double.pi * 300 * Double($0) / Double(rate))) }
        let room = Array(Signals.pinkNoise(rmsDB: -30, seconds: 3, sampleRate: rate).prefix(cut))
        for (name, x) in [("tone", tone), ("room", room)] {
            let died = Double(cut) / Double(rate)
            let t = silentTimes(analyse(x + [Float](repeating: 0, count: 3 * rate), rate: rate).1)
            #expect(
                t.count == 1 && (died + 0.95...died + 1.06).contains(t.first ?? -1),
                "\(name) cut \(into) into a frame: silent at \(t), died at \(died)")
        }
    }

    @Test("a knock that decays into digital silence (a gate closing on it) waits as a gated source does, 10 s")
    func decayingKnockThenGate() {
        // A loud onset that only falls, frame after frame, and then zeros: its falling frames are sound, all but
        // the last (the one a cut would make), so the pause that follows may be a gate's.
        let knock = (0..<Int(0.2 * Double(rate))).map { i in
            Float(0.6 * exp(-Double(i) / (0.03 * Double(rate))) * sin(2 * Double.pi * 900 * Double(i) / Double(rate)))
        }
        let x = knock + [Float](repeating: 0, count: 12 * rate)
        let t = silentTimes(analyse(x, rate: rate).1)
        #expect(t.count == 1 && (t.first ?? 0) >= 9.9, "silent at \(t)")
    }

    @Test(
        "a large DC offset with a faint hiss of any colour on top is dead within 2 s, and is no clipping",
        arguments: [
            (Float(0.05), "white"), (-0.2, "white"), (0.12, "white"), (0.12, "pink"), (0.12, "brown"), (-0.04, "pink"),
        ])
    func offsetWithHiss(offset: Float, colour: String) {
        let hiss: [Float] =
            switch colour {
            case "white": Signals.whiteNoise(rmsDB: -76, seconds: 4, sampleRate: rate)
            case "pink": Signals.pinkNoise(rmsDB: -76, seconds: 4, sampleRate: rate)
            default: Signals.brownNoise(rmsDB: -76, seconds: 4, sampleRate: rate)
            }
        // As a 16-bit converter delivers it: the hiss is a few steps of the least significant bit.
        let x = hiss.map { (($0 + offset) * 32_768).rounded() / 32_768 }
        let (_, events) = analyse(x, rate: rate)
        let t = silentTimes(events)
        #expect(t.count == 1 && (1.45...2.0).contains(t.first ?? -1), "silent at \(t)")
        #expect(events.contains(.microphoneSilent(time: t.first ?? -1, signature: .constantValue)))
        #expect(!events.contains { if case .clipping = $0 { true } else { false } }, "\(events)")
    }

    @Test(
        "an idle converter (zeros with a sparse dither of one 16-bit step, as sox writes silence) is digital silence: dead within 2 s"
    )
    func idleConverter() {
        var g = SeededGenerator(seed: 9)
        let x = (0..<(4 * rate)).map { _ -> Float in
            let r = g.next() % 8
            return r == 0 ? 1 / 32_768 : r == 1 ? -1 / 32_768 : 0
        }
        let (_, events) = analyse(x, rate: rate)
        let t = silentTimes(events)
        #expect(t.count == 1 && (1.45...2.0).contains(t.first ?? -1), "silent at \(t)")
        #expect(events.contains(.microphoneSilent(time: t.first ?? -1, signature: .digitalSilence)))
    }

    @Test(
        "an idle converter as the page sends it with Chromium's processing on (zeros, about 60 steps of ±1 a second): dead at 1.9 s"
    )
    func idleConverterThroughTheBrowser() {
        var g = SeededGenerator(seed: 11)
        let x = (0..<(6 * rate)).map { _ -> Float in
            guard g.next() % 256 == 0 else { return 0 }
            return g.next() % 2 == 0 ? 1 / 32_768 : -1 / 32_768
        }
        let (_, events) = analyse(x, rate: rate)
        let t = silentTimes(events)
        #expect(t.count == 1 && (1.85...1.95).contains(t.first ?? -1), "silent at \(t)")
        #expect(events.contains(.microphoneSilent(time: t.first ?? -1, signature: .digitalSilence)))
    }

    @Test(
        "a source that opened with digital silence (judged dead) and then spoke sends digital silence between sentences: its later pauses are not judged dead"
    )
    func digitalSilenceBetweenSentences() {
        // Three seconds of zeros (dead at 1.9 s, as it should be: nothing has come yet), then sentences
        // of 3 s with 5 s of zeros between them: the source pauses in digital silence.
        // The sentences carry a faint room tone, so that the voice's own gaps between words are not zeros.
        let sentence = mix(
            Signals.voice(rmsDB: -22, seconds: 3, sampleRate: rate),
            Signals.pinkNoise(rmsDB: -68, seconds: 3, sampleRate: rate))
        var x = [Float](repeating: 0, count: 3 * rate)
        for _ in 0..<4 { x += sentence + [Float](repeating: 0, count: 5 * rate) }
        let t = silentTimes(analyse(x, rate: rate).1)
        #expect(t.count == 1 && (1.85...1.95).contains(t.first ?? -1), "dead at \(t)")
    }

    @Test("a quiet room over a small DC offset, with words now and then, is not dead")
    func quietRoomOverSmallOffset() {
        var x = Signals.pinkNoise(rmsDB: -72, seconds: 12, sampleRate: rate).map { $0 + 0.02 }  // -34 dBFS of offset
        let voice = Signals.syllables(rmsDB: -40, seconds: 1, sampleRate: rate)
        for start in stride(from: 2, to: 11, by: 4) {
            for (i, v) in voice.enumerated() { x[start * rate + i] += v }
        }
        #expect(silentTimes(analyse(x, rate: rate).1).isEmpty)
    }
}

@Suite("Noisy microphone")
struct NoisyMicrophoneTests {
    let rate = 16_000

    /// A fan: pink noise whose loudness wobbles at a blade rate of 25 Hz, with a 100 Hz hum.
    func fan(rmsDB: Double, seconds: Double) -> [Float] {
        let noise = Signals.pinkNoise(rmsDB: rmsDB, seconds: seconds, sampleRate: rate, seed: 7)
        let wobble = noise.enumerated().map { i, v in
            v * Float(1 + 0.3 * sin(2 * Double.pi * 25 * Double(i) / Double(16_000)))
        }
        return mix(wobble, Signals.sine(frequency: 100, rmsDB: rmsDB - 10, seconds: seconds, sampleRate: rate))
    }

    /// Mains hum: 50 Hz and its harmonics to 250 Hz.
    func hum(rmsDB: Double, seconds: Double) -> [Float] {
        var x = Signals.sine(frequency: 50, rmsDB: rmsDB - 1, seconds: seconds, sampleRate: rate)
        for (k, f) in [100.0, 150, 200, 250].enumerated() {
            x = mix(x, Signals.sine(frequency: f, rmsDB: rmsDB - 8 - 3 * Double(k), seconds: seconds, sampleRate: rate))
        }
        return x
    }

    @Test(
        "steady noise at -40 dBFS or louder is reported within 3 s, with its kind where it is clear",
        arguments: [
            ("white", -40.0, NoiseKind?.some(.hiss)), ("pink", -38, .hiss), ("fan", -35, .hiss), ("fan", -25, .hiss),
            ("hum", -38, .hum), ("hum", -20, .hum),
        ])
    func steadyNoise(kind: String, db: Double, expected: NoiseKind?) {
        let x: [Float]
        switch kind {
        case "white": x = Signals.whiteNoise(rmsDB: db, seconds: 5, sampleRate: rate)
        case "pink": x = Signals.pinkNoise(rmsDB: db, seconds: 5, sampleRate: rate)
        case "hum": x = hum(rmsDB: db, seconds: 5)
        default: x = fan(rmsDB: db, seconds: 5)
        }
        let raised = noisy(analyse(x, rate: rate).1)
        #expect(raised.count == 1)
        #expect((raised.first?.t ?? 99) <= 3, "raised at \(raised.map(\.t))")
        #expect(
            raised.first?.kind == expected, "\(kind) at \(db) dBFS read as \(String(describing: raised.first?.kind))")
        #expect(abs(Double(raised.first?.db ?? 0) - db) < 2, "level \(raised.first?.db ?? 0)")
    }

    @Test(
        "a quiet room, a quieter fan, and clicks over a quiet room are not noisy",
        arguments: ["room", "fan-50", "clicks"])
    func notNoisy(kind: String) {
        var x = Signals.pinkNoise(rmsDB: -65, seconds: 8, sampleRate: rate)
        switch kind {
        case "fan-50": x = fan(rmsDB: -50, seconds: 8)
        case "clicks":
            // A loud keystroke every 300 ms: 4 ms of white noise at -12 dBFS.
            let click = Signals.whiteNoise(rmsDB: -12, seconds: 0.004, sampleRate: rate)
            for start in stride(from: 0, to: x.count - click.count, by: Int(0.3 * Double(rate))) {
                for (i, v) in click.enumerated() { x[start + i] += v }
            }
        default: break
        }
        #expect(noisy(analyse(x, rate: rate).1).isEmpty)
    }

    @Test(
        "never decided while the user speaks: speech over a quiet room raises nothing, and noise under continuous speech waits for a pause"
    )
    func notWhileSpeaking() {
        let room = Signals.pinkNoise(rmsDB: -62, seconds: 10, sampleRate: rate)
        let speech = [Float](repeating: 0, count: rate / 2) + Signals.voice(rmsDB: -22, seconds: 9, sampleRate: rate)
        #expect(noisy(analyse(mix(room, speech), rate: rate).1).isEmpty)
    }

    @Test("the warning clears 3 s after the noise stops, and is not raised again within the cooldown")
    func clearsWithHysteresis() {
        let loud = Signals.whiteNoise(rmsDB: -35, seconds: 4, sampleRate: rate)
        let quiet = Signals.pinkNoise(rmsDB: -70, seconds: 5, sampleRate: rate, seed: 9)
        let x = loud + quiet + Signals.whiteNoise(rmsDB: -35, seconds: 3, sampleRate: rate, seed: 4)
        let events = analyse(x, rate: rate).1
        #expect(noisy(events).count == 1)
        let clean = times(events, "microphone_clean")
        #expect(clean.count == 1 && (6.9...7.2).contains(clean.first ?? 0), "clean at \(clean)")
    }
}

@Suite("Clipping")
struct ClippingTests {
    let rate = 16_000

    /// The test voice over a quiet room, scaled so that its peak is `peak`, then cut at ±`ceiling`.
    func voice(peak: Float, ceiling: Float = 1, bits: Int? = nil) -> [Float] {
        let v = mix(
            Signals.voice(rmsDB: -20, seconds: 6, sampleRate: rate),
            Signals.pinkNoise(rmsDB: -60, seconds: 6, sampleRate: rate))
        let scale = peak / (v.map(abs).max() ?? 1)
        return v.map { x in
            var y = min(ceiling, max(-ceiling, x * scale))
            if let bits {
                let q = Float(1 << (bits - 1))
                y = (y * q).rounded() / q
            }
            return y
        }
    }

    @Test("speech driven 6 dB into full scale is clipping, at 0 dBFS", arguments: [16_000, 48_000])
    func drivenIntoClipping(rate: Int) {
        let x =
            rate == 16_000
            ? voice(peak: 2) : Signals.resampled(voice(peak: 2), from: 16_000, to: rate).map { min(1, max(-1, $0)) }
        let events = analyse(x, rate: rate).1
        let raised = events.compactMap { if case .clipping(let t, let c, let s) = $0 { (t, c, s) } else { nil } }
        #expect(raised.count == 1)
        #expect((raised.first?.0 ?? 99) < 3)
        #expect(abs(raised.first?.1 ?? -9) < 0.2, "ceiling \(raised.first?.1 ?? 0)")
        #expect((raised.first?.2 ?? 0) > 0.001)
    }

    @Test("a limiter's flat ceiling below full scale is clipping, at its own level")
    func limiterCeiling() {
        let events = analyse(voice(peak: 1, ceiling: 0.4), rate: rate).1
        let raised = events.compactMap { if case .clipping(_, let c, _) = $0 { c } else { nil } }
        #expect(raised.count == 1 && abs((raised.first ?? 0) - (-7.96)) < 0.2, "ceiling \(raised)")
    }

    @Test(
        "loud speech that is not cut is not clipping, in 16-bit and in 8-bit (which repeats values near peaks)",
        arguments: [nil, 8])
    func loudButClean(bits: Int?) {
        #expect(times(analyse(voice(peak: 0.95, bits: bits), rate: rate).1, "clipping").isEmpty)
    }

    @Test("clipping ends 5 s after the last clipped frame")
    func ends() {
        let x = voice(peak: 2) + voice(peak: 0.5)
        let events = analyse(x, rate: rate).1
        let ended = times(events, "clipping_ended")
        #expect(ended.count == 1 && (ended.first ?? 0) > 6 && (ended.first ?? 0) < 11.5, "ended at \(ended)")
    }
}

@Suite("Speech too quiet")
struct QuietSpeechTests {
    let rate = 16_000

    func speech(rmsDB: Double, seconds: Double) -> [Float] {
        mix(
            Signals.pinkNoise(rmsDB: -78, seconds: seconds + 1, sampleRate: rate),
            [Float](repeating: 0, count: rate) + Signals.voice(rmsDB: rmsDB, seconds: seconds, sampleRate: rate))
    }

    @Test(
        "speech whose active level stays under -40 dBFS is too quiet; at -25 dBFS it is not",
        arguments: [(-50.0, true), (-45, true), (-25, false), (-32, false)])
    func judged(db: Double, tooQuiet: Bool) {
        let events = analyse(speech(rmsDB: db, seconds: 6), rate: rate).1
        let raised = events.compactMap { if case .speechTooQuiet(_, let l) = $0 { l } else { nil } }
        #expect(raised.isEmpty != tooQuiet, "\(db) dBFS: \(raised)")
        if let level = raised.first {
            #expect(Double(level) > db - 3 && Double(level) < db + 8, "active level \(level)")
        }
    }

    @Test("a quiet room alone never raises it")
    func roomAlone() {
        #expect(
            times(
                analyse(Signals.pinkNoise(rmsDB: -75, seconds: 8, sampleRate: rate), rate: rate).1, "speech_too_quiet"
            ).isEmpty)
    }

    @Test("raised on quiet speech, cleared when the voice comes up")
    func clears() {
        let x = speech(rmsDB: -50, seconds: 5) + speech(rmsDB: -24, seconds: 5)
        let events = analyse(x, rate: rate).1
        #expect(times(events, "speech_too_quiet").count == 1)
        let ok = times(events, "speech_level_ok")
        #expect(ok.count == 1 && (ok.first ?? 0) > 6, "ok at \(ok)")
    }
}

@Suite("Dead microphone: a grid of dead inputs, and quiet rooms on the same offsets")
struct DeadMicrophoneGridTests {
    static let offsets: [Float] = [0, 0.001, 0.02, 0.12, 0.5]

    /// A preamp's self-noise of `colour` at `rmsDB` on `offset`, as `format` ("int16": rounded to a 16-bit code, or
    /// "float") delivers it, for `seconds`.
    static func deadInput(
        colour: String, rmsDB: Double, offset: Float, rate: Int, format: String, seconds: Double
    )
        -> [Float]
    {
        let hiss: [Float] =
            switch colour {
            case "white": Signals.whiteNoise(rmsDB: rmsDB, seconds: seconds, sampleRate: rate)
            case "pink": Signals.pinkNoise(rmsDB: rmsDB, seconds: seconds, sampleRate: rate)
            default: Signals.brownNoise(rmsDB: rmsDB, seconds: seconds, sampleRate: rate)
            }
        return hiss.map { format == "int16" ? (($0 + offset) * 32_768).rounded() / 32_768 : $0 + offset }
    }

    @Test(
        "white, pink and brown hiss at -90 and -80 dBFS on every offset, at 16 and 48 kHz, 16-bit and float: dead within 2 s",
        arguments: offsets, ["white", "pink", "brown"])
    func deadWithin2Seconds(offset: Float, colour: String) {
        var missed: [String] = []
        for rmsDB in [-90.0, -80.0] {
            for rate in [16_000, 48_000] {
                for format in ["int16", "float"] {
                    let x = Self.deadInput(
                        colour: colour, rmsDB: rmsDB, offset: offset, rate: rate, format: format, seconds: 2.05)
                    let t = silentTimes(analyse(x, rate: rate).1)
                    if t.isEmpty || t[0] > 2 { missed.append("\(rmsDB) dBFS \(rate) Hz \(format): \(t)") }
                }
            }
        }
        #expect(missed.isEmpty, "not dead within 2 s: \(missed)")
    }

    @Test(
        "a hiss at -68 dBFS on a large offset (louder than a flat hiss, under the offset's -66): dead once, and it stays dead"
    )
    func offsetHissStaysDead() {
        let x = Signals.whiteNoise(rmsDB: -68, seconds: 5, sampleRate: 16_000).map { $0 + 0.12 }
        let events = analyse(x, rate: 16_000).1
        #expect(silentTimes(events).count == 1 && (1.45...2.0).contains(silentTimes(events).first ?? -1), "\(events)")
        #expect(times(events, "microphone_active").isEmpty, "\(events)")
    }

    @Test(
        "one loud frame (a plug-in pop) before the hiss does not stop a dead input from being called dead; 50 ms of a voice does"
    )
    func popBeforeHiss() {
        let rate = 16_000
        var x = Signals.pinkNoise(rmsDB: -82, seconds: 4, sampleRate: rate)
        for i in 0..<(rate / 200) { x[rate / 10 + i] += i % 2 == 0 ? 0.3 : -0.3 }  // 5 ms at -10 dBFS
        let t = silentTimes(analyse(x, rate: rate).1)
        #expect(t.count == 1 && (1.85...2.2).contains(t.first ?? -1), "after a pop: \(t)")
        var voiced = Signals.pinkNoise(rmsDB: -82, seconds: 4, sampleRate: rate)
        for (i, v) in Signals.voice(rmsDB: -40, seconds: 0.3, sampleRate: rate).enumerated() {
            voiced[rate / 10 + i] += v
        }
        #expect(silentTimes(analyse(voiced, rate: rate).1).isEmpty)
    }

    @Test(
        "the public corpus's quiet rooms (a pink floor at -82 to -74 dBFS, quiet speech) on every offset are never dead",
        .enabled(if: CorpusAudio.isPresent, "../shared/corpus is not beside the repository"), arguments: offsets)
    func quietRoomsAreNotDead(offset: Float) throws {
        for name in [
            "quiet_00_near_hedgewars-British", "quiet_01_far_espeak-ng-en-gb-x-rp+m7", "clean_01_asterisk-en-allison",
        ] {
            let x = try #require(try CorpusAudio.mono(name)).map { $0 + offset }
            #expect(silentTimes(analyse(x, rate: 16_000).1).isEmpty, "\(name) on \(offset)")
        }
    }
}

import Foundation
import MicCheck
import MicCheckTesting
import Testing

/// Generated sounds for the keyboard detector: keystrokes, claps, thuds, over a quiet room.
enum Clicks {
    static let rate = 16_000

    /// A quiet room: pink noise at -65 dBFS.
    static func room(seconds: Double, seed: UInt64 = 7) -> [Float] {
        Signals.pinkNoise(rmsDB: -65, seconds: seconds, sampleRate: rate, seed: seed)
    }

    /// Typing from `start` for `seconds` (``Signals/addTyping(to:from:seconds:peakDB:seed:)``).
    static func typing(
        into x: inout [Float], from start: Double, seconds: Double, peakDB: Double = -20, seed: UInt64 = 11
    ) -> [Double] {
        Signals.addTyping(to: &x, from: start, seconds: seconds, peakDB: peakDB, seed: seed)
    }

    /// A hand clap: a loud burst of noise through a 1 kHz resonance, 30 ms to 1/e.
    static func clap(peakDB: Double, g: inout SeededGenerator) -> [Float] {
        resonant(peakDB: peakDB, centre: 1_000, width: 800, decay: 0.03, seconds: 0.25, g: &g)
    }

    /// A thud (a door, a fist on the desk): a low resonance at 90 Hz, ringing 80 ms to 1/e.
    static func thud(peakDB: Double, g: inout SeededGenerator) -> [Float] {
        resonant(peakDB: peakDB, centre: 90, width: 60, decay: 0.08, seconds: 0.5, g: &g)
    }

    static func resonant(
        peakDB: Double, centre: Double, width: Double, decay: Double, seconds: Double, g: inout SeededGenerator
    ) -> [Float] {
        let n = Int(seconds * Double(rate))
        let r = exp(-Double.pi * width / Double(rate))
        let a1 = 2 * r * cos(2 * Double.pi * centre / Double(rate))
        let a2 = -r * r
        var (y1, y2) = (0.0, 0.0)
        var out = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let envelope = min(1, Double(i) / 32) * exp(-Double(i) / (decay * Double(rate)))
            let x = (Double(g.next() >> 11) / Double(1 << 53) * 2 - 1) * envelope
            let y = x + a1 * y1 + a2 * y2
            (y2, y1) = (y1, y)
            out[i] = y
        }
        let peak = out.map(abs).max() ?? 1
        let gain = pow(10, peakDB / 20) / max(peak, 1e-12)
        return out.map { Float($0 * gain) }
    }

    static func add(_ sound: [Float], to x: inout [Float], at t: Double) {
        let start = Int(t * Double(rate))
        for (i, v) in sound.enumerated() where start + i < x.count { x[start + i] += v }
    }
}

func keyboardEvents(_ events: [AnalysisEvent]) -> [(t: Double, typing: KeyboardNoiseDetector.Typing)] {
    events.compactMap { if case .keyboardNoise(let t, let typing) = $0 { (t, typing) } else { nil } }
}

@Suite("Keyboard noise: keystrokes heard while not speaking")
struct KeyboardNoiseTests {
    let rate = Clicks.rate

    @Test("typing over a quiet room raises keyboard_noise 1 to 2 s after the first keystroke, with its count and level")
    func typingIsHeard() throws {
        var x = Clicks.room(seconds: 8)
        let onsets = Clicks.typing(into: &x, from: 1, seconds: 6)
        let heard = keyboardEvents(analyse(x, rate: rate).1)
        let first = try #require(heard.first, "no keyboard_noise")
        #expect(heard.count == 1, "once per stretch within 10 s: \(heard.map(\.t))")
        #expect(first.t - onsets[0] >= 1 && first.t - onsets[0] <= 2, "at \(first.t), typing from \(onsets[0])")
        #expect(abs(first.typing.since - onsets[0]) < 0.01, "since \(first.typing.since)")
        let keysBefore = onsets.filter { $0 < first.t - 0.1 }.count
        #expect(abs(first.typing.keystrokes - keysBefore) <= 1, "\(first.typing.keystrokes) of \(keysBefore)")
        #expect(first.typing.levelDB > -30 && first.typing.levelDB < -16, "level \(first.typing.levelDB)")
        #expect(first.typing.perSecond >= 3 && first.typing.perSecond <= 8, "\(first.typing.perSecond) a second")
    }

    @Test("continued typing raises it again every 10 s, not more often; a new stretch after a pause raises it anew")
    func repeatsEveryTenSeconds() {
        var x = Clicks.room(seconds: 40)
        _ = Clicks.typing(into: &x, from: 0.5, seconds: 25)
        _ = Clicks.typing(into: &x, from: 30, seconds: 4, seed: 12)
        let t = keyboardEvents(analyse(x, rate: rate).1).map(\.t)
        #expect(t.count == 4, "\(t)")
        if t.count == 4 {
            #expect(t[1] - t[0] >= 10 && t[1] - t[0] < 10.5 && t[2] - t[1] >= 10 && t[2] - t[1] < 10.5, "\(t)")
            #expect(t[3] > 31 && t[3] < 32.5, "the new stretch from 30 s: \(t)")
        }
    }

    @Test("a short burst of a few keys is not typing yet")
    func shortBurst() {
        var x = Clicks.room(seconds: 5)
        _ = Clicks.typing(into: &x, from: 1, seconds: 0.7)
        #expect(keyboardEvents(analyse(x, rate: rate).1).isEmpty)
    }

    @Test("claps, single or one every 0.3 to 2 s, are not typing")
    func claps() {
        var g = SeededGenerator(seed: 5)
        var x = Clicks.room(seconds: 20)
        var t = 0.5
        while t < 19 {
            Clicks.add(Clicks.clap(peakDB: -4 - 6 * Double(g.next() % 100) / 100, g: &g), to: &x, at: t)
            t += 0.3 + 1.7 * Double(g.next() % 100) / 100
        }
        #expect(keyboardEvents(analyse(x, rate: rate).1).isEmpty)
    }

    @Test("thuds (a door, a fist on the desk), isolated or in a row, are not typing")
    func thuds() {
        var g = SeededGenerator(seed: 6)
        var x = Clicks.room(seconds: 15)
        for k in 0..<24 {
            Clicks.add(Clicks.thud(peakDB: -10 - Double(k % 5), g: &g), to: &x, at: 0.5 + Double(k) * 0.55)
        }
        #expect(keyboardEvents(analyse(x, rate: rate).1).isEmpty)
    }

    @Test("a clock's even ticks, each like a keystroke, are not typing")
    func evenTicks() {
        var g = SeededGenerator(seed: 8)
        var x = Clicks.room(seconds: 12)
        for k in 0..<60 {
            Clicks.add(
                Signals.keystroke(peakDB: -22 - Double(k % 3), generator: &g), to: &x, at: 0.5 + Double(k) * 0.19)
        }
        #expect(keyboardEvents(analyse(x, rate: rate).1).isEmpty)
    }

    @Test("never while the user speaks: typing under continuous speech raises nothing; in the pause after it, it does")
    func notWhileSpeaking() throws {
        let speech = Signals.voice(rmsDB: -24, seconds: 8, sampleRate: rate)
        var x = speech + Clicks.room(seconds: 6)
        let onsets = Clicks.typing(into: &x, from: 0.5, seconds: 13, peakDB: -22)
        let (frames, events) = analyse(x, rate: rate)
        let heard = keyboardEvents(events)
        let speakingFrames = Set(frames.filter(\.isSpeaking).map(\.index))
        for h in heard {
            #expect(!speakingFrames.contains(Int((h.t * 100).rounded())), "keyboard_noise at \(h.t) while speaking")
        }
        let ended = try #require(times(events, "speech_ended").last, "the speech was heard")
        #expect(heard.allSatisfy { $0.t > ended }, "\(heard.map(\.t)), speech ended at \(ended)")
        let first = try #require(heard.first, "typing after the speech was not heard")
        #expect(first.t - ended <= 2.2, "at \(first.t), speech ended at \(ended)")
        #expect(first.typing.since >= ended - 0.1, "the stretch starts after the speech: \(first.typing.since)")
        #expect(onsets.count > 40)
    }

    @Test("speech alone raises nothing")
    func speechAlone() {
        let x = Signals.voice(rmsDB: -22, seconds: 20, sampleRate: rate)
        let syllables = Signals.syllables(rmsDB: -25, seconds: 10, sampleRate: rate)
        #expect(keyboardEvents(analyse(x, rate: rate).1).isEmpty)
        #expect(keyboardEvents(analyse(syllables, rate: rate).1).isEmpty)
    }

    @Test("at 48 kHz too (the detector reads the 16 kHz frames)")
    func otherRate() throws {
        var x = Clicks.room(seconds: 5)
        let onsets = Clicks.typing(into: &x, from: 1, seconds: 4)
        let heard = keyboardEvents(analyse(Signals.resampled(x, from: rate, to: 48_000), rate: 48_000).1)
        let first = try #require(heard.first)
        #expect(first.t - onsets[0] >= 1 && first.t - onsets[0] <= 2.1, "at \(first.t)")
    }
}

@Suite(
    "Keyboard noise on the public corpus", .tags(.slow),
    .enabled(if: CorpusAudio.isPresent, "../shared/corpus is not beside the repository"))
struct KeyboardNoiseCorpusTests {
    @Test("the typing recording raises keyboard_noise within 2 s of its first keystroke (0.46 s)")
    func typingFile() throws {
        let x = try #require(try CorpusAudio.mono("noise_00_typing_bucklespring"))
        let heard = keyboardEvents(analyse(x, rate: 16_000).1)
        let first = try #require(heard.first)
        // The first key, after digital silence, rings on above it; the stretch starts at the next ones.
        #expect(first.t - 0.46 <= 2 && first.typing.since < 0.8, "at \(first.t), since \(first.typing.since)")
        #expect(heard.count >= 6, "90 s of typing, in stretches: \(heard.map(\.t))")
        for (a, b) in zip(heard, heard.dropFirst()) where b.typing.since == a.typing.since {
            #expect(b.t - a.t >= 10, "within one stretch at most every 10 s: \(a.t), \(b.t)")
        }
    }

    @Test(
        "claps, crashes, game effects and a crowd's applause raise nothing",
        arguments: [
            "transient_00_lmms-claps", "transient_01_openttd-crashes", "transient_02_frozen-bubble-sfx",
            "noise_08_crowd_applause_ottd",
        ])
    func transients(name: String) throws {
        let x = try #require(try CorpusAudio.mono(name))
        #expect(keyboardEvents(analyse(x, rate: 16_000).1).isEmpty)
    }
}

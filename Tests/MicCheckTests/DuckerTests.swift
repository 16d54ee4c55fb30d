import Foundation
import MicCheck
import MicCheckTesting
import Testing

@Suite struct DuckerTests {
    @Test(arguments: [
        (DuckingLevel.default, false, false, 0.0), (.min, false, true, 10), (.mid, false, false, 20),
        (.max, false, true, 30), (.default, true, true, 10), (.default, true, false, 0),
        (.mid, true, true, 30), (.max, true, false, 30),
    ])
    func levels(level: DuckingLevel, advanced: Bool, speaking: Bool, expected: Double) {
        #expect(level.attenuationDB(advanced: advanced, someoneSpeaking: speaking) == expected)
    }

    /// A 1 kHz tone of peak 1, at its peak on every 10 ms boundary (where the ducker changes course).
    static let tone: [Float] = (0..<96_000).map { Float(cos(2 * Double.pi * 1_000 * Double($0) / 48_000)) }
    static let toneDB = Signals.rmsDB(tone[...])

    /// Runs a 1 kHz tone through the ducker, ducking at 0.25 s and releasing at 1 s.
    func ducked(by dB: Double, attack: Double = 0.05, release: Double = 0.6) -> [Float] {
        var ducker = Ducker(sampleRate: 48_000, attack: attack, release: release)
        var tone = Self.tone
        tone.withUnsafeMutableBufferPointer { all in
            for start in stride(from: 0, to: all.count, by: 480) {
                if start == 12_000 { ducker.duck(by: dB) }
                if start == 48_000 { ducker.duck(by: 0) }
                ducker.process(UnsafeMutableBufferPointer(rebasing: all[start..<min(all.count, start + 480)]))
            }
        }
        return tone
    }

    @Test func reachesTheLevelAndComesBack() {
        let out = ducked(by: 20)
        func level(_ r: Range<Int>) -> Double { Signals.rmsDB(out[r]) - Self.toneDB }
        #expect(abs(level(0..<12_000)) < 0.1)
        // After the 50 ms attack: exactly 20 dB down.
        #expect(abs(level(16_000..<48_000) + 20) < 0.1)
        // During the 0.6 s release, in between; after it, back to unity.
        let midRelease = level(60_000..<62_400)
        #expect(midRelease > -19 && midRelease < -1)
        #expect(abs(level(80_000..<96_000)) < 0.1)
    }

    @Test func movesWithoutClicks() {
        // The largest sample-to-sample change of the gain envelope: on a 1 kHz tone at full scale,
        // a click would show as a jump far above the tone's own slope (2π·1000/48000 ≈ 0.13).
        for out in [ducked(by: 30), ducked(by: 30, attack: 0.005, release: 0.01)] {
            let maxStep = zip(out, out.dropFirst()).map { abs($0 - $1) }.max() ?? 0
            #expect(maxStep <= 0.135, "largest step \(maxStep)")
        }
        // Without a ramp, the gain jumps: the measure can fail.
        let abrupt = ducked(by: 30, attack: 0, release: 0)
        #expect((zip(abrupt, abrupt.dropFirst()).map { abs($0 - $1) }.max() ?? 0) > 0.2)
    }

    @Test func rampIsStraightInDecibels() {
        var ducker = Ducker(sampleRate: 1_000, attack: 0.1, release: 0.1)
        ducker.duck(by: 30)
        var ones = [Float](repeating: 1, count: 100)
        ones.withUnsafeMutableBufferPointer { ducker.process($0) }
        let dB = ones.map { -20 * log10(Double($0)) }
        for i in [0, 25, 50, 99] { #expect(abs(dB[i] - 0.3 * Double(i)) < 0.01, "sample \(i): \(dB[i]) dB") }
        #expect(ducker.attenuationDB > 29.99 && ducker.targetDB == 30)
    }
}

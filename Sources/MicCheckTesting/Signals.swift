import Foundation
import MicCheck

/// A seeded pseudo-random generator (SplitMix64): the same seed gives the same noise on every platform.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A generator whose numbers follow from `seed`.
    public init(seed: UInt64) { state = seed }
    /// The next pseudo-random number.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Test signals with known levels.
public enum Signals {
    /// A sine of `frequency` Hz whose RMS level is `rmsDB` dBFS.
    public static func sine(
        frequency: Double, rmsDB: Double, seconds: Double, sampleRate: Int, phase: Double = 0
    ) -> [Float] {
        let amplitude = Decibels.amplitude(rmsDB) * 2.0.squareRoot()
        let n = Int(seconds * Double(sampleRate))
        return (0..<n).map {
            Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(sampleRate) + phase))
        }
    }

    /// Gaussian white noise whose RMS level is `rmsDB` dBFS.
    public static func whiteNoise(rmsDB: Double, seconds: Double, sampleRate: Int, seed: UInt64 = 1) -> [Float] {
        var g = SeededGenerator(seed: seed)
        let sigma = Decibels.amplitude(rmsDB)
        let n = Int(seconds * Double(sampleRate))
        var out = [Float](repeating: 0, count: n)
        var i = 0
        while i < n {
            // Box-Muller
            let u1 = max(Double.leastNonzeroMagnitude, Double(g.next() >> 11) / Double(1 << 53))
            let u2 = Double(g.next() >> 11) / Double(1 << 53)
            let r = (-2 * log(u1)).squareRoot()
            out[i] = Float(sigma * r * cos(2 * Double.pi * u2))
            if i + 1 < n { out[i + 1] = Float(sigma * r * sin(2 * Double.pi * u2)) }
            i += 2
        }
        return out
    }

    /// Pink (1/f) noise whose RMS level is `rmsDB` dBFS (Paul Kellet's filter on white noise).
    public static func pinkNoise(rmsDB: Double, seconds: Double, sampleRate: Int, seed: UInt64 = 2) -> [Float] {
        let white = whiteNoise(rmsDB: 0, seconds: seconds, sampleRate: sampleRate, seed: seed)
        var b = [Double](repeating: 0, count: 7)
        let out = white.map { w -> Double in
            let w = Double(w)
            b[0] = 0.99886 * b[0] + w * 0.0555179
            b[1] = 0.99332 * b[1] + w * 0.0750759
            b[2] = 0.96900 * b[2] + w * 0.1538520
            b[3] = 0.86650 * b[3] + w * 0.3104856
            b[4] = 0.55000 * b[4] + w * 0.5329522
            b[5] = -0.7616 * b[5] - w * 0.0168980
            let p = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + w * 0.5362
            b[6] = w * 0.115926
            return p
        }
        return scaled(out, toRMSDB: rmsDB)
    }

    /// Brown (1/f²) noise whose RMS level is `rmsDB` dBFS: white noise integrated, with a leak that
    /// keeps it from wandering (a pole at 0.998, about 5 Hz at 16 kHz).
    public static func brownNoise(rmsDB: Double, seconds: Double, sampleRate: Int, seed: UInt64 = 4) -> [Float] {
        var y = 0.0
        let out = whiteNoise(rmsDB: 0, seconds: seconds, sampleRate: sampleRate, seed: seed).map { w -> Double in
            y = 0.998 * y + Double(w)
            return y
        }
        return scaled(out, toRMSDB: rmsDB)
    }

    /// Formant frequencies of three vowels (/a/, /i/, /u/) for ``syllables(pitch:glide:vowels:rmsDB:seconds:sampleRate:)``.
    public static let vowelFormants: [[Double]] = [[700, 1_200, 2_600], [300, 2_300, 3_000], [320, 800, 2_400]]

    /// A crude voiced "vowel": a glottal pulse train at `pitch` Hz (gliding by `glide` octaves)
    /// through three formant resonators, in syllables of 180 ms with 70 ms gaps, at `rmsDB`. With
    /// several `vowels` (formant frequencies), each syllable takes the next.
    public static func syllables(
        pitch: Double = 140, glide: Double = 0.3, vowels: [[Double]] = [vowelFormants[0]],
        rmsDB: Double, seconds: Double, sampleRate: Int
    ) -> [Float] {
        let n = Int(seconds * Double(sampleRate))
        var out = [Double](repeating: 0, count: n)
        var phase = 0.0
        precondition(vowels.allSatisfy { $0.count == 3 }, "a vowel is three formant frequencies")
        var state = [(Double, Double)](repeating: (0, 0), count: 3)
        for i in 0..<n {
            let t = Double(i) / Double(sampleRate)
            let syl = t.truncatingRemainder(dividingBy: 0.25)
            let vowel = vowels.isEmpty ? vowelFormants[0] : vowels[Int(t / 0.25) % vowels.count]
            let env = syl < 0.18 ? sin(Double.pi * syl / 0.18) : 0
            let f0 = pitch * pow(2, glide * sin(2 * Double.pi * 0.7 * t))
            phase += f0 / Double(sampleRate)
            var x = 0.0
            if phase >= 1 {
                phase -= 1
                x = 1
            }
            out[i] = resonate(x, formants: vowel, state: &state, sampleRate: sampleRate) * env
        }
        return scaled(out, toRMSDB: rmsDB)
    }

    /// A held vowel (formants of /a/) sung at `pitch` Hz with a vibrato of `vibrato` semitones at 6 Hz,
    /// like a held note or an animal's bleat: voiced, with a moving pitch, but a steady spectral shape.
    public static func heldVowel(
        pitch: Double = 250, vibrato: Double = 0.5, rmsDB: Double, seconds: Double,
        sampleRate: Int
    ) -> [Float] {
        let n = Int(seconds * Double(sampleRate))
        var out = [Double](repeating: 0, count: n)
        var phase = 0.0
        var state = [(Double, Double)](repeating: (0, 0), count: 3)
        for i in 0..<n {
            let t = Double(i) / Double(sampleRate)
            phase += pitch * pow(2, vibrato / 12 * sin(2 * Double.pi * 6 * t)) / Double(sampleRate)
            var x = 0.0
            if phase >= 1 {
                phase -= 1
                x = 1
            }
            out[i] = resonate(x, formants: vowelFormants[0], state: &state, sampleRate: sampleRate)
        }
        return scaled(out, toRMSDB: rmsDB)
    }

    /// Applause: `clapsPerSecond` claps at random times, each a 5–25 ms burst of white noise dying away
    /// through a two-pole resonance at 700–3,000 Hz, with loudness varying by about ±5 dB; at `rmsDB`.
    /// Broadband and busy, so it masks a voice more than steady noise of the same level does.
    public static func applause(
        clapsPerSecond: Double = 40, rmsDB: Double, seconds: Double, sampleRate: Int,
        seed: UInt64 = 3
    ) -> [Float] {
        var g = SeededGenerator(seed: seed)
        func uniform() -> Double { Double(g.next() >> 11) / Double(1 << 53) }
        let n = Int(seconds * Double(sampleRate))
        var out = [Double](repeating: 0, count: n)
        let rate = Double(sampleRate)
        let r = exp(-Double.pi * 1_500 / rate)
        let a2 = -r * r  // every clap's resonance is 1,500 Hz wide
        var t = 0.0
        while true {
            t += -log(max(Double.leastNonzeroMagnitude, uniform())) / max(clapsPerSecond, 0.1)
            let start = Int(t * rate)
            guard start < n else { break }
            let length = Int((0.005 + 0.02 * uniform()) * rate)
            let gain = pow(10, (uniform() - 0.5) / 2)
            let a1 = 2 * r * cos(2 * Double.pi * (700 + 2_300 * uniform()) / rate)
            var (y1, y2) = (0.0, 0.0)
            for i in 0..<min(length, n - start) {
                let x = (uniform() * 2 - 1) * exp(-4 * Double(i) / Double(length))
                let y = x + a1 * y1 + a2 * y2
                (y2, y1) = (y1, y)
                out[start + i] += gain * y
            }
        }
        return scaled(out, toRMSDB: rmsDB)
    }

    /// Recorded-style speech for tests that need a detector to hear a voice: two espeak-ng voices (a man's
    /// and a woman's, one sentence each; `scripts/make_test_voice.py`), looped to `seconds`, at
    /// `sampleRate`, scaled to an RMS level of `rmsDB` dBFS over the whole result. It starts with
    /// speech and has no room tone; a loop joins the last word to the first without a pause.
    public static func voice(rmsDB: Double, seconds: Double, sampleRate: Int) -> [Float] {
        let clip = sampleRate == 16_000 ? voiceClip : resampled(voiceClip, from: 16_000, to: sampleRate)
        let n = Int(seconds * Double(sampleRate))
        guard !clip.isEmpty else { return [Float](repeating: 0, count: n) }
        return scaled((0..<n).map { Double(clip[$0 % clip.count]) }, toRMSDB: rmsDB)
    }

    /// The bundled voice at 16 kHz (empty, and every test using it failing, if the resource is missing).
    private static let voiceClip: [Float] = {
        guard let url = Bundle.module.url(forResource: "voice", withExtension: "wav"),
            let x = try? CorpusAudio.readMono(path: url.path, sampleRate: 16_000)
        else { return [] }
        return x
    }()

    /// `x` resampled from `from` to `to` Hz with MicCheck's `Resampler`, flushed to the end.
    public static func resampled(_ x: [Float], from: Int, to: Int) -> [Float] {
        var r = Resampler(inputRate: from, outputRate: to)
        var out: [Float] = []
        var buf = [Float](repeating: 0, count: r.maxOutput(forInput: Resampler.maxInputBlock))
        var i = 0
        while i < x.count {
            let end = min(x.count, i + Resampler.maxInputBlock)
            let n = x[i..<end].withUnsafeBufferPointer { p in
                buf.withUnsafeMutableBufferPointer { r.process(p, output: $0) }
            }
            out += buf[0..<n]
            i = end
        }
        let n = buf.withUnsafeMutableBufferPointer { r.flush(output: $0) }
        return out + buf[0..<n]
    }

    /// `signal` scaled to an RMS level of `rmsDB` dBFS, as Float samples.
    private static func scaled(_ signal: [Double], toRMSDB rmsDB: Double) -> [Float] {
        let rms = (signal.reduce(0) { $0 + $1 * $1 } / Double(max(1, signal.count))).squareRoot()
        let k = Decibels.amplitude(rmsDB) / max(rms, 1e-12)
        return signal.map { Float($0 * k) }
    }

    private static let formantBandwidths: [Double] = [110, 120, 160]

    /// One sample of a glottal pulse train through three two-pole formant resonators (bandwidths 110,
    /// 120 and 160 Hz) at `formants`, summed.
    private static func resonate(
        _ x: Double, formants: [Double], state: inout [(Double, Double)], sampleRate: Int
    ) -> Double {
        var y = 0.0
        for k in 0..<3 {
            let r = exp(-Double.pi * formantBandwidths[k] / Double(sampleRate))
            let a1 = 2 * r * cos(2 * Double.pi * formants[k] / Double(sampleRate))
            let a2 = -r * r
            let v = x + a1 * state[k].0 + a2 * state[k].1
            state[k] = (v, state[k].0)
            y += v
        }
        return y
    }

    /// RMS level in dBFS of `samples`.
    public static func rmsDB(_ samples: ArraySlice<Float>) -> Double {
        let ms = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))
        return Double(Decibels.fromPower(ms))
    }
}

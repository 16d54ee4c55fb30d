import MicCheck
import MicCheckTesting
import Testing

@Suite("Resampling")
struct ResamplerTests {
    @Test("a 12 kHz tone in 48 kHz input comes out at least 60 dB down at 16 kHz")
    func antiAliasing() {
        let tone = Signals.sine(frequency: 12_000, rmsDB: -6, seconds: 1, sampleRate: 48_000)
        let out = Signals.resampled(tone, from: 48_000, to: 16_000)
        let level = Signals.rmsDB(out[1_000..<15_000])
        #expect(level < -66, "aliased tone at \(level) dBFS")
    }

    @Test(
        "keeps in-band tones at their level and length, with no delay",
        arguments: [
            (48_000, 16_000), (44_100, 16_000), (8_000, 16_000), (22_050, 16_000), (96_000, 16_000), (11_025, 16_000),
            (12_345, 16_000),
        ])
    func passband(from: Int, to: Int) {
        let f = 440.0
        let tone = Signals.sine(frequency: f, rmsDB: -20, seconds: 1, sampleRate: from)
        let out = Signals.resampled(tone, from: from, to: to)
        #expect(abs(out.count - Int((Double(tone.count) * Double(to) / Double(from)).rounded(.up))) <= 1)
        #expect(abs(Signals.rmsDB(out[2_000..<14_000]) - -20) < 0.05)
        // Zero delay: the output matches the same sine sampled at the new rate.
        let expected = Signals.sine(frequency: f, rmsDB: -20, seconds: 1, sampleRate: to)
        let err = (2_000..<14_000).map { abs(out[$0] - expected[$0]) }.max() ?? 1
        #expect(err < 2e-3)
    }
}

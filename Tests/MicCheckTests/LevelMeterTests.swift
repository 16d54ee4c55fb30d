import MicCheck
import MicCheckTesting
import Testing

func levels(_ x: [Float], rate: Int) -> [FrameLevel] {
    var m = LevelMeter(sampleRate: rate)
    var out: [FrameLevel] = []
    x.withUnsafeBufferPointer { m.process($0) { out.append($0) } }
    return out
}

@Suite("Levels")
struct LevelMeterTests {
    @Test(
        "tones and noise read at their RMS level within 0.1 dB",
        arguments: [(16_000, -20.0), (44_100, -35.0), (48_000, -6.0), (11_025, -50.0)])
    func knownLevels(rate: Int, db: Double) {
        for signal in [
            Signals.sine(frequency: 1_000, rmsDB: db, seconds: 1, sampleRate: rate),
            Signals.whiteNoise(rmsDB: db, seconds: 1, sampleRate: rate),
        ] {
            let l = levels(signal, rate: rate)
            #expect(l.count == 100)
            for f in l.dropFirst() {
                let isSine = signal[0] == 0
                // One noise frame: about 0.6 dB of standard deviation.
                #expect(abs(Double(f.rmsDB) - db) < (isSine ? 0.1 : 2.5))
            }
            let all = l.map { Double($0.meanSquare) }.reduce(0, +) / Double(l.count)
            #expect(abs(Double(Decibels.fromPower(all)) - db) < 0.1)
        }
    }

    @Test("frames do not depend on how the input is split into blocks", arguments: [16_000, 11_025, 44_100])
    func blockSizes(rate: Int) {
        let x = zip(
            Signals.voice(rmsDB: -24, seconds: 2, sampleRate: rate),
            Signals.whiteNoise(rmsDB: -50, seconds: 2, sampleRate: rate)
        ).map { $0 + $1 }
        let whole = levels(x, rate: rate)
        #expect(whole.count == 200)
        for sizes in [[1], [7, 160, 333], [rate / 100], [4_096, 13]] {
            var m = LevelMeter(sampleRate: rate)
            var out: [FrameLevel] = []
            forEachBlock(of: x, sizes: sizes) { m.process($0) { out.append($0) } }
            #expect(out == whole, "blocks of \(sizes)")
        }
    }

    @Test("peak of a full-scale sine is 0 dBFS; digital silence is -160")
    func peakAndFloor() {
        let s = Signals.sine(frequency: 250, rmsDB: -3.0103, seconds: 0.1, sampleRate: 16_000)
        #expect(levels(s, rate: 16_000).allSatisfy { abs($0.peakDB) < 0.05 })
        let z = levels([Float](repeating: 0, count: 1_600), rate: 16_000)
        #expect(z.allSatisfy { $0.rmsDB == -160 && $0.peakDB == -160 && $0.isConstant })
    }

    @Test("the checker keeps the last N levels and maps -50...0 dB onto 0...1")
    func checker() {
        var h = MicrophoneLevelHistory()
        for db: Float in [-80, -60, -40, -25, 0] { h.append(db) }
        #expect(h.levels == [-40, -25, 0])
        #expect(h.displayValues == [0.2, 0.5, 1])
        #expect(h.anyAbove(-50))
        for _ in 0..<3 { h.append(-55) }
        #expect(!h.anyAbove(-50))
        #expect(MicrophoneLevelHistory.displayValue(-70) == 0 && MicrophoneLevelHistory.displayValue(6) == 1)
    }
}

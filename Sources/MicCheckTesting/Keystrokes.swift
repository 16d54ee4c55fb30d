import Foundation

extension Signals {
    /// One keystroke at 16 kHz: a noise burst with a 1 ms attack and an exponential decay (`decay`
    /// seconds to 1/e), coloured as a key's plastic click (a resonance at 1.2 kHz, 2 kHz wide, nothing at
    /// DC), 50 ms long, its peak at `peakDB` dBFS.
    public static func keystroke(peakDB: Double, decay: Double = 0.006, generator g: inout SeededGenerator) -> [Float] {
        let rate = 16_000.0
        let n = Int(0.05 * rate)
        let r = exp(-Double.pi * 2_000 / rate)
        let a1 = 2 * r * cos(2 * Double.pi * 1_200 / rate)
        let a2 = -r * r
        var (x1, y1, y2) = (0.0, 0.0, 0.0)
        var out = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let envelope = min(1, Double(i) / 16) * exp(-Double(i) / (decay * rate))
            let x = (Double(g.next() >> 11) / Double(1 << 53) * 2 - 1) * envelope
            let y = x - x1 + a1 * y1 + a2 * y2
            (x1, y2, y1) = (x, y1, y)
            out[i] = y
        }
        let peak = out.map(abs).max() ?? 1
        let gain = pow(10, peakDB / 20) / max(peak, 1e-12)
        return out.map { Float($0 * gain) }
    }

    /// Typing added to `x` (16 kHz) from `start` for `seconds`: keystrokes 80 to 300 ms apart (about 5 a
    /// second, unevenly), their peaks at `peakDB` ± 6 dB. Returns the keystrokes' onsets (seconds).
    @discardableResult
    public static func addTyping(
        to x: inout [Float], from start: Double, seconds: Double, peakDB: Double = -20, seed: UInt64 = 11
    ) -> [Double] {
        var g = SeededGenerator(seed: seed)
        func uniform() -> Double { Double(g.next() >> 11) / Double(1 << 53) }
        var t = start
        var onsets: [Double] = []
        while t < start + seconds {
            let key = keystroke(peakDB: peakDB + 12 * uniform() - 6, generator: &g)
            let at = Int(t * 16_000)
            for (i, v) in key.enumerated() where at + i < x.count { x[at + i] += v }
            onsets.append(t)
            t += 0.08 + 0.22 * uniform()
        }
        return onsets
    }
}

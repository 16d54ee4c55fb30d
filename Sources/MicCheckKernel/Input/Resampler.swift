// libm (Math.swift says why this and not Foundation).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// Streaming sample-rate converter: a polyphase windowed-sinc (Kaiser) low-pass filter.
///
/// The filter is zero-phase: output sample `n` is centred on input time `n / outputRate`, so
/// timestamps stay aligned. When the output rate is lower, the cut-off sits below the output Nyquist
/// frequency with a stop band of about 90 dB from it on, so content above the new Nyquist frequency is
/// removed rather than folded back.
///
/// For a rate ratio L/M (in lowest terms) with L up to ``maxPhases`` the filter bank is exact; above
/// that, the nearest of ``maxPhases`` phases is used (timing error below 1/8192 sample).
///
/// - Complexity: O(taps) per output sample; taps is about 90 at 8 kHz input, 275 at 48 kHz, 550 at
///   96 kHz. Nothing is allocated after `init`.
public struct Resampler: Sendable {
    /// Samples per second of the input, Hz.
    public let inputRate: Int
    /// Samples per second of the output, Hz.
    public let outputRate: Int
    /// Most filter phases kept in the table.
    public static let maxPhases = 4_096

    private let up: Int  // L
    private let down: Int  // M
    private let phases: Int  // rows in the table
    private let taps: Int  // coefficients per row (2K)
    private let halfWidth: Int  // K
    private var table: [Float]
    // Input history: history[0] is input sample `historyStart`.
    private var history: [Float]
    private var historyCount: Int
    // Input positions in 64 bits: where Int is 32 (the page's WebAssembly) they would pass Int32.max after
    // 12 hours at 48 kHz.
    private var historyStart: Int64
    private var centre: Int64  // floor of the current output's input position
    private var phase: Int  // (n * M) mod L
    private var flushed = false

    /// Input samples accepted per call to ``process(_:output:)``.
    public static let maxInputBlock = 4_096

    /// Creates a converter from `inputRate` to `outputRate` (both positive).
    /// - Parameter stopbandAttenuation: in dB, at and above the lower of the two Nyquist frequencies.
    public init(inputRate: Int, outputRate: Int, stopbandAttenuation: Double = 90) {
        precondition(inputRate > 0 && outputRate > 0, "sample rates must be positive")
        self.inputRate = inputRate
        self.outputRate = outputRate
        let g = gcd(inputRate, outputRate)
        up = outputRate / g
        down = inputRate / g
        phases = min(up, Self.maxPhases)
        // Band edges in Hz: pass up to 87.5 % of the lower Nyquist frequency, stop from it on.
        let nyquist = Double(min(inputRate, outputRate)) / 2
        let stopEdge = nyquist
        let passEdge = 0.875 * nyquist
        let cutoff = (passEdge + stopEdge) / 2 / Double(inputRate)  // cycles per input sample
        let transition = (stopEdge - passEdge) / Double(inputRate)
        let length = (stopbandAttenuation - 7.95) / (2.285 * 2 * Double.pi * transition) + 1
        let k = max(2, Int((length / 2).rounded(.up)))
        halfWidth = k
        taps = 2 * k
        let beta =
            stopbandAttenuation > 50
            ? 0.1102 * (stopbandAttenuation - 8.7)
            : 0.5842 * pow(stopbandAttenuation - 21, 0.4) + 0.07886 * (stopbandAttenuation - 21)
        let i0beta = besselI0(beta)
        var table = [Float](repeating: 0, count: phases * 2 * k)
        for p in 0..<phases {
            let frac = Double(p) / Double(phases)
            var sum = 0.0
            var row = [Double](repeating: 0, count: 2 * k)
            for j in 0..<(2 * k) {
                // Distance from the output instant to input sample j of the window.
                let t = Double(k - 1 - j) + frac
                let x = t / Double(k)
                let w = abs(x) >= 1 ? 0 : besselI0(beta * (1 - x * x).squareRoot()) / i0beta
                let arg = 2 * cutoff * t
                let sinc = arg == 0 ? 1 : sin(Double.pi * arg) / (Double.pi * arg)
                row[j] = 2 * cutoff * sinc * w
                sum += row[j]
            }
            for j in 0..<(2 * k) { table[p * 2 * k + j] = Float(row[j] / sum) }
        }
        self.table = table
        history = [Float](repeating: 0, count: 2 * k + Self.maxInputBlock + 1)
        // Start with K-1 zeros before input sample 0 so that the first output is centred on it.
        historyCount = k - 1
        historyStart = Int64(-(k - 1))
        centre = 0
        phase = 0
    }

    /// Largest number of output samples one call with `inputCount` samples can produce.
    public func maxOutput(forInput inputCount: Int) -> Int {
        (inputCount + halfWidth + 1) * up / down + 2
    }

    /// Feeds up to ``maxInputBlock`` input samples; writes the outputs now computable into `output`.
    /// - Returns: the number of output samples written.
    public mutating func process(_ input: UnsafeBufferPointer<Float>, output: UnsafeMutableBufferPointer<Float>) -> Int
    {
        precondition(input.count <= Self.maxInputBlock, "feed at most maxInputBlock samples per call")
        history.withUnsafeMutableBufferPointer { h in
            for (i, x) in input.enumerated() { h[historyCount + i] = x }
        }
        historyCount += input.count
        return drain(output)
    }

    /// Ends the stream: pads with silence so that the last input samples produce their outputs.
    public mutating func flush(output: UnsafeMutableBufferPointer<Float>) -> Int {
        guard !flushed else { return 0 }
        flushed = true
        let pad = halfWidth + 1
        history.withUnsafeMutableBufferPointer { h in
            for i in 0..<pad { h[historyCount + i] = 0 }
        }
        // Only outputs whose centre lies inside the real input are wanted.
        let inputEnd = historyStart + Int64(historyCount)
        historyCount += pad
        return drain(output, centreLimit: inputEnd)
    }

    private mutating func drain(_ output: UnsafeMutableBufferPointer<Float>, centreLimit: Int64 = .max) -> Int {
        var written = 0
        let k = halfWidth
        let taps = taps
        let up = up
        let down = down
        let phases = phases
        table.withUnsafeBufferPointer { tab in
            history.withUnsafeMutableBufferPointer { h in
                guard let tableBase = tab.baseAddress, let historyBase = h.baseAddress else { return }
                // Output n needs input samples centre-K+1 ... centre+K.
                while centre + Int64(k) < historyStart + Int64(historyCount), centre < centreLimit,
                    written < output.count
                {
                    let row = (phases == up ? phase : phase * phases / up) * taps
                    let first = Int(centre - historyStart) - k + 1
                    output[written] = dot(tableBase + row, UnsafePointer(historyBase + first), taps)
                    written += 1
                    phase += down
                    while phase >= up {
                        phase -= up
                        centre += 1
                    }
                }
                // Drop history no later output needs.
                let keepFrom = Int(centre - historyStart) - k + 1
                if keepFrom > 0 {
                    let keep = max(0, historyCount - keepFrom)
                    for i in 0..<keep { h[i] = h[keepFrom + i] }
                    historyCount = keep
                    historyStart += Int64(keepFrom)
                }
            }
        }
        return written
    }
}

/// The dot product of `n` floats at `a` and `b`, eight lanes at a time (independent partial sums let
/// the compiler use vector instructions; the order of additions differs from a plain loop only in
/// rounding).
@inline(__always)
func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
    let ra = UnsafeRawPointer(a)
    let rb = UnsafeRawPointer(b)
    var acc = SIMD8<Float>()
    var j = 0
    while j + 8 <= n {
        acc +=
            ra.loadUnaligned(fromByteOffset: j * 4, as: SIMD8<Float>.self)
            * rb.loadUnaligned(fromByteOffset: j * 4, as: SIMD8<Float>.self)
        j += 8
    }
    var sum = acc.sum()
    while j < n {
        sum += a[j] * b[j]
        j += 1
    }
    return sum
}

func gcd(_ a: Int, _ b: Int) -> Int {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
}

/// Modified Bessel function of the first kind, order 0 (series; converges fast for the betas used).
func besselI0(_ x: Double) -> Double {
    var sum = 1.0
    var term = 1.0
    let q = x * x / 4
    for k in 1..<64 {
        term *= q / Double(k * k)
        sum += term
        if term < sum * 1e-17 { break }
    }
    return sum
}

/// Levels of one 10 ms frame, measured at the input's own sample rate (after the mono downmix).
public struct FrameLevel: Sendable, Equatable {
    /// Frame number; the frame covers `index * 10 ms ..< (index + 1) * 10 ms`.
    public var index: Int
    /// RMS level in dBFS (floor -160).
    public var rmsDB: Float
    /// Peak level in dBFS (floor -160).
    public var peakDB: Float
    /// Lowest and highest sample value: equal when the frame is constant (zeros, DC, a stuck value).
    public var minimum: Float
    /// Highest sample value.
    public var maximum: Float
    /// Mean square, linear.
    public var meanSquare: Double
    /// Mean sample value (the frame's DC offset).
    public var mean: Double = 0
    /// Samples that belong to a run of at least ``LevelMeter/flatRun`` equal samples at or above
    /// ``LevelMeter/flatFloor`` in magnitude: the flat tops a converter or a limiter cuts at its ceiling.
    public var flatSamples: Int = 0
    /// The largest magnitude among those flat runs (0 when there are none).
    public var flatTop: Float = 0

    /// A frame's levels from their parts (`LevelMeter` measures them).
    public init(
        index: Int, rmsDB: Float, peakDB: Float, minimum: Float, maximum: Float, meanSquare: Double,
        mean: Double = 0, flatSamples: Int = 0, flatTop: Float = 0
    ) {
        self.index = index
        self.rmsDB = rmsDB
        self.peakDB = peakDB
        self.minimum = minimum
        self.maximum = maximum
        self.meanSquare = meanSquare
        self.mean = mean
        self.flatSamples = flatSamples
        self.flatTop = flatTop
    }

    /// All samples of the frame hold the same value.
    public var isConstant: Bool { minimum == maximum }

    /// RMS level of the frame without its DC offset, in dBFS (floor -160): what a device adds besides
    /// a constant, such as the hiss on top of a stuck offset.
    public var acLevelDB: Float { Decibels.fromPower(max(0, meanSquare - mean * mean)) }

    /// Mean square of the frame less a DC offset `dc` measured over a longer time (``DCTracker``):
    /// unlike ``acLevelDB``, it keeps the frame's own low frequencies.
    public func power(removing dc: Double) -> Double { max(0, meanSquare - 2 * dc * mean + dc * dc) }
}

/// The DC offset of a signal, followed over about half a second of frames.
public struct DCTracker: Sendable {
    /// The offset followed so far: a slow average of the frames' mean sample values.
    public private(set) var offset = 0.0
    private var started = false

    /// A tracker that takes the first frame's mean as the offset.
    public init() {}

    /// Feeds a frame; returns its power without the offset (linear mean square).
    public mutating func power(of level: FrameLevel) -> Double {
        if started {
            offset += 0.02 * (level.mean - offset)
        } else {
            offset = level.mean
            started = true
        }
        return level.power(removing: offset)
    }
}

/// Measures RMS and peak level, in dBFS, over consecutive 10 ms frames.
///
/// Frame `i` covers the input samples `floor(i * rate / 100) ..< floor((i + 1) * rate / 100)`, so
/// rates that do not divide into 10 ms (11 025 Hz) still keep frames aligned to time.
///
/// - Complexity: O(1) per sample; nothing is allocated.
public struct LevelMeter: Sendable {
    /// Samples per second of the input, Hz.
    public let sampleRate: Int
    /// Frames per second (100: a 10 ms hop).
    public static let framesPerSecond = 100
    /// Equal samples in a row that make a flat top.
    public static let flatRun = 3
    /// Magnitude (-20 dBFS) below which equal samples in a row are not counted as a flat top: quiet
    /// signals repeat values through quantisation alone.
    public static let flatFloor: Float = 0.1

    private var frameIndex = 0
    // Sample positions in 64 bits: where Int is 32 (the page's WebAssembly), (frameIndex + 1) * rate passed
    // Int32.max after 7.5 minutes at 48 kHz, and the kernel trapped.
    private var sampleIndex: Int64 = 0
    private var frameEnd: Int64
    private var sumSquares = 0.0
    private var peak: Float = 0
    private var lo = Float.infinity
    private var hi = -Float.infinity
    private var count = 0
    private var sum = 0.0
    private var previous: Float = .nan
    private var run = 0
    private var flatSamples = 0
    private var flatTop: Float = 0

    /// A meter for input at `sampleRate` (Hz, positive).
    public init(sampleRate: Int) {
        precondition(sampleRate > 0, "sample rate must be positive")
        self.sampleRate = sampleRate
        frameEnd = Int64(sampleRate / Self.framesPerSecond)
    }

    /// Feeds samples; calls `onFrame` once for every frame they complete, in order.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, onFrame: (FrameLevel) -> Void) {
        var i = 0
        while i < samples.count {
            // Up to the end of the current frame, in locals (the same sums in the same order); at least 1: rates
            // under 100 Hz never end a frame.
            let n = min(samples.count - i, Int(max(1, min(frameEnd - sampleIndex, Int64(samples.count)))))
            var sq = sumSquares
            var s1 = sum
            var pk = peak
            var l = lo
            var h = hi
            var prev = previous
            var r = run
            var flat = flatSamples
            var top = flatTop
            for k in i..<(i + n) {
                let x = samples[k]
                sq += Double(x) * Double(x)
                s1 += Double(x)
                let a = abs(x)
                if a > pk { pk = a }
                if x < l { l = x }
                if x > h { h = x }
                if x == prev {
                    r += 1
                    if r >= Self.flatRun && a >= Self.flatFloor {
                        flat += r == Self.flatRun ? Self.flatRun : 1
                        if a > top { top = a }
                    }
                } else {
                    r = 1
                    prev = x
                }
            }
            sumSquares = sq
            sum = s1
            peak = pk
            lo = l
            hi = h
            previous = prev
            run = r
            flatSamples = flat
            flatTop = top
            count += n
            sampleIndex += Int64(n)
            i += n
            if sampleIndex == frameEnd { emit(onFrame) }
        }
    }

    private mutating func emit(_ onFrame: (FrameLevel) -> Void) {
        let ms = count > 0 ? sumSquares / Double(count) : 0
        onFrame(
            FrameLevel(
                index: frameIndex, rmsDB: Decibels.fromPower(ms), peakDB: Decibels.fromAmplitude(Double(peak)),
                minimum: lo, maximum: hi, meanSquare: ms, mean: count > 0 ? sum / Double(count) : 0,
                flatSamples: flatSamples, flatTop: flatTop))
        frameIndex += 1
        frameEnd = Int64(frameIndex + 1) * Int64(sampleRate) / Int64(Self.framesPerSecond)
        sumSquares = 0
        sum = 0
        peak = 0
        lo = .infinity
        hi = -.infinity
        count = 0
        flatSamples = 0
        flatTop = 0
    }
}

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
    public var maximum: Float
    /// Mean square, linear.
    public var meanSquare: Double

    /// All samples of the frame hold the same value.
    public var isConstant: Bool { minimum == maximum }
}

/// Measures RMS and peak level, in dBFS, over consecutive 10 ms frames.
///
/// Frame `i` covers the input samples `floor(i * rate / 100) ..< floor((i + 1) * rate / 100)`, so
/// rates that do not divide into 10 ms (11 025 Hz) still keep frames aligned to time.
///
/// - Complexity: O(1) per sample; nothing is allocated.
public struct LevelMeter: Sendable {
    public let sampleRate: Int
    /// Frames per second (100: a 10 ms hop).
    public static let framesPerSecond = 100

    private var frameIndex = 0
    private var sampleIndex = 0
    private var frameEnd: Int
    private var sumSquares = 0.0
    private var peak: Float = 0
    private var lo = Float.infinity
    private var hi = -Float.infinity
    private var count = 0

    public init(sampleRate: Int) {
        precondition(sampleRate > 0, "sample rate must be positive")
        self.sampleRate = sampleRate
        frameEnd = sampleRate / Self.framesPerSecond
    }

    /// Feeds samples; calls `onFrame` once for every frame they complete, in order.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, onFrame: (FrameLevel) -> Void) {
        var i = 0
        while i < samples.count {
            // Up to the end of the current frame, in locals (the same sums in the same order).
            let n = min(samples.count - i, max(1, frameEnd - sampleIndex))   // 1: rates under 100 Hz never end a frame
            var sum = sumSquares, pk = peak, l = lo, h = hi
            for k in i..<(i + n) {
                let x = samples[k]
                sum += Double(x) * Double(x)
                let a = abs(x)
                if a > pk { pk = a }
                if x < l { l = x }
                if x > h { h = x }
            }
            sumSquares = sum; peak = pk; lo = l; hi = h
            count += n
            sampleIndex += n
            i += n
            if sampleIndex == frameEnd { emit(onFrame) }
        }
    }

    private mutating func emit(_ onFrame: (FrameLevel) -> Void) {
        let ms = count > 0 ? sumSquares / Double(count) : 0
        onFrame(FrameLevel(index: frameIndex, rmsDB: Decibels.fromPower(ms), peakDB: Decibels.fromAmplitude(Double(peak)),
                           minimum: lo, maximum: hi, meanSquare: ms))
        frameIndex += 1
        frameEnd = (frameIndex + 1) * sampleRate / Self.framesPerSecond
        sumSquares = 0; peak = 0; lo = .infinity; hi = -.infinity; count = 0
    }
}

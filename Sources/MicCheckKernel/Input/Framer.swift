/// Cuts a mono stream at any supported rate into the voice detector's frames: resampled to 16 kHz
/// (``VoiceFeatureExtractor/sampleRate``), 10 ms each (``VoiceFeatureExtractor/frameLength`` samples).
///
/// The analyzer and the training features (`TrainingFeatures`) both frame audio with this one type,
/// so training sees exactly the frames that the runtime analyses, the last ones included:
/// ``finish(frame:)`` flushes the resampler, and a partial last frame is dropped by both.
///
/// - Complexity: nothing is allocated after `init`; input is resampled 10 ms at a time.
public struct Framer: Sendable {
    /// Samples per second of the input, Hz.
    public let inputRate: Int
    private let block: Int
    private var resampler: Resampler?
    private var resampled: [Float]
    private var frame: [Float]
    private var fill = 0
    private var finished = false

    /// A framer for input at `inputRate` (Hz, one of `AudioFormat.supportedSampleRates`).
    public init(inputRate: Int) {
        precondition(AudioFormat.supportedSampleRates.contains(inputRate), "unsupported sample rate")
        self.inputRate = inputRate
        block = max(1, inputRate / LevelMeter.framesPerSecond)
        let target = VoiceFeatureExtractor.sampleRate
        let rs = inputRate == target ? nil : Resampler(inputRate: inputRate, outputRate: target)
        resampler = rs
        resampled = [Float](repeating: 0, count: rs?.maxOutput(forInput: block + 1) ?? 0)
        frame = [Float](repeating: 0, count: VoiceFeatureExtractor.frameLength)
    }

    /// A framer that holds no buffers, to stand in while the real one is lent out (see `Analyzer`).
    init(placeholderAt inputRate: Int) {
        self.inputRate = inputRate
        block = 1
        resampler = nil
        resampled = []
        frame = []
    }

    /// Feeds samples at ``inputRate``; calls `emit` with every frame they complete.
    public mutating func process(
        _ samples: UnsafeBufferPointer<Float>, frame emit: (UnsafeBufferPointer<Float>) -> Void
    ) {
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + block)
            let part = UnsafeBufferPointer(rebasing: samples[start..<end])
            if resampler != nil {
                let n = resampled.withUnsafeMutableBufferPointer { out in resampler?.process(part, output: out) ?? 0 }
                feedResampled(count: n, emit: emit)
            } else {
                feed(part, emit: emit)
            }
            start = end
        }
    }

    /// Ends the stream: frames what the resampler still holds. Later calls do nothing.
    public mutating func finish(frame emit: (UnsafeBufferPointer<Float>) -> Void) {
        guard !finished else { return }
        finished = true
        guard resampler != nil else { return }
        var n = 0
        repeat {
            n = resampled.withUnsafeMutableBufferPointer { out in resampler?.flush(output: out) ?? 0 }
            feedResampled(count: n, emit: emit)
        } while n == resampled.count && n > 0
    }

    private mutating func feedResampled(count: Int, emit: (UnsafeBufferPointer<Float>) -> Void) {
        // A copy of the array reference, so that `resampled` stays unshared while `feed` runs.
        let samples = resampled
        samples.withUnsafeBufferPointer { feed(UnsafeBufferPointer(rebasing: $0[0..<count]), emit: emit) }
    }

    /// Fills frames from `samples`, a frame's worth of copying at a time, and hands on each full one.
    private mutating func feed(_ samples: UnsafeBufferPointer<Float>, emit: (UnsafeBufferPointer<Float>) -> Void) {
        var i = 0
        while i < samples.count {
            let n = min(samples.count - i, frame.count - fill)
            let at = fill
            frame.withUnsafeMutableBufferPointer { f in
                for k in 0..<n { f[at + k] = samples[i + k] }
            }
            fill += n
            i += n
            if fill == frame.count {
                fill = 0
                frame.withUnsafeBufferPointer { emit($0) }
            }
        }
    }
}

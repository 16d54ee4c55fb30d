/// Raises `clipping` when the input keeps hitting a ceiling, at full scale or below it (a limiter, an
/// AGC or a converter driven too hard), often enough to distort speech; `ended` when it has stopped.
///
/// A clipped waveform has flat tops: runs of equal samples at the ceiling (``FrameLevel/flatSamples``,
/// ``FrameLevel/flatTop``). One flat top proves little (a quantised slow wave repeats values too); a
/// ceiling does: many frames whose flat tops sit at one height, with nothing in the window above it.
/// The warning is raised when, within ``Configuration/window``, at least ``Configuration/minimumFrames``
/// frames have flat tops within 0.1 dB of the window's highest flat top and no frame peaks more than
/// 0.1 dB above it. It ends after ``Configuration/endAfter`` without such a frame.
///
/// - Complexity: O(1) per frame; the window's ring is allocated once.
public struct ClippingDetector: Sendable {
    /// When clipping is raised and when it ends: durations in seconds, counts in frames or samples.
    public struct Configuration: Sendable, Equatable {
        /// Seconds over which clipped frames are counted.
        public var window: Double = 2
        /// Frames with flat tops at the ceiling, within the window, that make clipping.
        public var minimumFrames: Int = 8
        /// Flat-topped samples at the ceiling, within the window, that make clipping.
        public var minimumSamples: Int = 48
        /// Seconds without clipped frames before the warning ends.
        public var endAfter: Double = 5

        /// Settings with the defaults above.
        public init() {}
        /// The default settings.
        public static let `default` = Configuration()
    }

    /// What the detector reports: `clipping` when it raises the warning, `ended` when it clears it.
    public enum Event: Sendable, Equatable {
        /// Clipping at `ceilingDB` (dBFS); `share`: the fraction of the window's samples cut flat.
        case clipping(ceilingDB: Float, share: Float)
        /// No clipped frame for `endAfter` seconds: the warning ends.
        case ended
    }

    private struct Frame { var flat = 0, top: Float = 0, peak: Float = 0, samples = 0 }

    /// The detector's settings.
    public let configuration: Configuration
    private let length: Int
    private var ring: [Frame]
    private var head = 0
    private var sinceClipped = Int.max / 2
    /// Whether the warning is up.
    public private(set) var isClipping = false

    /// A detector with these settings.
    public init(configuration: Configuration = .default) {
        self.configuration = configuration
        length = max(1, Int(configuration.window * Double(LevelMeter.framesPerSecond)))
        ring = [Frame](repeating: Frame(), count: length)
    }

    /// Feeds one frame's level; `samples`: how many input samples the frame holds.
    public mutating func process(level: FrameLevel, samples: Int) -> Event? {
        let peak = Float(Decibels.amplitude(Double(level.peakDB)))
        // A constant frame (a stuck value) is a dead device, not a flat top; so is a faint hiss on a DC
        // offset, whose samples repeat its highest value: a clipped wave swings by at least its ceiling.
        let swing = level.maximum - level.minimum
        let flatNow = level.isConstant || swing < 0.5 * level.flatTop ? 0 : level.flatSamples
        ring[head] = Frame(flat: flatNow, top: level.flatTop, peak: peak, samples: samples)
        head = (head + 1) % length
        let clippedNow = flatNow > 0
        sinceClipped = clippedNow ? 0 : sinceClipped + 1
        if isClipping {
            guard sinceClipped >= Int(configuration.endAfter * Double(LevelMeter.framesPerSecond)) else { return nil }
            isClipping = false
            return .ended
        }
        guard clippedNow else { return nil }
        // The window's ceiling: its highest flat top; frames at it, and whether anything went above.
        var ceiling: Float = 0
        for f in ring where f.flat > 0 { ceiling = max(ceiling, f.top) }
        let near = ceiling * 0.9886  // 0.1 dB
        let above = ceiling * 1.0116
        var frames = 0
        var flat = 0
        var total = 0
        for f in ring {
            total += f.samples
            if f.peak > above { return nil }
            if f.flat > 0 && f.top >= near {
                frames += 1
                flat += f.flat
            }
        }
        guard frames >= configuration.minimumFrames, flat >= configuration.minimumSamples else { return nil }
        isClipping = true
        return .clipping(ceilingDB: Decibels.fromAmplitude(Double(ceiling)), share: Float(flat) / Float(max(1, total)))
    }
}

/// Keeps the frames of a steady background (a fan, an air conditioner, a machine's drone, a hum) from
/// counting as speech, however long the background lasts.
///
/// The voice model reads features of a second or so of context and keeps its own memory in a GRU
/// state; minutes of one unchanging sound can lead that state where training never went. This gate
/// does not rely on the model for it. For each of the 16 bands of ``VoiceFeatureExtractor`` it keeps
/// the levels of the last ``Configuration/window`` seconds in a 1 dB histogram. The window is *steady*
/// when every band but the ``Configuration/unsteadyBands`` that move most has a spread (90th minus
/// 10th percentile) of at most ``Configuration/maximumSpread`` dB: a fan's bands move by a few dB from
/// frame to frame; a voice, even at 0 dB SNR, moves the bands of its formants by far more, as do
/// music, birds and a street. A steady window is the background's portrait: each band's 90th
/// percentile, plus ``Configuration/minimumRise`` dB, is the level over which a frame *stands out*.
/// The portrait is kept while someone talks (the window is not steady then) and renewed whenever the
/// window is steady again.
///
/// A frame stands out when at least ``Configuration/standoutBands`` bands rise over the portrait in
/// ``Configuration/standoutFrames`` consecutive frames ending with it: a voice over the background does
/// so in its formants on every syllable; the fan does not, and its rare loud frame is too short.
/// While the window is steady, or while the noisy-microphone detector names the background a hum or a
/// hiss, a frame with nothing standing out in the last ``Configuration/hold`` seconds has its
/// probability capped at ``Configuration/ceiling``: neither a speech frame nor a speech start. The hold
/// keeps the pauses inside an utterance, and the frames the model's look-ahead answers late, as the
/// model says. Where the background is not steady, the gate stays open and the model alone decides.
///
/// - Complexity: O(bands) per frame, and the percentiles every 10 frames (16 histograms of 121 bins);
///   nothing is allocated after `init`.
public struct SteadyBackgroundGate: Sendable {
    /// The gate's settings: levels in dB, durations in seconds, counts in bands or frames.
    public struct Configuration: Sendable, Equatable {
        /// Whether the gate is used at all (off: the model's probabilities as they are).
        public var enabled: Bool
        /// Seconds of band levels the background is judged on.
        public var window: Double
        /// The largest spread (dB, 10th to 90th percentile) of a steady background, in all bands but
        /// the ``unsteadyBands`` that move most.
        public var maximumSpread: Float
        /// Bands whose spread the steadiness test leaves out (a tone that wavers, a resonance).
        public var unsteadyBands: Int
        /// The rise (dB) over a band's 90th percentile in the portrait that stands out.
        public var minimumRise: Float
        /// Bands that must stand out together for the frame to stand out.
        public var standoutBands: Int
        /// Consecutive frames whose bands must rise for the last of them to stand out (a click of the
        /// background rises for one frame; a syllable for many).
        public var standoutFrames: Int
        /// Seconds of background heard before the gate may close.
        public var settle: Double
        /// Seconds after a frame that stands out during which the model decides alone.
        public var hold: Double
        /// The probability a frame of the steady background is given at most.
        public var ceiling: Float

        /// Settings; the defaults are those the analysis uses (`default`).
        public init(
            enabled: Bool = true, window: Double = 5, maximumSpread: Float = 10, unsteadyBands: Int = 2,
            minimumRise: Float = 3, standoutBands: Int = 2, standoutFrames: Int = 2, settle: Double = 1,
            hold: Double = 0.4, ceiling: Float = 0.3
        ) {
            self.enabled = enabled
            self.window = window
            self.maximumSpread = maximumSpread
            self.unsteadyBands = unsteadyBands
            self.minimumRise = minimumRise
            self.standoutBands = standoutBands
            self.standoutFrames = standoutFrames
            self.settle = settle
            self.hold = hold
            self.ceiling = ceiling
        }

        /// The default settings: the gate on.
        public static let `default` = Configuration()
        /// The model's probabilities as they are.
        public static let off = Configuration(enabled: false)
    }

    static let lowestBin = -120
    static let bins = 121  // -120...0 dBFS, 1 dB each
    static let refreshFrames = 10

    /// The gate's settings.
    public let configuration: Configuration
    private let bands = VoiceFeatureExtractor.bands
    private let length: Int
    private let settleFrames: Int
    private let holdFrames: Int
    /// The last `length` frames' bins, band by band (frame-major ring).
    private var ring: [UInt8]
    private var histogram: [Int32]
    /// Each band's level over which a frame stands out (dBFS): the portrait of the last steady window.
    private var upper: [Float]
    /// Whether a steady window has been seen (there is a portrait).
    public private(set) var hasPortrait = false
    private var spreads: [Float]
    private var ninetieth: [Float]
    private var head = 0
    private var filled = 0
    private var sinceRefresh = Int.max / 2
    private var sinceStandout = 0
    private var risingRun = 0
    /// The spread (dB, 10th to 90th percentile) of all bands but the most moving, at the last refresh.
    public private(set) var spread: Float = .infinity
    /// Whether the last frame stood out of the background.
    public private(set) var stoodOut = false
    /// Whether the gate held the last frame's probability down.
    public private(set) var isGating = false

    /// A gate with these settings, fed `framesPerSecond` frames a second (100: 10 ms frames).
    public init(configuration: Configuration = .default, framesPerSecond: Int = LevelMeter.framesPerSecond) {
        self.configuration = configuration
        let fps = Double(framesPerSecond)
        length = max(2, Int((configuration.window * fps).rounded()))
        settleFrames = min(length, Int((configuration.settle * fps).rounded()))
        holdFrames = Int((configuration.hold * fps).rounded())
        ring = [UInt8](repeating: 0, count: length * VoiceFeatureExtractor.bands)
        histogram = [Int32](repeating: 0, count: Self.bins * VoiceFeatureExtractor.bands)
        upper = [Float](repeating: 0, count: VoiceFeatureExtractor.bands)
        spreads = [Float](repeating: 0, count: VoiceFeatureExtractor.bands)
        ninetieth = [Float](repeating: 0, count: VoiceFeatureExtractor.bands)
    }

    /// Whether the window has been heard long enough and is steady.
    public var isSteadyBackground: Bool { filled >= settleFrames && spread <= configuration.maximumSpread }

    /// Feeds one frame: the features of the frame just analysed (its band levels), the model's
    /// probability, and whether the noisy-microphone detector names a steady background (hum, hiss)
    /// now. Returns the probability the frame keeps.
    public mutating func process(probability: Float, features: VoiceFeatureExtractor, steadyNoiseNamed: Bool) -> Float {
        guard configuration.enabled else { return probability }
        let c = configuration
        // Judged against the portrait, before this frame enters the window.
        var rising = 0
        if hasPortrait {
            for b in 0..<bands where features.bandLevelDB(b) >= upper[b] { rising += 1 }
        }
        risingRun = rising >= c.standoutBands ? risingRun + 1 : 0
        stoodOut = risingRun >= c.standoutFrames
        let base = head * bands
        ring.withUnsafeMutableBufferPointer { r in
            histogram.withUnsafeMutableBufferPointer { h in
                for b in 0..<bands {
                    if filled == length { h[Int(r[base + b]) * bands + b] -= 1 }
                    // Clamped as a Float first: a level out of range (an app's samples far past full
                    // scale) never reaches the integer conversion.
                    let db = min(0, max(Float(Self.lowestBin), features.bandLevelDB(b)))
                    let bin = UInt8(Int(db.rounded()) - Self.lowestBin)
                    r[base + b] = bin
                    h[Int(bin) * bands + b] += 1
                }
            }
        }
        head = (head + 1) % length
        filled = min(filled + 1, length)
        sinceRefresh += 1
        if sinceRefresh >= Self.refreshFrames { refresh() }
        sinceStandout = stoodOut ? 0 : min(sinceStandout + 1, holdFrames + 1)
        isGating = hasPortrait && sinceStandout > holdFrames && (isSteadyBackground || steadyNoiseNamed)
        return isGating ? min(probability, c.ceiling) : probability
    }

    /// The window's spread, and from a steady window the portrait, from the histograms.
    private mutating func refresh() {
        sinceRefresh = 0
        let lo = Int32(Double(filled) * 0.1)
        let hi = Int32(Double(filled) * 0.9)
        histogram.withUnsafeBufferPointer { h in
            for b in 0..<bands {
                var seen: Int32 = 0
                var p10 = -1
                var p90 = Self.bins - 1
                for bin in 0..<Self.bins {
                    seen += h[bin * bands + b]
                    if p10 < 0 && seen > lo { p10 = bin }
                    if seen > hi {
                        p90 = bin
                        break
                    }
                }
                ninetieth[b] = Float(p90 + Self.lowestBin)
                spreads[b] = Float(p90 - max(0, p10))
            }
        }
        // The spread of all bands but the `unsteadyBands` that move most (an insertion sort in place:
        // the standard library's sort may allocate a buffer).
        spreads.withUnsafeMutableBufferPointer { s in
            for i in 1..<s.count {
                let v = s[i]
                var j = i
                while j > 0 && s[j - 1] > v {
                    s[j] = s[j - 1]
                    j -= 1
                }
                s[j] = v
            }
            spread = s[max(0, bands - 1 - configuration.unsteadyBands)]
        }
        guard isSteadyBackground else { return }
        for b in 0..<bands { upper[b] = ninetieth[b] + configuration.minimumRise }
        hasPortrait = true
    }
}

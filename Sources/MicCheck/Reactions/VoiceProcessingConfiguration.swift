/// What a voice processor does to near-end (microphone) audio: a value that any platform can hold,
/// parse and print, whether or not it has a voice-processing engine.
///
/// On Linux, `MicCheckVoiceProcessing.VoiceProcessor` carries it out with webrtc-audio-processing.
public struct VoiceProcessingConfiguration: Sendable, Equatable {
    /// How hard the echo canceller's non-linear stage suppresses residual echo.
    public enum EchoSuppression: String, Sendable, CaseIterable {
        /// Keeps the most of near-end speech during double talk; leaves the most residual echo.
        case low
        /// The library's default balance.
        case moderate
        /// Removes the most residual echo; clips more near-end speech during double talk.
        case high
    }

    /// How aggressively stationary noise is removed. Higher levels remove more noise and distort
    /// speech more.
    public enum NoiseSuppressionLevel: String, Sendable, CaseIterable {
        /// Low, moderate or high suppression, as webrtc-audio-processing names its levels.
        case low, moderate, high
        /// The strongest suppression: removes the most noise, distorts speech the most.
        case veryHigh = "very-high"
    }

    /// How the automatic gain controller reaches its target level.
    public enum GainControlMode: String, Sendable, CaseIterable {
        /// Drives the capture device's own (analog) volume; the caller applies the level it asks for.
        case adaptiveAnalog = "adaptive-analog"
        /// Applies a varying digital gain; for devices whose volume cannot be changed.
        case adaptiveDigital = "adaptive-digital"
        /// A fixed digital gain of ``VoiceProcessingConfiguration/gainCompressionDB`` with a limiter.
        case fixedDigital = "fixed-digital"
    }

    /// Sample rates the engine processes natively.
    public static let supportedSampleRates = [8_000, 16_000, 32_000, 48_000]

    /// Processing rate in Hz: one of ``supportedSampleRates``.
    public var sampleRate: Int
    /// Echo cancellation against a far-end (loudspeaker) reference, or `nil` for none.
    public var echoCancellation: EchoSuppression?
    /// Noise suppression, or `nil` for none.
    public var noiseSuppression: NoiseSuppressionLevel?
    /// Automatic gain control, or `nil` for none.
    public var gainControl: GainControlMode?
    /// Target peak level of the gain controller: `-gainTargetDBFS` dBFS (0…31).
    public var gainTargetDBFS: Int
    /// Most gain the digital controller applies, in dB (0…90).
    public var gainCompressionDB: Int
    /// Removes rumble and DC below about 80 Hz.
    public var highPassFilter: Bool

    /// A configuration: each stage is off unless given, except the high-pass filter (on).
    public init(
        sampleRate: Int = 16_000, echoCancellation: EchoSuppression? = nil,
        noiseSuppression: NoiseSuppressionLevel? = nil, gainControl: GainControlMode? = nil,
        gainTargetDBFS: Int = 3, gainCompressionDB: Int = 9, highPassFilter: Bool = true
    ) {
        self.sampleRate = sampleRate
        self.echoCancellation = echoCancellation
        self.noiseSuppression = noiseSuppression
        self.gainControl = gainControl
        self.gainTargetDBFS = gainTargetDBFS
        self.gainCompressionDB = gainCompressionDB
        self.highPassFilter = highPassFilter
    }

    /// What a call uses: echo cancellation, moderate noise suppression and the high-pass filter.
    /// No gain control, so that levels and the microphone checker still read the device as it is.
    public static func call(sampleRate: Int = 16_000) -> Self {
        Self(sampleRate: sampleRate, echoCancellation: .moderate, noiseSuppression: .moderate)
    }

    /// The supported rate to process audio of `rate` at: `rate` itself when supported, otherwise
    /// the lowest supported rate above it (48 kHz at most), so that no band is lost.
    public static func processingRate(for rate: Int) -> Int {
        supportedSampleRates.first { $0 >= rate } ?? 48_000
    }

    /// Samples in one 10 ms frame.
    public var frameLength: Int { sampleRate / 100 }
}

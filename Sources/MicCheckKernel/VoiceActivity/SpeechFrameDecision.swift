/// Decides whether each 10 ms frame is speech, from the voice model's probability.
///
/// A frame is speech when its probability is at or above ``Configuration/threshold``, or when one of
/// the ``Configuration/hold`` seconds before it was: the hold bridges the dips between syllables
/// without the hangover that keeps an utterance open. This is the per-frame `speech` of the
/// analysis; ``SpeechEventDetector`` decides utterances (`speech_started` / `speech_ended`) from the
/// same probabilities, so a pause inside an utterance has frames that are not speech.
public struct SpeechFrameDecision: Sendable {
    /// The threshold a frame's probability must reach, and how long it holds (seconds).
    public struct Configuration: Sendable, Equatable {
        /// Probability at or above which a frame is speech.
        public var threshold: Float
        /// How long a frame at or above the threshold keeps the following frames speech (seconds).
        public var hold: Double

        /// Settings; by default a frame at 0.5 or more is speech and keeps the next 30 ms speech.
        public init(threshold: Float = 0.5, hold: Double = 0.03) {
            self.threshold = threshold
            self.hold = hold
        }

        /// Tuned on the public corpus for frame F1 (see Guides/VoiceActivityDetection.md).
        public static let `default` = Configuration()
    }

    /// The decision's settings.
    public let configuration: Configuration
    private let holdFrames: Int
    /// Frames since the last frame at or above the threshold (capped).
    private var sinceSpeech: Int

    /// A decision with these settings, fed `framesPerSecond` frames a second (100: 10 ms frames).
    public init(configuration: Configuration = .default, framesPerSecond: Int = LevelMeter.framesPerSecond) {
        self.configuration = configuration
        holdFrames = max(0, Int((configuration.hold * Double(framesPerSecond)).rounded()))
        sinceSpeech = holdFrames + 1
    }

    /// Feeds one frame's probability; returns whether the frame is speech.
    public mutating func process(probability p: Float) -> Bool {
        sinceSpeech = p >= configuration.threshold ? 0 : min(sinceSpeech + 1, holdFrames + 1)
        return sinceSpeech <= holdFrames
    }
}

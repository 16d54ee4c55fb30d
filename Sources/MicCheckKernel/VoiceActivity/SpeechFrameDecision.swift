/// Decides whether each 10 ms frame is speech, from the voice model's probability and the utterances.
///
/// A frame is speech when its probability is at or above ``Configuration/threshold``, or when one of
/// the ``Configuration/hold`` seconds before it was: the hold bridges the dips between syllables
/// without the hangover that keeps an utterance open. ``SpeechEventDetector`` decides utterances
/// (`speech_started` / `speech_ended`) from the same probabilities, so a pause inside an utterance has
/// frames that are not speech.
///
/// The analysis asks ``process(probability:speaking:)``, which holds frames to the events: a frame is
/// speech only inside an utterance or in the ``Configuration/afterUtterance`` seconds after one ends (a
/// quieter clause the model doubts, after a sentence that started speech). Where nobody has spoken, a
/// probability that sits above the threshold over a sound the model half believes (a fan) marks no
/// frame speech, so a summary never reports speech time without an utterance.
public struct SpeechFrameDecision: Sendable {
    /// The threshold a frame's probability must reach, and how long it holds (seconds).
    public struct Configuration: Sendable, Equatable {
        /// Probability at or above which a frame is speech.
        public var threshold: Float
        /// How long a frame at or above the threshold keeps the following frames speech (seconds).
        public var hold: Double
        /// How long after an utterance ends frames may still be speech (seconds). 0, a negative value or NaN:
        /// inside utterances only; an infinite one counts as a billion frames (about 115 days).
        public var afterUtterance: Double

        /// Settings; by default a frame at 0.5 or more is speech and keeps the next 30 ms speech, inside an
        /// utterance and for 5 s after one.
        public init(threshold: Float = 0.5, hold: Double = 0.03, afterUtterance: Double = 5) {
            self.threshold = threshold
            self.hold = hold
            self.afterUtterance = afterUtterance
        }

        /// Tuned on the public corpus for frame F1 (see Guides/VoiceActivityDetection.md).
        public static let `default` = Configuration()
    }

    /// The decision's settings.
    public let configuration: Configuration
    private let holdFrames: Int
    private let afterFrames: Int
    /// Frames since the last frame at or above the threshold (capped).
    private var sinceSpeech: Int
    /// Frames since the last frame inside an utterance (capped; past the cap before any utterance).
    private var sinceUtterance: Int

    /// A decision with these settings, fed `framesPerSecond` frames a second (100: 10 ms frames).
    public init(configuration: Configuration = .default, framesPerSecond: Int = LevelMeter.framesPerSecond) {
        self.configuration = configuration
        holdFrames = max(0, Int((configuration.hold * Double(framesPerSecond)).rounded()))
        afterFrames =
            configuration.afterUtterance >= 0
            ? Int(min(configuration.afterUtterance * Double(framesPerSecond), 1e9).rounded()) : 0
        sinceSpeech = holdFrames + 1
        sinceUtterance = afterFrames + 1
    }

    /// Feeds one frame's probability; returns whether it is speech by the probability alone (the threshold
    /// and the hold), whatever the utterances.
    public mutating func process(probability p: Float) -> Bool {
        sinceSpeech = p >= configuration.threshold ? 0 : min(sinceSpeech + 1, holdFrames + 1)
        return sinceSpeech <= holdFrames
    }

    /// Feeds one frame's probability and whether an utterance is open on it (the analysis's
    /// `SpeechEventDetector.isSpeaking`); returns whether the frame is speech: by the probability, inside
    /// an utterance or within ``Configuration/afterUtterance`` of one. Feed every frame through this one
    /// method: a frame fed through ``process(probability:)`` does not count towards the time since an
    /// utterance.
    public mutating func process(probability p: Float, speaking: Bool) -> Bool {
        sinceUtterance = speaking ? 0 : min(sinceUtterance + 1, afterFrames + 1)
        return process(probability: p) && sinceUtterance <= afterFrames
    }
}

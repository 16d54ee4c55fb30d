/// A change in whether someone is speaking.
public enum SpeechActivityEvent: Sendable, Equatable {
    /// Speech started.
    case started
    /// Speech ended.
    case ended
}

/// Turns per-frame speech probabilities into speech segments and `started` / `ended` events.
///
/// Speech starts once the probability has stayed at or above ``Configuration/startThreshold`` for
/// ``Configuration/minimumSpeech``; it ends once it has stayed below ``Configuration/endThreshold``
/// for ``Configuration/hangover``. Events carry the time the decision was made, never a time before
/// the detector could know; ``Configuration/prefixPadding`` says how much audio before that belongs to
/// the utterance (as the OpenAI Realtime server VAD's `prefix_padding_ms`), for callers that keep audio.
///
/// This is the detector behind the "You are muted." notice: it runs the same whether or not the user
/// is muted, and the caller decides what to show.
public struct SpeechEventDetector: Sendable {
    /// When speech starts and ends: probability thresholds, durations in seconds.
    public struct Configuration: Sendable, Equatable {
        /// Probability at or above which a frame counts towards starting speech.
        public var startThreshold: Float
        /// Probability below which a frame counts towards ending speech.
        public var endThreshold: Float
        /// How long the probability must stay above the start threshold (seconds).
        public var minimumSpeech: Double
        /// How long it must stay below the end threshold before speech ends (seconds).
        public var hangover: Double
        /// Audio before the start decision that belongs to the utterance (seconds).
        public var prefixPadding: Double
        /// Frames quieter than this (dBFS) never count towards starting speech. Off (-160) by default;
        /// see ``afterEchoCancellation``.
        public var minimumLevelDB: Float

        /// Settings; by default speech starts on the first frame at 0.8 or more and ends after 0.3 s
        /// below 0.7, with 0.3 s of prefix padding and no level floor.
        public init(
            startThreshold: Float = 0.8, endThreshold: Float = 0.7, minimumSpeech: Double = 0.01,
            hangover: Double = 0.3, prefixPadding: Double = 0.3, minimumLevelDB: Float = Decibels.floor
        ) {
            self.startThreshold = startThreshold
            self.endThreshold = endThreshold
            self.minimumSpeech = minimumSpeech
            self.hangover = hangover
            self.prefixPadding = prefixPadding
            self.minimumLevelDB = minimumLevelDB
        }

        /// Defaults chosen on the validation folds (and checked on the public corpus) with
        /// `training/tune_events.py`: start on the first frame at 0.8 or more, end after 300 ms below 0.7
        /// (see Guides/VoiceActivityDetection.md).
        public static let `default` = Configuration()

        /// For audio after echo cancellation, whose residue is faint but speech-like: frames below
        /// -50 dBFS never start speech and a start needs 100 ms at 0.8 or more (ending after 300 ms
        /// below 0.7), while a talker's own voice (-45 dBFS and up at the loudest) still starts it.
        public static let afterEchoCancellation = Configuration(
            startThreshold: 0.8, minimumSpeech: 0.1, minimumLevelDB: -50)
    }

    /// The settings in use (changed by `reconfigure(_:)`).
    public private(set) var configuration: Configuration
    private let framesPerSecond: Int
    private var startFrames: Int
    private var endFrames: Int
    private var run = 0
    /// Whether speech is in progress after the last frame.
    public private(set) var isSpeaking = false

    /// A detector with these settings, fed `framesPerSecond` frames a second (100: 10 ms frames).
    public init(configuration: Configuration = .default, framesPerSecond: Int = LevelMeter.framesPerSecond) {
        self.configuration = configuration
        self.framesPerSecond = framesPerSecond
        startFrames = max(1, Int((configuration.minimumSpeech * Double(framesPerSecond)).rounded()))
        endFrames = max(1, Int((configuration.hangover * Double(framesPerSecond)).rounded()))
    }

    /// Takes new settings from the next frame on; whether speech is in progress is kept, and the run of
    /// frames towards the next change starts again.
    public mutating func reconfigure(_ configuration: Configuration) {
        self = SpeechEventDetector(
            configuration: configuration, framesPerSecond: framesPerSecond, isSpeaking: isSpeaking)
    }

    private init(configuration: Configuration, framesPerSecond: Int, isSpeaking: Bool) {
        self.init(configuration: configuration, framesPerSecond: framesPerSecond)
        self.isSpeaking = isSpeaking
    }

    /// Feeds one frame's probability and level; returns an event when speech starts or ends on this
    /// frame.
    public mutating func process(probability p: Float, levelDB: Float = 0) -> SpeechActivityEvent? {
        if isSpeaking {
            run = p < configuration.endThreshold ? run + 1 : 0
            if run >= endFrames {
                isSpeaking = false
                run = 0
                return .ended
            }
        } else {
            run = p >= configuration.startThreshold && levelDB >= configuration.minimumLevelDB ? run + 1 : 0
            if run >= startFrames {
                isSpeaking = true
                run = 0
                return .started
            }
        }
        return nil
    }
}

/// The call-SDK cookbook rule: "speaking" while any of the last three levels is above -50 dBFS.
///
/// Kept so users can compare: it fires on every keystroke, fan and door.
public struct LevelRuleDetector: Sendable {
    /// Level (dBFS) above which a kept level counts as sound; -50 by default.
    public var threshold: Float
    private var history: MicrophoneLevelHistory
    /// Whether the rule says "speaking" after the last level.
    public private(set) var isSpeaking = false

    /// A rule over the last `count` levels (3 by default) with this threshold (dBFS).
    public init(threshold: Float = MicrophoneLevelHistory.displayFloorDB, count: Int = 3) {
        self.threshold = threshold
        history = MicrophoneLevelHistory(capacity: count)
    }

    /// The display value of the loudest kept level (0…1), reported as this rule's "probability".
    public private(set) var score: Float = 0

    /// Feeds one frame's level; returns an event when the rule's state changes.
    public mutating func process(levelDB: Float) -> SpeechActivityEvent? {
        history.append(levelDB)
        let now = history.anyAbove(threshold)
        score = MicrophoneLevelHistory.displayValue(history.loudest ?? Decibels.floor)
        guard now != isSpeaking else { return nil }
        isSpeaking = now
        return now ? .started : .ended
    }
}

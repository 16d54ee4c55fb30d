/// Raises `tooQuiet` when the user's speech arrives too quietly for the others to hear it well (the
/// input gain is low, or the microphone is far), and `levelOK` when it has come up.
///
/// Speech is judged by its active level: the mean power of the frames of an utterance whose speech
/// probability is at least ``Configuration/speechProbability``, measured at the input's rate. Speech
/// is judged when an utterance ends, once at least ``Configuration/minimumSpeech`` of such frames
/// have gathered (short utterances, such as single words, are judged together), or after
/// ``Configuration/judgeAfter`` of them if an utterance goes on. Below
/// ``Configuration/quietLevel`` raises the warning; at or above ``Configuration/okLevel`` clears it
/// (the gap between them is the hysteresis). Levels alone never raise it: a quiet room is not quiet
/// speech.
///
/// - Complexity: O(1) per frame; nothing is allocated.
public struct QuietSpeechDetector: Sendable {
    /// The detector's thresholds: levels in dBFS, durations in seconds of active speech.
    public struct Configuration: Sendable, Equatable {
        /// Active speech level (dBFS) below which speech is too quiet.
        public var quietLevel: Float = -40
        /// Active speech level (dBFS) at or above which a raised warning clears.
        public var okLevel: Float = -36
        /// Speech probability at or above which a frame of an utterance is active speech.
        public var speechProbability: Float = 0.5
        /// Seconds of active speech an utterance needs to be judged.
        public var minimumSpeech: Double = 0.4
        /// Seconds of active speech after which a long utterance is judged without waiting for its end.
        public var judgeAfter: Double = 3

        /// Settings with the defaults above.
        public init() {}
        /// The default settings.
        public static let `default` = Configuration()
    }

    /// What the detector reports: `tooQuiet` when it raises the warning, `levelOK` when it clears it.
    public enum Event: Sendable, Equatable {
        /// The last utterance's active level, dBFS.
        case tooQuiet(levelDB: Float)
        /// The judged speech's active level, dBFS, at or above `okLevel` again: the warning clears.
        case levelOK(levelDB: Float)
    }

    /// The detector's settings.
    public let configuration: Configuration
    private var power = 0.0
    private var frames = 0
    private var judged = false
    private var dc = DCTracker()
    /// Whether the warning is up.
    public private(set) var isTooQuiet = false

    /// A detector with these settings.
    public init(configuration: Configuration = .default) { self.configuration = configuration }

    /// Feeds one frame: its level at the input's rate, its speech probability, and whether an
    /// utterance is open.
    public mutating func process(level: FrameLevel, probability: Float, speaking: Bool) -> Event? {
        let fps = Double(LevelMeter.framesPerSecond)
        let p = dc.power(of: level)
        if speaking {
            if probability >= configuration.speechProbability {
                power += p
                frames += 1
            }
            guard !judged, frames >= Int(configuration.judgeAfter * fps) else { return nil }
            judged = true
            return judge()
        }
        if judged {
            power = 0
            frames = 0
            judged = false
        }
        guard frames >= Int(configuration.minimumSpeech * fps) else { return nil }
        defer {
            power = 0
            frames = 0
        }
        return judge()
    }

    private mutating func judge() -> Event? {
        let level = Decibels.fromPower(power / Double(max(1, frames)))
        if !isTooQuiet && level < configuration.quietLevel {
            isTooQuiet = true
            return .tooQuiet(levelDB: level)
        }
        if isTooQuiet && level >= configuration.okLevel {
            isTooQuiet = false
            return .levelOK(levelDB: level)
        }
        return nil
    }
}

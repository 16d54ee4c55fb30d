/// "Your typing can be heard.", with the action "Mute": whether to tell an unmuted user that the call
/// hears their keyboard.
///
/// Driven by the analysis' `keyboard_noise` events (``KeyboardNoiseDetector``: a stretch of keystrokes
/// heard while the user is not speaking) and its speech events. Jitsi's noisy-microphone notice fires on
/// laughter and chair noise and again after every unmute; this one:
/// - is active only while the microphone is on in the call, the call grants `sendAudio` and the
///   microphone permission is granted (a muted user's typing reaches nobody);
/// - never appears while the user speaks (a `keyboard_noise` between `speech_started` and
///   `speech_ended` is ignored), and a notice on screen goes away when the user starts speaking or mutes;
/// - appears at most once per ``Configuration/interval`` (2 minutes), counted from the last notice,
///   whatever happened in between: muting and unmuting does not re-arm it;
/// - stays ``Configuration/displayDuration`` seconds.
///
/// Times are the analysis times of the events (seconds); the model reads no clock of its own.
public struct TypingNotice: Sendable, Equatable {
    /// The notice's text.
    public static let text = "Your typing can be heard."
    /// The notice's action: muting the microphone.
    public static let action = "Mute"

    /// How long the notice stays, and how often it may appear (seconds).
    public struct Configuration: Sendable, Equatable {
        /// How long the notice stays (seconds).
        public var displayDuration: Double
        /// Least time from one notice to the next (seconds).
        public var interval: Double

        /// Settings; by default the notice stays 5 s and appears at most once every 120 s.
        public init(displayDuration: Double = 5, interval: Double = 120) {
            self.displayDuration = displayDuration
            self.interval = interval
        }
        /// The default settings.
        public static let `default` = Configuration()
    }

    /// The notice's timing.
    public let configuration: Configuration
    /// Whether the notice may appear: unmuted, allowed to send audio, the microphone permitted.
    public private(set) var isActive = false
    /// Whether an utterance of the user's is in progress.
    public private(set) var isSpeaking = false
    /// When the last notice appeared.
    public private(set) var shownAt: Double?
    /// Whether the notice on screen was taken down early (speech, mute).
    private var hidden = false
    /// How many notices have appeared.
    public private(set) var count = 0

    /// A notice with this timing, inactive until `update`.
    public init(configuration: Configuration = .default) {
        self.configuration = configuration
    }

    /// Updates what the notice depends on: the microphone on in the call, the call granting `sendAudio`, the
    /// microphone permission granted. Muting hides a notice at once; returns whether one was on screen at
    /// `time` and is hidden now.
    @discardableResult
    public mutating func update(audioOn: Bool, maySendAudio: Bool, microphoneGranted: Bool, at time: Double) -> Bool {
        isActive = audioOn && maySendAudio && microphoneGranted
        guard !isActive, isVisible(at: time) else { return false }
        hidden = true
        return true
    }

    /// The analysis heard typing (a `keyboard_noise` event) at `time`. Returns whether the notice
    /// appears now.
    public mutating func keyboardNoise(at time: Double) -> Bool {
        guard isActive, !isSpeaking else { return false }
        if let shownAt, time < shownAt + configuration.interval { return false }
        shownAt = time
        hidden = false
        count += 1
        return true
    }

    /// The user started speaking at `time`: the notice goes away. Returns whether one was on screen.
    @discardableResult
    public mutating func speechStarted(at time: Double) -> Bool {
        isSpeaking = true
        guard isVisible(at: time) else { return false }
        hidden = true
        return true
    }

    /// The user stopped speaking.
    public mutating func speechEnded(at time: Double) {
        isSpeaking = false
    }

    /// Whether "Your typing can be heard." is on screen at `time`.
    public func isVisible(at time: Double) -> Bool {
        guard let shownAt, !hidden else { return false }
        return time >= shownAt && time < shownAt + configuration.displayDuration
    }
}

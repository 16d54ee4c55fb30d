/// When to show "You are muted.": the user started speaking while their microphone is muted.
///
/// The notice appears on a `speech_started` while muted, stays ``Configuration/displayDuration``, and
/// appears at most once per utterance. After it has shown, it stays quiet for
/// ``Configuration/cooldown`` so that a user who keeps talking to the room is not nagged. Times are the
/// analysis times of the events (seconds); the model reads no clock of its own. The mute's ``cause``
/// decides whether it may show at all: never while the user talks by push-to-talk.
public struct MutedSpeechNotice: Sendable, Equatable {
    /// How long the notice stays, and the quiet time before another (seconds).
    public struct Configuration: Sendable, Equatable {
        /// How long the notice stays (seconds).
        public var displayDuration: Double
        /// Quiet time after a notice has gone before another may appear (seconds).
        public var cooldown: Double

        /// Settings; by default the notice stays 2 s and another may follow 5 s after it has gone.
        public init(displayDuration: Double = 2, cooldown: Double = 5) {
            self.displayDuration = displayDuration
            self.cooldown = cooldown
        }
        /// The default settings.
        public static let `default` = Configuration()
    }

    /// The notice's timing.
    public let configuration: Configuration
    /// Whether the user's microphone is muted (in the call, not on the device).
    public var isMuted: Bool {
        didSet { if !isMuted { shownAt = nil } }
    }
    /// Why the user is muted (while ``isMuted``).
    public var cause: MuteCause = .selfMuted {
        didSet { if !cause.allowsNotice { shownAt = nil } }
    }
    /// When the current or last notice appeared.
    public private(set) var shownAt: Double?
    /// How many notices have appeared.
    public private(set) var count = 0

    /// A notice for a user who is muted or not, with this timing; none has shown yet.
    public init(isMuted: Bool, configuration: Configuration = .default) {
        self.isMuted = isMuted
        self.configuration = configuration
    }

    /// The user started speaking at `time`. Returns whether the notice appears now.
    public mutating func speechStarted(at time: Double) -> Bool {
        guard isMuted, cause.allowsNotice else { return false }
        if let shownAt, time < shownAt + configuration.displayDuration + configuration.cooldown { return false }
        shownAt = time
        count += 1
        return true
    }

    /// Whether the notice is on screen at `time`.
    public func isVisible(at time: Double) -> Bool {
        guard isMuted, let shownAt else { return false }
        return time >= shownAt && time < shownAt + configuration.displayDuration
    }
}

/// The lobby's microphone check: the live level, and whether to warn that the microphone does not
/// seem to work.
///
/// The warning is judged only while the microphone is on, and only after a grace period, so it never
/// shows before the first samples arrive or right after the user turns the microphone on. It shows
/// when the device looks dead (exact zeros, a constant or a stuck value: the analyser's
/// `microphone_silent`) or when no audio arrives at all. A quiet room is not a dead microphone: low
/// levels alone never raise it.
///
/// It also keeps the analyser's other warnings (a noisy microphone, clipping, speech too quiet, an
/// output's monitor instead of a microphone): each is up from the event that raises it until the
/// event that clears it, and shown while the microphone is on.
public struct MicrophoneCheck: Sendable, Hashable {
    /// When the warning may show, and how many levels the meter's history keeps.
    public struct Configuration: Sendable, Hashable {
        /// Seconds the microphone must have been on before the warning may show.
        public var gracePeriod: Double
        /// Seconds without any audio after which the microphone counts as not delivering.
        public var stallTimeout: Double
        /// How many recent levels to keep for the meter's history.
        public var historyLength: Int

        /// Settings; by default 3 s of grace, a stall after 1.5 s without audio, 32 levels (at least 1).
        public init(gracePeriod: Double = 3, stallTimeout: Double = 1.5, historyLength: Int = 32) {
            self.gracePeriod = gracePeriod
            self.stallTimeout = stallTimeout
            self.historyLength = max(1, historyLength)
        }
        /// The default settings.
        public static let `default` = Configuration()
    }

    /// The warning shown when the microphone does not seem to work (`not_working`).
    public static let silentWarning =
        "Your microphone doesn't seem to be working. Make sure you have all permissions accepted."

    /// The check's settings.
    public let configuration: Configuration
    /// Whether the microphone is on.
    public private(set) var isOn: Bool
    /// When the microphone was last turned on.
    public private(set) var onSince: Double?
    /// When audio last arrived.
    public private(set) var lastAudioAt: Double?
    /// The device delivers a dead signal (set by `microphone_silent`, cleared by `microphone_active`).
    public private(set) var isDeadSignal = false
    /// The latest level, dBFS (-160 before any audio).
    public private(set) var levelDB: Float = -160
    /// Recent levels, oldest first, dBFS.
    public private(set) var history: [Float] = []
    /// The warnings that are up, by kind.
    public var warnings: [MicrophoneWarning.Kind: MicrophoneWarning] {
        var up: [MicrophoneWarning.Kind: MicrophoneWarning] = [:]
        for w in slots { if let w { up[w.kind] = w } }
        return up
    }
    /// The warnings that are up, one slot a kind in `Kind.allCases` order. Not a dictionary: a kind hashes
    /// its raw string, which would bring Unicode's normalisation tables into the page's WebAssembly.
    private var slots = [MicrophoneWarning?](repeating: nil, count: MicrophoneWarning.Kind.allCases.count)

    /// A check of a microphone that is on or off at `time` (seconds); on, its grace period starts then.
    public init(isOn: Bool, at time: Double, configuration: Configuration = .default) {
        self.configuration = configuration
        self.isOn = isOn
        onSince = isOn ? time : nil
    }

    /// Turns the microphone on or off at `time` (seconds); turning it on starts the grace period again.
    public mutating func setOn(_ on: Bool, at time: Double) {
        guard on != isOn else { return }
        isOn = on
        onSince = on ? time : nil
    }

    /// Audio arrived: one frame's level.
    public mutating func received(levelDB: Float, at time: Double) {
        self.levelDB = levelDB
        lastAudioAt = time
        history.append(levelDB)
        if history.count > configuration.historyLength {
            history.removeFirst(history.count - configuration.historyLength)
        }
    }

    /// The analyser found the signal dead (`true`, `microphone_silent`) or alive again (`false`).
    public mutating func deadSignal(_ dead: Bool, at time: Double) {
        isDeadSignal = dead
        lastAudioAt = time
    }

    /// An event of the analyser: raises or clears a warning (others are ignored).
    public mutating func apply(_ event: AnalysisEvent) {
        if let w = event.raisedWarning { slots[w.kind.slot] = w }
        if let kind = event.clearedWarning { slots[kind.slot] = nil }
    }

    /// The warnings to show now, in a fixed order (none while the microphone is off).
    public var shownWarnings: [MicrophoneWarning] {
        guard isOn else { return [] }
        return slots.compactMap { $0 }
    }

    /// The level for a meter, 0…1 (-50…0 dBFS).
    public var displayLevel: Float { Decibels.displayLevel(levelDB) }

    /// Whether to show ``silentWarning`` at `time`.
    public func showsSilentWarning(at time: Double) -> Bool {
        guard isOn, let onSince, time - onSince >= configuration.gracePeriod else { return false }
        if isDeadSignal { return true }
        guard let lastAudioAt else { return true }
        return time - max(lastAudioAt, onSince) > configuration.stallTimeout
    }
}

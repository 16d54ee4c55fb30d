public import MicCheck

/// The pre-join lobby: who is already in the call, the user's own toggles, the microphone check, and
/// join or close.
public struct LobbyModel: Sendable, Hashable {
    /// Whether the lobby is open, or how it ended.
    public enum Phase: Sendable, Hashable {
        /// The lobby is open.
        case lobby
        /// The user joined, with these settings.
        case joined(CallSettings)
        /// The user closed the lobby without joining.
        case closed
    }

    /// The lobby's heading.
    public static let title = "Before Joining"
    /// The line under the heading.
    public static let subtitle = "Setup your audio and video"
    /// The sentence above the join button.
    public static let aboutToJoin = "You are about to join a call."
    /// The join button's title.
    public static let joinTitle = "Join Call"

    /// The id of the call to join.
    public let callID: String
    /// The user of this app.
    public let localUser: Participant
    /// Everyone already in the call (the local user is not counted even if listed).
    public var participants: [Participant]
    /// The user's toggles; the call starts with them on joining.
    public private(set) var settings: CallSettings
    /// The microphone check: the meter, the silent-microphone warning and the analyser's other warnings.
    public private(set) var microphone: MicrophoneCheck
    /// Microphones that come and go: the offer of a new one, the notice that the one in use went away.
    public private(set) var microphoneChoice: MicrophoneChoice
    /// "Test your microphone": recording, playing back, the verdict.
    public private(set) var microphoneTest = MicrophoneTestFlow()
    /// Open, joined or closed (`lobby` at first).
    public private(set) var phase: Phase = .lobby

    /// A lobby opened at `time` (seconds); the microphone check starts on when `settings.audioOn`.
    public init(
        callID: String, localUser: Participant, participants: [Participant], settings: CallSettings,
        at time: Double, microphoneCheck: MicrophoneCheck.Configuration = .default,
        microphoneChoice: MicrophoneChoice = MicrophoneChoice()
    ) {
        self.callID = callID
        self.localUser = localUser
        self.participants = participants
        self.settings = settings
        microphone = MicrophoneCheck(isOn: settings.audioOn, at: time, configuration: microphoneCheck)
        self.microphoneChoice = microphoneChoice
    }

    /// The others already in the call.
    public var others: [Participant] { participants.filter { !$0.isLocalUser && $0.id != localUser.id } }

    /// "There are N more people in the call." counting the others; nil when nobody is there yet.
    public var participantsMessage: String? { Self.participantsMessage(count: others.count) }

    /// "There are N more people in the call." for `count` others; nil when `count` is 0.
    public static func participantsMessage(count: Int) -> String? {
        switch count {
        case ..<1: nil
        case 1: "There is 1 more person in the call."
        default: "There are \(count) more people in the call."
        }
    }

    /// Turns a toggle over (in the lobby only).
    public mutating func toggle(_ control: CallControl, at time: Double) {
        guard phase == .lobby else { return }
        settings.toggle(control)
        if control == .microphone { microphone.setOn(settings.audioOn, at: time) }
    }

    /// One frame of microphone audio arrived.
    public mutating func microphoneLevel(_ levelDB: Float, at time: Double) {
        microphone.received(levelDB: levelDB, at: time)
    }

    /// The analyser found the microphone's signal dead, or alive again.
    public mutating func microphoneDeadSignal(_ dead: Bool, at time: Double) {
        microphone.deadSignal(dead, at: time)
    }

    /// A warning of the analyser raised or cleared (noisy, clipping, too quiet, wrong source).
    public mutating func microphoneWarning(_ event: AnalysisEvent) {
        microphone.apply(event)
    }

    /// Changes the offer and the notice of ``microphoneChoice`` (in the lobby only); returns `body`'s result.
    @discardableResult
    public mutating func updateMicrophoneChoice<T>(_ body: (inout MicrophoneChoice) -> T) -> T? {
        guard phase == .lobby else { return nil }
        return body(&microphoneChoice)
    }

    /// Changes ``microphoneTest`` (in the lobby only); returns `body`'s result.
    @discardableResult
    public mutating func updateMicrophoneTest<T>(_ body: (inout MicrophoneTestFlow) -> T) -> T? {
        guard phase == .lobby else { return nil }
        return body(&microphoneTest)
    }

    /// Whether to show `MicrophoneCheck.silentWarning` now.
    public func showsSilentWarning(at time: Double) -> Bool {
        phase == .lobby && microphone.showsSilentWarning(at: time)
    }

    /// Joins with the current settings. Returns them, or nil when the lobby is no longer open.
    public mutating func join() -> CallSettings? {
        guard phase == .lobby else { return nil }
        microphoneTest.cancel()
        phase = .joined(settings)
        return settings
    }

    /// Closes the lobby without joining.
    public mutating func close() {
        guard phase == .lobby else { return }
        microphoneTest.cancel()
        phase = .closed
    }
}

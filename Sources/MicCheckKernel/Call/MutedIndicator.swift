/// "You are muted.": whether to tell the user they are speaking into a muted microphone.
///
/// Active only when the microphone is off in the call, the call grants `sendAudio` (a user who may not
/// speak is not "muted"), and the microphone permission is granted (without it nothing is heard). While
/// active, a `speech_started` shows the notice for 2 s, once per utterance, then a cooldown; the user
/// can turn it off for the rest of the call. The timing is `MutedSpeechNotice`'s.
///
/// The mute's cause (`MuteCause`) decides the rest: muted by push-to-talk, no notice; muted by a host,
/// the notice applies even after "don't show again", and ``announcement`` says who muted the user.
public struct MutedIndicator: Sendable, Equatable {
    /// The notice's text.
    public static let text = "You are muted."
    /// The notice's action: unmute, by its key or a click.
    public static let action = "Unmute"

    /// The timing model under the indicator: whether it listens (`isMuted`), when the notice showed.
    public private(set) var notice: MutedSpeechNotice
    /// The user chose "don't show again" for this call.
    public private(set) var isSilencedForCall = false

    /// An indicator with this timing, inactive until `update`.
    public init(configuration: MutedSpeechNotice.Configuration = .default) {
        notice = MutedSpeechNotice(isMuted: false, configuration: configuration)
    }

    /// Whether the indicator listens for speech now.
    public var isActive: Bool { notice.isMuted }

    /// Why the user is muted (``MuteCause/selfMuted`` while unmuted).
    public var cause: MuteCause { notice.cause }

    /// "NAME muted you." while a host's mute holds; nil otherwise.
    public var announcement: String? { isActive ? cause.announcement : nil }

    /// Updates what the indicator depends on. Turning the microphone on hides a notice at once.
    /// - Parameters:
    ///   - audioOn: the microphone is on in the call.
    ///   - maySendAudio: the call grants sending audio (`sendAudio`).
    ///   - microphoneGranted: the microphone permission is granted.
    ///   - cause: why the microphone is off, when it is (nil: unchanged); unmuting resets it.
    public mutating func update(audioOn: Bool, maySendAudio: Bool, microphoneGranted: Bool, cause: MuteCause? = nil) {
        if audioOn {
            notice.cause = .selfMuted
        } else if let cause {
            notice.cause = cause
        }
        let hostMuted = if case .host = notice.cause { true } else { false }
        let active = !audioOn && maySendAudio && microphoneGranted && (!isSilencedForCall || hostMuted)
        if active != notice.isMuted { notice.isMuted = active }
    }

    /// The user started speaking at `time`. Returns whether the notice appears now.
    public mutating func speechStarted(at time: Double) -> Bool {
        notice.speechStarted(at: time)
    }

    /// Whether "You are muted." is on screen at `time`.
    public func isVisible(at time: Double) -> Bool { notice.isVisible(at: time) }

    /// When the notice on screen at `time` goes away, if one is on screen.
    public func hidesAt(after time: Double) -> Double? {
        guard isVisible(at: time), let shown = notice.shownAt else { return nil }
        return shown + notice.configuration.displayDuration
    }

    /// "Don't show again for this call": hides the notice now and for the rest of the call.
    public mutating func silenceForCall() {
        isSilencedForCall = true
        if case .host = notice.cause { return }
        notice.isMuted = false
    }
}

public import MicCheck

/// The call after joining: the participants, the user's own settings, "You are muted.", and leave.
public struct ActiveCall: Sendable, Equatable {
    /// The call's id.
    public let callID: String
    /// What the call grants the local user.
    public let capabilities: Set<OwnCapability>
    /// Everyone in the call, the local user first.
    public private(set) var participants: [Participant]
    /// The user's toggles; what the call does not grant stays off.
    public private(set) var settings: CallSettings
    /// The microphone and camera permissions.
    public private(set) var permissions: Permissions
    /// "You are muted." and "Your typing can be heard.": the kernel's notice rules, which the server's call
    /// channel and the page run too.
    public private(set) var notices: MicrophoneNotices
    /// "You are muted.": shown when the user speaks while the call's microphone is off.
    public var mutedIndicator: MutedIndicator { notices.mutedIndicator }
    /// "Your typing can be heard." while unmuted.
    public var typingNotice: TypingNotice { notices.typingNotice }
    /// The latest time the call was given (the clock of the events and of ``advance(to:)``).
    public private(set) var time = 0.0
    /// The user left the call (`leave()`): the toggles no longer change and no notice shows.
    public private(set) var hasLeft = false
    /// Push-to-talk: the microphone is open only while the user talks (``talk(_:)``); between, muted
    /// with the cause `MuteCause.pushToTalk` and no notice.
    public private(set) var isPushToTalk = false
    /// Microphones that come and go mid-call: a headset plugged in is offered, the one in use gone is said.
    public private(set) var microphoneChoice: MicrophoneChoice

    /// The call as the user joins it: `localUser` first, then `others` (without the local user);
    /// a setting the call does not grant is turned off.
    public init(
        callID: String, localUser: Participant, others: [Participant], settings: CallSettings,
        capabilities: Set<OwnCapability>, permissions: Permissions,
        mutedIndicator: MutedIndicator = MutedIndicator(), microphoneChoice: MicrophoneChoice = MicrophoneChoice()
    ) {
        self.callID = callID
        self.microphoneChoice = microphoneChoice
        self.capabilities = capabilities
        var me = localUser
        me.isLocalUser = true
        participants = [me] + others.filter { $0.id != localUser.id }
        self.permissions = permissions
        notices = MicrophoneNotices(mutedIndicator: mutedIndicator)
        // A capability the call does not grant cannot be on.
        var s = settings
        if !capabilities.contains(.sendAudio) { s.audioOn = false }
        if !capabilities.contains(.sendVideo) { s.videoOn = false }
        self.settings = s
        syncLocalUser()
        updateNotices()
    }

    /// The local user's tile data.
    public var localUser: Participant { participants[0] }

    /// Turns a toggle over. Returns false, and changes nothing, when the call does not grant what
    /// turning it on needs (the microphone without `sendAudio`, the camera without `sendVideo`).
    @discardableResult
    public mutating func toggle(_ control: CallControl) -> Bool {
        guard !hasLeft else { return false }
        if !settings[control] {
            if control == .microphone && !capabilities.contains(.sendAudio) { return false }
            if control == .camera && !capabilities.contains(.sendVideo) { return false }
        }
        settings.toggle(control)
        // The microphone turned off by hand is the user's own mute, and ends push-to-talk.
        if control == .microphone { isPushToTalk = false }
        syncLocalUser()
        updateNotices(cause: .selfMuted)
        return true
    }

    /// Changes the offer and the notice of ``microphoneChoice`` (until the user leaves); returns `body`'s result.
    @discardableResult
    public mutating func updateMicrophoneChoice<T>(_ body: (inout MicrophoneChoice) -> T) -> T? {
        guard !hasLeft else { return nil }
        return body(&microphoneChoice)
    }

    /// A host muted the user: the microphone goes off, `MutedIndicator.announcement` says "NAME muted
    /// you.", and "You are muted." applies even if the user had turned it off. The user may unmute.
    public mutating func mutedByHost(name: String) {
        guard !hasLeft else { return }
        settings.audioOn = false
        isPushToTalk = false
        syncLocalUser()
        updateNotices(cause: .host(name: name))
    }

    /// Turns push-to-talk on (the microphone closes until the user talks) or off (the microphone stays
    /// as it is, muted by the user). Returns false when the call grants no audio.
    @discardableResult
    public mutating func setPushToTalk(_ on: Bool) -> Bool {
        guard !hasLeft, capabilities.contains(.sendAudio) else { return false }
        isPushToTalk = on
        settings.audioOn = false
        syncLocalUser()
        updateNotices(cause: on ? .pushToTalk : .selfMuted)
        return true
    }

    /// In push-to-talk: the key is down (`true`: the microphone opens) or up (`false`: it closes, and no
    /// notice follows). Returns whether anything changed.
    @discardableResult
    public mutating func talk(_ talking: Bool) -> Bool {
        guard !hasLeft, isPushToTalk, settings.audioOn != talking else { return false }
        settings.audioOn = talking
        syncLocalUser()
        updateNotices(cause: .pushToTalk)
        return true
    }

    /// The permissions changed: the local tile and the notices follow.
    public mutating func updatePermissions(_ permissions: Permissions) {
        self.permissions = permissions
        syncLocalUser()
        updateNotices()
    }

    /// The others, as the call reports them now (speaking, levels, video).
    public mutating func updateOthers(_ others: [Participant]) {
        participants = [participants[0]] + others.filter { $0.id != participants[0].id }
    }

    /// The local microphone's level and speech, for the local tile. While muted the tile shows
    /// neither (the call does not hear it); the muted indicator gets speech separately.
    public mutating func localAudio(levelDB: Float, isSpeaking: Bool) {
        let heard = settings.audioOn && permissions.microphone.isGranted
        participants[0].audioLevel = heard ? Participant.displayLevel(decibels: levelDB) : 0
        participants[0].isSpeaking = heard && isSpeaking
    }

    /// The local user started speaking (`speech_started`). Returns whether "You are muted." appears; a
    /// typing notice on screen goes.
    public mutating func localSpeechStarted(at time: Double) -> Bool {
        guard !hasLeft else { return false }
        advance(to: time)
        return notices.speechStarted(at: time).mutedNoticeShown
    }

    /// The local user stopped speaking (`speech_ended`).
    public mutating func localSpeechEnded(at time: Double) {
        advance(to: time)
        notices.speechEnded(at: time)
    }

    /// The analysis heard typing (`keyboard_noise`). Returns whether "Your typing can be heard." appears.
    public mutating func keyboardNoise(at time: Double) -> Bool {
        guard !hasLeft else { return false }
        advance(to: time)
        return notices.keyboardNoise(at: time)
    }

    /// "Your typing can be heard." is on screen at `time`.
    public func showsTypingNotice(at time: Double) -> Bool { !hasLeft && typingNotice.isVisible(at: time) }

    /// Moves the call's clock on.
    public mutating func advance(to time: Double) { self.time = max(self.time, time) }

    /// "Don't show again for this call."
    public mutating func silenceMutedNotice() { notices.silenceMutedNotice() }

    /// "You are muted." is on screen at `time`.
    public func showsMutedNotice(at time: Double) -> Bool { !hasLeft && mutedIndicator.isVisible(at: time) }

    /// A tile per participant, the local user first.
    public var tiles: [ParticipantTile] {
        participants.map { ParticipantTile(participant: $0, participantCount: participants.count) }
    }

    /// Leaves the call.
    public mutating func leave() { hasLeft = true }

    /// The notices follow the microphone: `cause`, why it is off (nil: unchanged). Muting hides the typing notice.
    private mutating func updateNotices(cause: MuteCause? = nil) {
        notices.update(
            audioOn: settings.audioOn, maySendAudio: capabilities.contains(.sendAudio),
            microphoneGranted: permissions.microphone.isGranted, cause: cause, at: time)
    }

    private mutating func syncLocalUser() {
        // The local user's own video is the camera: shown when on and granted (paused otherwise).
        participants[0].hasVideo = settings.videoOn && permissions.camera.isGranted
        if !settings.audioOn {
            participants[0].isSpeaking = false
            participants[0].audioLevel = 0
        }
    }
}

/// The call's notices about the local microphone, written once: "You are muted." (``MutedIndicator``) and
/// "Your typing can be heard." (``TypingNotice``), and how the microphone's state and the user's speech move
/// them. The terminal's call (MicCheckCall's `ActiveCall`), the server's call channel and the page's
/// WebAssembly (through ``MicrophoneRules``) all run this one value.
public struct MicrophoneNotices: Sendable, Equatable {
    /// "You are muted.": whether it listens for speech, and when it shows.
    public private(set) var mutedIndicator: MutedIndicator
    /// "Your typing can be heard.": whether it may appear, and when it shows.
    public private(set) var typingNotice: TypingNotice

    /// Notices from these two models; by default fresh ones, inactive until `update`.
    public init(mutedIndicator: MutedIndicator = MutedIndicator(), typingNotice: TypingNotice = TypingNotice()) {
        self.mutedIndicator = mutedIndicator
        self.typingNotice = typingNotice
    }

    /// What the notices show after a change of the microphone, the call's grant or the permission.
    public struct Change: Sendable, Equatable {
        /// "You are muted." goes, if it is on screen: the microphone came on while the indicator listened.
        public var mutedNoticeHidden = false
        /// A typing notice on screen went (the user muted).
        public var typingNoticeHidden = false
    }

    /// The microphone's state changed (the toggle, the grant, the permission); `cause`: why it is off, when
    /// it is (nil: unchanged). Unmuting hides "You are muted."; muting hides the typing notice.
    @discardableResult
    public mutating func update(
        audioOn: Bool, maySendAudio: Bool, microphoneGranted: Bool, cause: MuteCause? = nil, at time: Double
    ) -> Change {
        let wasActive = mutedIndicator.isActive
        mutedIndicator.update(
            audioOn: audioOn, maySendAudio: maySendAudio, microphoneGranted: microphoneGranted, cause: cause)
        let typingHidden = typingNotice.update(
            audioOn: audioOn, maySendAudio: maySendAudio, microphoneGranted: microphoneGranted, at: time)
        return Change(mutedNoticeHidden: wasActive && audioOn, typingNoticeHidden: typingHidden)
    }

    /// What a start of speech shows and hides.
    public struct SpeechStart: Sendable, Equatable {
        /// "You are muted." appears.
        public var mutedNoticeShown = false
        /// A typing notice on screen went.
        public var typingNoticeHidden = false
    }

    /// The user started speaking (`speech_started`).
    public mutating func speechStarted(at time: Double) -> SpeechStart {
        let hidden = typingNotice.speechStarted(at: time)
        return SpeechStart(mutedNoticeShown: mutedIndicator.speechStarted(at: time), typingNoticeHidden: hidden)
    }

    /// The user stopped speaking (`speech_ended`).
    public mutating func speechEnded(at time: Double) { typingNotice.speechEnded(at: time) }

    /// The analysis heard typing (`keyboard_noise`). Returns whether "Your typing can be heard." appears.
    public mutating func keyboardNoise(at time: Double) -> Bool { typingNotice.keyboardNoise(at: time) }

    /// "Don't show again for this call."
    public mutating func silenceMutedNotice() { mutedIndicator.silenceForCall() }
}

/// The microphone side of one participant of a call, as a pure state machine: the analysis' records and
/// the microphone's toggles in, what to show and tell out. It holds the microphone check (the meter, "not
/// working", the warnings), the notices (``MicrophoneNotices``) and whether the participant speaks.
///
/// The server's call channel runs it on the audio a page sends, and the page runs it in its WebAssembly on
/// its own microphone; the terminal's call session routes events through ``effect(of:)``, the same table.
///
/// Where the participant is matters: in the lobby nothing of the call is shown, so a typing notice is not
/// spent there (it may appear once every two minutes); the microphone check and its warnings hold in both.
public struct MicrophoneRules: Sendable {
    /// Where the participant is.
    public enum Place: Sendable, Equatable {
        /// The lobby, before the call: no typing notice is spent here.
        case lobby
        /// In the call: a typing notice may show.
        case call
    }

    /// What the owner must show or tell, in the order it happened.
    public enum Action: Sendable, Equatable {
        /// The participant started or stopped speaking (presence: the speaking ring).
        case speaking(Bool)
        /// "You are muted." appears, or goes.
        case mutedNotice(show: Bool)
        /// "Your typing can be heard." appears, or goes.
        case typingNotice(show: Bool)
        /// Ten frames (100 ms) of audio have passed: the meter and the check's state are due.
        case report
    }

    /// What an analysis event means to the call's microphone.
    public enum Effect: Sendable, Equatable {
        /// The microphone delivers digital silence, or sound again (`microphone_silent`, `microphone_active`).
        case deadSignal(Bool)
        /// A warning was raised or cleared (noisy, clipping, too quiet, wrong source).
        case warning
        /// Speech started (`speech_started`), at `time` in seconds of the analysis.
        case speechStarted(time: Double)
        /// Speech ended (`speech_ended`), at `time` in seconds of the analysis.
        case speechEnded(time: Double)
        /// Typing was heard (`keyboard_noise`), at `time` in seconds of the analysis.
        case keyboardNoise(time: Double)
    }

    /// The one routing table from analysis events to the microphone's models.
    public static func effect(of event: AnalysisEvent) -> Effect? {
        switch event {
        case .microphoneSilent: .deadSignal(true)
        case .microphoneActive: .deadSignal(false)
        case .speechStarted(let t, _): .speechStarted(time: t)
        case .speechEnded(let t): .speechEnded(time: t)
        case .keyboardNoise(let t, _): .keyboardNoise(time: t)
        default: event.raisedWarning != nil || event.clearedWarning != nil ? .warning : nil
        }
    }

    /// Seconds without audio after which a participant is no longer speaking. A page sends a block every
    /// 20 ms while it captures; one that stops mid-utterance (a frozen browser, a closed lid, a lost
    /// network) would otherwise stay "speaking" until its connection times out.
    public static let speechStallTimeout = 1.0

    /// The microphone check: the meter, "not working" and the warnings.
    public private(set) var check: MicrophoneCheck
    /// The call's notices: "You are muted." and the typing notice.
    public private(set) var notices: MicrophoneNotices
    /// Whether the participant speaks now (whatever the microphone's toggle: presence publishes it only
    /// while the microphone is on).
    public private(set) var isSpeaking = false
    /// Where the participant is: the lobby or the call.
    public private(set) var place: Place
    private var maySendAudio: Bool
    private var microphoneGranted: Bool
    /// Speaking was ended because the audio stopped mid-utterance; the analysis still counts the utterance
    /// as going on, so the next frame says whether it does.
    private var speechStalled = false
    private var framesSinceReport = 0
    /// The time of the analysis (the end of the last frame's record), for the notices' clocks.
    private var analysisTime = 0.0

    /// - Parameters:
    ///   - audioOn: the microphone's toggle.
    ///   - maySendAudio: the call grants sending audio.
    ///   - now: seconds on the owner's clock (the check's grace and stall times).
    public init(
        audioOn: Bool, maySendAudio: Bool = true, microphoneGranted: Bool = true, place: Place = .lobby,
        now: Double, check configuration: MicrophoneCheck.Configuration = .default
    ) {
        self.maySendAudio = maySendAudio
        self.microphoneGranted = microphoneGranted
        self.place = place
        check = MicrophoneCheck(isOn: audioOn, at: now, configuration: configuration)
        notices = MicrophoneNotices()
        notices.update(
            audioOn: audioOn, maySendAudio: maySendAudio, microphoneGranted: microphoneGranted, at: analysisTime)
    }

    /// The participant joined the call, or went back to the lobby.
    public mutating func enter(_ place: Place) { self.place = place }

    /// One record of the analysis of the participant's microphone; `now` on the owner's clock.
    public mutating func record(_ record: AnalysisOutput, now: Double, act: (Action) -> Void) {
        switch record {
        case .frame(let f):
            analysisTime = f.time + 1 / Double(LevelMeter.framesPerSecond)
            if speechStalled {
                // The audio is back: speaking again if the utterance goes on.
                speechStalled = false
                if f.isSpeaking != isSpeaking {
                    isSpeaking = f.isSpeaking
                    act(.speaking(isSpeaking))
                }
            }
            check.received(levelDB: f.levelDB, at: now)
            framesSinceReport += 1
            if framesSinceReport >= 10 {
                framesSinceReport = 0
                act(.report)
            }
        case .event(let e):
            check.apply(e)
            switch Self.effect(of: e) {
            case .speechStarted(let t):
                speechStalled = false
                if !isSpeaking {
                    isSpeaking = true
                    act(.speaking(true))
                }
                let start = notices.speechStarted(at: t)
                if start.mutedNoticeShown { act(.mutedNotice(show: true)) }
                if start.typingNoticeHidden { act(.typingNotice(show: false)) }
            case .speechEnded(let t):
                speechStalled = false
                if isSpeaking {
                    isSpeaking = false
                    act(.speaking(false))
                }
                notices.speechEnded(at: t)
            case .keyboardNoise(let t):
                // In the lobby nothing shows it: a notice there would only use up the next two minutes'.
                if place == .call, notices.keyboardNoise(at: t) { act(.typingNotice(show: true)) }
            case .deadSignal(let dead):
                check.deadSignal(dead, at: now)
            case .warning, nil:
                break
            }
        }
    }

    /// The microphone's toggle, the call's grant or the permission changed; `cause`: why the microphone is
    /// off, when it is (nil: unchanged).
    public mutating func setMicrophone(
        on: Bool, maySendAudio: Bool? = nil, microphoneGranted: Bool? = nil, cause: MuteCause? = nil, now: Double,
        act: (Action) -> Void
    ) {
        if let maySendAudio { self.maySendAudio = maySendAudio }
        if let microphoneGranted { self.microphoneGranted = microphoneGranted }
        check.setOn(on, at: now)
        let change = notices.update(
            audioOn: on, maySendAudio: self.maySendAudio, microphoneGranted: self.microphoneGranted, cause: cause,
            at: analysisTime)
        if change.mutedNoticeHidden { act(.mutedNotice(show: false)) }
        if change.typingNoticeHidden { act(.typingNotice(show: false)) }
    }

    /// "Don't show again for this call."
    public mutating func silenceMutedNotice() { notices.silenceMutedNotice() }

    /// The owner's clock moved without audio: a participant whose audio stopped mid-utterance stops speaking.
    public mutating func tick(now: Double, act: (Action) -> Void) {
        guard isSpeaking, let last = check.lastAudioAt, now - last >= Self.speechStallTimeout else { return }
        isSpeaking = false
        speechStalled = true
        act(.speaking(false))
    }

    /// The meter's report was sent (on a toggle or a tick): the next is due ten frames later.
    public mutating func reported() { framesSinceReport = 0 }
}

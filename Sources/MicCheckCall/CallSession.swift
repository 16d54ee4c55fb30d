public import MicCheck

/// The lobby and then the call, driven by the user's actions, the microphone and time: what a UI shows at each
/// moment, with no terminal in it. Every transition takes the time from the caller's clock.
public struct CallSession: Sendable {
    /// Where the session is: the lobby, the call, or over.
    public enum Phase: Sendable {
        /// The lobby is open, before joining.
        case lobby(LobbyModel)
        /// The user joined: the call.
        case inCall(ActiveCall)
        /// Closed from the lobby, or left the call.
        case finished(joined: Bool)
    }

    /// The call as its description gives it: its id, what it grants, its participants and their script.
    public let call: CallDescription
    /// The user of this app.
    public let localUser: Participant
    /// The lobby, the call, or finished (the lobby at first).
    public private(set) var phase: Phase
    /// The microphone and camera permissions now.
    public private(set) var permissions: Permissions
    /// The permission prompt kinds the user dismissed in this call, before this session or during it.
    public private(set) var dismissed: Set<PermissionPrompt.Kind>
    /// The user chose "Open Settings" on the prompt: show the steps that grant access (until a dismissal).
    public private(set) var showsSettingsSteps = false
    /// What the microphone in use is, as the screens name it ("Built-in Audio (alsa_input…)").
    public var microphoneName: String
    /// The last time given to the session.
    public private(set) var time: Double
    private var lastPrompt: PermissionPrompt.Kind?
    private var noticeVisible = false
    private var typingVisible = false
    /// In push-to-talk, a talk press's open microphone: since when, and whether speech has started in it.
    private var talkOpened: (since: Double, heard: Bool)?

    /// After a talk press, how long the microphone waits for speech to start before it closes again
    /// (seconds); once speech has started, it closes when the utterance ends.
    public static let talkWindow = 4.0

    /// A session that opens in the lobby at `time` (seconds).
    /// - Parameters:
    ///   - dismissed: the prompt kinds the user dismissed earlier in this call.
    ///   - settings: the lobby's toggles at the start (default: microphone and speaker on, camera on when granted).
    public init(
        call: CallDescription, localUser: Participant, permissions: Permissions,
        dismissed: Set<PermissionPrompt.Kind> = [], microphoneName: String, settings: CallSettings? = nil,
        at time: Double
    ) {
        self.call = call
        self.localUser = localUser
        self.permissions = permissions
        self.dismissed = dismissed
        self.microphoneName = microphoneName
        self.time = time
        // By default the microphone starts on, and the camera when it can be used.
        let start = settings ?? CallSettings(audioOn: true, videoOn: permissions.camera.isGranted, speakerOn: true)
        phase = .lobby(
            LobbyModel(
                callID: call.id, localUser: localUser, participants: call.participants(at: time),
                settings: start, at: time))
    }

    /// The lobby was closed, or the call left.
    public var isFinished: Bool { if case .finished = phase { true } else { false } }

    /// The prompt to show now, if any.
    public var prompt: PermissionPrompt? {
        guard !isFinished else { return nil }
        return PermissionPrompt(capabilities: call.capabilities, permissions: permissions, dismissed: dismissed)
    }

    /// Handles an action. Returns what happened.
    public mutating func handle(_ action: CallAction, at time: Double) -> [SessionEvent] {
        var events = advance(to: time)
        let promptKind = prompt?.kind
        switch (phase, action) {
        case (.lobby(var lobby), .toggle(let control)):
            lobby.toggle(control, at: time)
            events.append(.toggled(control, on: lobby.settings[control]))
            phase = .lobby(lobby)
        case (.lobby(var lobby), .close):
            let testing = lobby.microphoneTest.isBusy
            lobby.close()
            phase = .finished(joined: false)
            if testing { events.append(.microphoneTestCancelled) }
            events.append(.closed)
        case (.lobby(var lobby), .join):
            let testing = lobby.microphoneTest.isBusy
            if let settings = lobby.join() {
                if testing { events.append(.microphoneTestCancelled) }
                // An offer or a notice on screen goes on into the call.
                var active = ActiveCall(
                    callID: call.id, localUser: localUser, others: lobby.others, settings: settings,
                    capabilities: call.capabilities, permissions: permissions, microphoneChoice: lobby.microphoneChoice)
                active.updateOthers(call.participants(at: time))
                phase = .inCall(active)
                events.append(.joined(active.settings))
            }
        case (.inCall(var active), .toggle(let control)):
            if control == .microphone { talkOpened = nil }
            if active.toggle(control) {
                events.append(.toggled(control, on: active.settings[control]))
            } else {
                events.append(.toggleRefused(control))
            }
            phase = .inCall(active)
        case (.inCall(var active), .silenceMutedNotice):
            guard active.mutedIndicator.isActive else { break }
            active.silenceMutedNotice()
            phase = .inCall(active)
            events.append(.mutedNoticeSilenced)
        case (.inCall(var active), .close):
            active.leave()
            phase = .finished(joined: true)
            events.append(.left)
        case (.lobby, .openSettings), (.inCall, .openSettings):
            if promptKind != nil, !showsSettingsSteps {
                showsSettingsSteps = true
                events.append(.settingsStepsShown)
            }
        case (.lobby, .dismissPrompt), (.inCall, .dismissPrompt):
            if let promptKind {
                dismissed.insert(promptKind)
                showsSettingsSteps = false
                events.append(.promptDismissed(promptKind))
            }
        case (_, .switchMicrophone):
            if let device = updateChoice({ $0.accept() }) ?? nil { events.append(.microphoneSwitchRequested(device)) }
        case (_, .ignoreMicrophoneOffer):
            if let device = updateChoice({ $0.ignore() }) ?? nil { events.append(.microphoneOfferIgnored(device)) }
        case (.lobby(var lobby), .testMicrophone):
            if !lobby.settings.audioOn || !permissions.microphone.isGranted {
                events.append(.microphoneTestRefused)
            } else if lobby.updateMicrophoneTest({ $0.start(at: time, seconds: microphoneTestSeconds) }) == true {
                events.append(.microphoneTestStarted(seconds: microphoneTestSeconds))
            }
            phase = .lobby(lobby)
        case (.inCall(var active), .pushToTalk):
            if active.setPushToTalk(!active.isPushToTalk) {
                talkOpened = nil
                events.append(.pushToTalkChanged(on: active.isPushToTalk))
            } else {
                events.append(.toggleRefused(.microphone))
            }
            phase = .inCall(active)
        case (.inCall(var active), .talk):
            guard active.isPushToTalk else { break }
            if talkOpened == nil, active.talk(true) { events.append(.talking(true)) }
            talkOpened = (time, talkOpened?.heard ?? false)
            phase = .inCall(active)
        case (.lobby, .silenceMutedNotice), (.inCall, .join), (.inCall, .testMicrophone), (.lobby, .pushToTalk),
            (.lobby, .talk), (.finished, _):
            break
        }
        return events + advance(to: time)
    }

    /// How long the lobby's microphone test records (seconds).
    public var microphoneTestSeconds: Double { MicrophoneTest.Configuration.default.seconds }

    /// The microphone test's recording was judged: with the speaker on, the app plays it back now.
    public mutating func microphoneTestRecorded(_ verdict: MicrophoneTestVerdict, at time: Double) -> [SessionEvent] {
        var events = advance(to: time)
        guard case .lobby(var lobby) = phase, case .recording = lobby.microphoneTest.step else { return events }
        let playsBack = lobby.settings.speakerOn && verdict.recordedSeconds > 0
        lobby.updateMicrophoneTest { $0.recorded(verdict, playsBack: playsBack) }
        phase = .lobby(lobby)
        events.append(.microphoneTestRecorded(verdict, playsBack: playsBack))
        return events
    }

    /// The microphone test's playback is over.
    public mutating func microphoneTestPlayedBack(at time: Double) -> [SessionEvent] {
        var events = advance(to: time)
        guard case .lobby(var lobby) = phase, case .playingBack = lobby.microphoneTest.step else { return events }
        lobby.updateMicrophoneTest { $0.playedBack() }
        phase = .lobby(lobby)
        events.append(.microphoneTestPlayedBack)
        return events
    }

    /// A host muted the user in the call.
    public mutating func mutedByHost(name: String, at time: Double) -> [SessionEvent] {
        var events = advance(to: time)
        guard case .inCall(var active) = phase else { return events }
        talkOpened = nil
        active.mutedByHost(name: name)
        phase = .inCall(active)
        events.append(.mutedByHost(name))
        return events + advance(to: time)
    }

    /// One frame of the local microphone: its level and whether it is speech.
    public mutating func microphoneFrame(levelDB: Float, isSpeech: Bool, at time: Double) {
        switch phase {
        case .lobby(var lobby):
            lobby.microphoneLevel(levelDB, at: time)
            phase = .lobby(lobby)
        case .inCall(var active):
            active.localAudio(levelDB: levelDB, isSpeaking: isSpeech)
            phase = .inCall(active)
        case .finished:
            break
        }
    }

    /// An event of the local microphone's analysis, received at `time`.
    public mutating func microphoneEvent(_ event: AnalysisEvent, at time: Double) -> [SessionEvent] {
        var events = advance(to: time)
        // The kernel's routing (MicrophoneRules, which the server and the page run whole).
        switch (phase, MicrophoneRules.effect(of: event)) {
        case (.lobby(var lobby), .deadSignal(let dead)):
            lobby.microphoneDeadSignal(dead, at: time)
            phase = .lobby(lobby)
        case (.lobby(var lobby), .warning):
            lobby.microphoneWarning(event)
            phase = .lobby(lobby)
            if let w = event.raisedWarning { events.append(.microphoneWarningShown(w.kind)) }
            if let kind = event.clearedWarning { events.append(.microphoneWarningCleared(kind)) }
        case (.inCall(var active), .speechStarted):
            if let open = talkOpened { talkOpened = (open.since, true) }
            let shown = active.localSpeechStarted(at: time)
            phase = .inCall(active)
            if shown { events += advance(to: time) }
        case (.inCall(var active), .speechEnded):
            active.localSpeechEnded(at: time)
            // A talk press lasts one utterance.
            if talkOpened?.heard == true {
                talkOpened = nil
                if active.talk(false) { events.append(.talking(false)) }
            }
            phase = .inCall(active)
        case (.inCall(var active), .keyboardNoise):
            let shown = active.keyboardNoise(at: time)
            phase = .inCall(active)
            if shown { events += advance(to: time) }
        default:
            break
        }
        return events
    }

    /// The microphone permission changed (the input opened, or was refused).
    public mutating func setMicrophonePermission(_ permission: Permission, at time: Double) {
        permissions.microphone = permission
        if case .inCall(var active) = phase {
            active.updatePermissions(permissions)
            phase = .inCall(active)
        }
        _ = advance(to: time)
    }

    /// Moves time on: the call's participants follow their script; notices and prompts come and go.
    public mutating func advance(to time: Double) -> [SessionEvent] {
        self.time = max(self.time, time)
        var events: [SessionEvent] = []
        switch phase {
        case .lobby(var lobby):
            lobby.participants = call.participants(at: self.time)
            for gone in lobby.updateMicrophoneChoice({ $0.advance(to: self.time) }) ?? [] {
                if case .offer(let device) = gone { events.append(.microphoneOfferExpired(device)) }
            }
            phase = .lobby(lobby)
        case .inCall(var active):
            active.advance(to: self.time)
            active.updateOthers(call.participants(at: self.time))
            for gone in active.updateMicrophoneChoice({ $0.advance(to: self.time) }) ?? [] {
                if case .offer(let device) = gone { events.append(.microphoneOfferExpired(device)) }
            }
            if let open = talkOpened, !open.heard, self.time - open.since >= Self.talkWindow {
                talkOpened = nil
                if active.talk(false) { events.append(.talking(false)) }
            }
            phase = .inCall(active)
        case .finished:
            break
        }
        let visible = showsMutedNotice
        if visible != noticeVisible {
            noticeVisible = visible
            events.append(visible ? .mutedNoticeShown : .mutedNoticeHidden)
        }
        let typing = showsTypingNotice
        if typing != typingVisible {
            typingVisible = typing
            events.append(typing ? .typingNoticeShown : .typingNoticeHidden)
        }
        let kind = prompt?.kind
        if kind != lastPrompt {
            lastPrompt = kind
            if let kind { events.append(.promptShown(kind)) }
        }
        return events
    }

    /// "You are muted." is on screen now.
    public var showsMutedNotice: Bool {
        if case .inCall(let active) = phase { return active.showsMutedNotice(at: time) }
        return false
    }

    /// "Your typing can be heard." is on screen now.
    public var showsTypingNotice: Bool {
        if case .inCall(let active) = phase { return active.showsTypingNotice(at: time) }
        return false
    }
}

// MARK: Microphones that come and go

extension CallSession {
    /// The microphone in use, as the session starts (no event).
    public mutating func setMicrophoneInUse(_ device: MicrophoneDevice) {
        microphoneName = device.label
        updateChoice { $0.switched(to: device) }
    }

    /// A microphone appeared on the system: offered in the lobby or the call unless it is the one in use.
    public mutating func microphoneAppeared(_ device: MicrophoneDevice, at time: Double) -> [SessionEvent] {
        var events = advance(to: time)
        if updateChoice({ $0.appeared(device, at: time) }) == true {
            events.append(.microphoneOffered(device))
        }
        return events
    }

    /// A microphone went away (not the one in use: see ``microphoneFellBack(lost:to:at:)``).
    public mutating func microphoneRemoved(_ device: MicrophoneDevice, at time: Double) -> [SessionEvent] {
        var events = advance(to: time)
        if updateChoice({ $0.removed(id: device.id) }) == true {
            events.append(.microphoneOfferWithdrawn(device))
        }
        return events
    }

    /// The switch the user asked for took effect: `device` is in use.
    public mutating func microphoneSwitched(to device: MicrophoneDevice, at time: Double) -> [SessionEvent] {
        microphoneName = device.label
        updateChoice { $0.switched(to: device) }
        return advance(to: time) + [.microphoneSwitched(device)]
    }

    /// The microphone in use went away and `fallback`, the system's default, took its place: the lobby
    /// says so ("The microphone LOST was disconnected: using FALLBACK.").
    public mutating func microphoneFellBack(
        lost: MicrophoneDevice, to fallback: MicrophoneDevice, at time: Double
    ) -> [SessionEvent] {
        microphoneName = fallback.label
        updateChoice { $0.fellBack(lost: lost, to: fallback, at: time) }
        return advance(to: time) + [.microphoneDisconnected(lost: lost, fallback: fallback)]
    }

    /// Changes the microphones' offer and notice, in the lobby or the call; nil once finished.
    @discardableResult
    private mutating func updateChoice<T>(_ body: (inout MicrophoneChoice) -> T) -> T? {
        switch phase {
        case .lobby(var lobby):
            defer { phase = .lobby(lobby) }
            return lobby.updateMicrophoneChoice(body)
        case .inCall(var active):
            defer { phase = .inCall(active) }
            return active.updateMicrophoneChoice(body)
        case .finished:
            return nil
        }
    }
}

public import MicCheck
public import MicCheckCall

/// A key the user pressed.
public enum TerminalKey: Sendable, Hashable {
    case character(Character)
    case enter
    case escape
}

/// Something that happened in a session, for the app to act on (persist a dismissal) or log.
public enum SessionEvent: Sendable, Hashable {
    case toggled(CallControl, on: Bool)
    /// The call does not allow turning this on.
    case toggleRefused(CallControl)
    case joined(CallSettings)
    case closed
    case left
    case mutedNoticeShown
    case mutedNoticeHidden
    case mutedNoticeSilenced
    case promptShown(PermissionPrompt.Kind)
    case promptDismissed(PermissionPrompt.Kind)
    case settingsStepsShown
    /// A microphone warning (noisy, clipping, too quiet, wrong source) appeared in the lobby's check, or went.
    case microphoneWarningShown(MicrophoneWarning.Kind)
    case microphoneWarningCleared(MicrophoneWarning.Kind)

    /// The event's name in the JSON Lines log.
    public var name: String {
        switch self {
        case .toggled: "toggled"
        case .toggleRefused: "toggle_refused"
        case .joined: "joined"
        case .closed: "closed"
        case .left: "left"
        case .mutedNoticeShown: "muted_notice_shown"
        case .mutedNoticeHidden: "muted_notice_hidden"
        case .mutedNoticeSilenced: "muted_notice_silenced"
        case .promptShown: "permission_prompt_shown"
        case .promptDismissed: "permission_prompt_dismissed"
        case .settingsStepsShown: "settings_steps_shown"
        case .microphoneWarningShown: "microphone_warning_shown"
        case .microphoneWarningCleared: "microphone_warning_cleared"
        }
    }
}

/// The lobby and then the call, driven by keys, the microphone and time: what a UI shows at each
/// moment, with no terminal in it. Every transition takes the time from the caller's clock.
public struct CallSession: Sendable {
    public enum Phase: Sendable {
        case lobby(LobbyModel)
        case inCall(ActiveCall)
        /// Closed from the lobby, or left the call.
        case finished(joined: Bool)
    }

    public let call: CallDescription
    public let localUser: Participant
    public private(set) var phase: Phase
    public private(set) var permissions: Permissions
    public private(set) var dismissed: Set<PermissionPrompt.Kind>
    public private(set) var showsSettingsSteps = false
    public var microphoneName: String
    /// The last time given to the session.
    public private(set) var time: Double
    private var lastPrompt: PermissionPrompt.Kind?
    private var noticeVisible = false

    public init(call: CallDescription, localUser: Participant, permissions: Permissions,
                dismissed: Set<PermissionPrompt.Kind> = [], microphoneName: String, settings: CallSettings? = nil,
                at time: Double) {
        self.call = call
        self.localUser = localUser
        self.permissions = permissions
        self.dismissed = dismissed
        self.microphoneName = microphoneName
        self.time = time
        // By default the microphone starts on, and the camera when it can be used.
        let start = settings ?? CallSettings(audioOn: true, videoOn: permissions.camera.isGranted, speakerOn: true)
        phase = .lobby(LobbyModel(callID: call.id, localUser: localUser, participants: call.participants(at: time),
                                  settings: start, at: time))
    }

    public var isFinished: Bool { if case .finished = phase { true } else { false } }

    /// The prompt to show now, if any.
    public var prompt: PermissionPrompt? {
        guard !isFinished else { return nil }
        return PermissionPrompt(capabilities: call.capabilities, permissions: permissions, dismissed: dismissed)
    }

    /// Handles a key. Returns what happened.
    public mutating func handle(_ key: TerminalKey, at time: Double) -> [SessionEvent] {
        var events = advance(to: time)
        let promptKind = prompt?.kind
        switch (phase, key) {
        case (.lobby(var lobby), .character(let c)):
            if let toggle = CallKeys.toggles.first(where: { $0.key == c }) {
                lobby.toggle(toggle.control, at: time)
                events.append(.toggled(toggle.control, on: lobby.settings[toggle.control]))
                phase = .lobby(lobby)
            } else if c == "q" {
                lobby.close()
                phase = .finished(joined: false)
                events.append(.closed)
            } else {
                events += promptKey(c, kind: promptKind)
            }
        case (.lobby(var lobby), .enter):
            if let settings = lobby.join() {
                var active = ActiveCall(callID: call.id, localUser: localUser, others: lobby.others, settings: settings,
                                        capabilities: call.capabilities, permissions: permissions)
                active.updateOthers(call.participants(at: time))
                phase = .inCall(active)
                events.append(.joined(active.settings))
            }
        case (.lobby, .escape):
            phase = .finished(joined: false)
            events.append(.closed)
        case (.inCall(var active), .character(let c)):
            if let toggle = CallKeys.toggles.first(where: { $0.key == c }) {
                if active.toggle(toggle.control) {
                    events.append(.toggled(toggle.control, on: active.settings[toggle.control]))
                } else {
                    events.append(.toggleRefused(toggle.control))
                }
                phase = .inCall(active)
            } else if c == CallKeys.silenceMutedNotice, active.mutedIndicator.isActive {
                active.silenceMutedNotice()
                phase = .inCall(active)
                events.append(.mutedNoticeSilenced)
            } else if c == "q" {
                active.leave()
                phase = .finished(joined: true)
                events.append(.left)
            } else {
                events += promptKey(c, kind: promptKind)
            }
        case (.inCall(var active), .escape):
            active.leave()
            phase = .finished(joined: true)
            events.append(.left)
        case (.inCall, .enter), (.finished, _):
            break
        }
        return events + advance(to: time)
    }

    private mutating func promptKey(_ c: Character, kind: PermissionPrompt.Kind?) -> [SessionEvent] {
        guard let kind else { return [] }
        if c == CallKeys.openSettings, !showsSettingsSteps {
            showsSettingsSteps = true
            return [.settingsStepsShown]
        }
        if c == CallKeys.dismiss {
            dismissed.insert(kind)
            showsSettingsSteps = false
            return [.promptDismissed(kind)]
        }
        return []
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
        switch (phase, event) {
        case (.lobby(var lobby), .microphoneSilent):
            lobby.microphoneDeadSignal(true, at: time)
            phase = .lobby(lobby)
        case (.lobby(var lobby), .microphoneActive):
            lobby.microphoneDeadSignal(false, at: time)
            phase = .lobby(lobby)
        case (.lobby(var lobby), _) where event.raisedWarning != nil || event.clearedWarning != nil:
            lobby.microphoneWarning(event)
            phase = .lobby(lobby)
            if let w = event.raisedWarning { events.append(.microphoneWarningShown(w.kind)) }
            if let kind = event.clearedWarning { events.append(.microphoneWarningCleared(kind)) }
        case (.inCall(var active), .speechStarted):
            let shown = active.localSpeechStarted(at: time)
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
            phase = .lobby(lobby)
        case .inCall(var active):
            active.updateOthers(call.participants(at: self.time))
            phase = .inCall(active)
        case .finished:
            break
        }
        let visible = showsMutedNotice
        if visible != noticeVisible {
            noticeVisible = visible
            events.append(visible ? .mutedNoticeShown : .mutedNoticeHidden)
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

    /// The screen for now, built by `factory`.
    public func view(factory: any CallViewFactory) -> any TerminalView {
        switch phase {
        case .lobby(let lobby):
            factory.lobby(LobbyScreen(lobby: lobby, capabilities: call.capabilities, permissions: permissions, prompt: prompt,
                                      showsSettingsSteps: showsSettingsSteps, microphoneName: microphoneName, time: time))
        case .inCall(let active):
            factory.callScreen(CallScreen(call: active, prompt: prompt, showsSettingsSteps: showsSettingsSteps, time: time))
        case .finished:
            Spacer(rows: 0)
        }
    }
}

public import MicCheckCall

/// A key the user pressed.
public enum TerminalKey: Sendable, Hashable {
    /// A key that types a character: a letter, a digit, space.
    case character(Character)
    /// The Enter key: join the call.
    case enter
    /// The Escape key: close.
    case escape

    /// The action this key stands for in the terminal UI (``CallKeys``), if any.
    public var action: CallAction? {
        switch self {
        case .enter: return .join
        case .escape: return .close
        case .character(let c):
            if let toggle = CallKeys.toggles.first(where: { $0.key == c }) { return .toggle(toggle.control) }
            switch c {
            case "q": return .close
            case CallKeys.silenceMutedNotice: return .silenceMutedNotice
            case CallKeys.openSettings: return .openSettings
            case CallKeys.dismiss: return .dismissPrompt
            case CallKeys.switchMicrophone: return .switchMicrophone
            case CallKeys.ignoreMicrophoneOffer: return .ignoreMicrophoneOffer
            case CallKeys.testMicrophone: return .testMicrophone
            case CallKeys.pushToTalk: return .pushToTalk
            case CallKeys.talk: return .talk
            default: return nil
            }
        }
    }
}

extension CallSession {
    /// Handles a key of the terminal UI. Returns what happened.
    public mutating func handle(_ key: TerminalKey, at time: Double) -> [SessionEvent] {
        guard let action = key.action else { return advance(to: time) }
        return handle(action, at: time)
    }

    /// The screen for now, built by `factory`.
    public func view(factory: any CallViewFactory) -> any TerminalView {
        switch phase {
        case .lobby(let lobby):
            factory.lobby(
                LobbyScreen(
                    lobby: lobby, capabilities: call.capabilities, permissions: permissions, prompt: prompt,
                    showsSettingsSteps: showsSettingsSteps, microphoneName: microphoneName, time: time))
        case .inCall(let active):
            factory.callScreen(
                CallScreen(call: active, prompt: prompt, showsSettingsSteps: showsSettingsSteps, time: time))
        case .finished:
            Spacer(rows: 0)
        }
    }
}

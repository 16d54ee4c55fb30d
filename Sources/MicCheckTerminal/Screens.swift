public import MicCheckCall

/// Everything the lobby screen shows at one moment.
public struct LobbyScreen: Sendable {
    /// The lobby: its settings, the microphone check and test, and who is in the call.
    public var lobby: LobbyModel
    /// What the call lets the local user do (send audio, send video, …).
    public var capabilities: Set<OwnCapability>
    /// Whether the microphone and the camera are granted.
    public var permissions: Permissions
    /// The permissions prompt to show, if any.
    public var prompt: PermissionPrompt?
    /// The user chose "Open Settings": show the steps.
    public var showsSettingsSteps: Bool
    /// What the microphone is ("the bundled sample", "Built-in Audio (alsa_input…)").
    public var microphoneName: String
    /// The time the models are read at.
    public var time: Double

    /// Makes the lobby screen's contents; `showsSettingsSteps` is false by default.
    public init(
        lobby: LobbyModel, capabilities: Set<OwnCapability>, permissions: Permissions, prompt: PermissionPrompt?,
        showsSettingsSteps: Bool = false, microphoneName: String, time: Double
    ) {
        self.lobby = lobby
        self.capabilities = capabilities
        self.permissions = permissions
        self.prompt = prompt
        self.showsSettingsSteps = showsSettingsSteps
        self.microphoneName = microphoneName
        self.time = time
    }

    /// The local user's tile in the lobby: their camera would show here (video when on and granted).
    public var selfTile: ParticipantTile {
        var me = lobby.localUser
        me.isLocalUser = true
        me.hasVideo = lobby.settings.videoOn && permissions.camera.isGranted
        me.audioLevel = lobby.settings.audioOn ? lobby.microphone.displayLevel : 0
        return ParticipantTile(participant: me, participantCount: 1)
    }
}

/// Everything the call screen shows at one moment.
public struct CallScreen: Sendable {
    /// The call in progress.
    public var call: ActiveCall
    /// The permissions prompt to show, if any.
    public var prompt: PermissionPrompt?
    /// The user chose "Open Settings": show the steps.
    public var showsSettingsSteps: Bool
    /// The time the models are read at, in seconds.
    public var time: Double

    /// Makes the call screen's contents; `showsSettingsSteps` is false by default.
    public init(call: ActiveCall, prompt: PermissionPrompt?, showsSettingsSteps: Bool = false, time: Double) {
        self.call = call
        self.prompt = prompt
        self.showsSettingsSteps = showsSettingsSteps
        self.time = time
    }
}

/// Draws `view` on a canvas of the terminal's size. A terminal smaller than `minimumSize` gets one
/// line asking for more room instead of a garbled screen.
public func render(
    _ view: any TerminalView, width: Int, height: Int, glyphs: Glyphs = .unicode,
    minimumSize: (width: Int, height: Int) = (40, 14)
) -> Canvas {
    var canvas = Canvas(width: width, height: height, glyphs: glyphs)
    if width < minimumSize.width || height < minimumSize.height {
        Text(
            "Make the terminal at least \(minimumSize.width)×\(minimumSize.height) (it is \(width)×\(height)).",
            wraps: true
        )
        .draw(in: canvas.bounds, on: &canvas)
        return canvas
    }
    view.draw(in: canvas.bounds, on: &canvas)
    return canvas
}

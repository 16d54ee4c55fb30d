/// The user's own devices in a call: microphone, camera and loudspeaker, each on or off.
public struct CallSettings: Sendable, Hashable, Codable {
    /// The microphone is on (the call hears you). Off means muted: capture may go on, nothing is sent.
    public var audioOn: Bool
    /// The camera is on (the call sees you).
    public var videoOn: Bool
    /// The call's audio plays (off: you hear nobody).
    public var speakerOn: Bool

    /// Settings with each device on or off (default: all on).
    public init(audioOn: Bool = true, videoOn: Bool = true, speakerOn: Bool = true) {
        self.audioOn = audioOn
        self.videoOn = videoOn
        self.speakerOn = speakerOn
    }

    /// Whether `control` is on.
    public subscript(control: CallControl) -> Bool {
        get {
            switch control {
            case .microphone: audioOn
            case .camera: videoOn
            case .speaker: speakerOn
            }
        }
        set {
            switch control {
            case .microphone: audioOn = newValue
            case .camera: videoOn = newValue
            case .speaker: speakerOn = newValue
            }
        }
    }

    /// Turns `control` off when on, on when off.
    public mutating func toggle(_ control: CallControl) { self[control].toggle() }
}

/// One of the three toggles a user has in the lobby and in the call.
public enum CallControl: String, Sendable, Hashable, CaseIterable, Codable {
    /// The microphone (`audioOn`), the camera (`videoOn`), the loudspeaker (`speakerOn`).
    case microphone, camera, speaker
}

/// What the call lets the local user do. The call server grants these; the app only reads them.
public enum OwnCapability: String, Sendable, Hashable, CaseIterable, Codable {
    /// Publish audio: without it the microphone cannot be turned on in the call.
    case sendAudio = "send-audio"
    /// Publish video.
    case sendVideo = "send-video"
    /// Share the screen.
    case screenshare = "screenshare"
    /// Mute other participants (a host's power): they hear "NAME muted you." and the muted notice.
    case muteUsers = "mute-users"
}

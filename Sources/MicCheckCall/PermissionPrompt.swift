/// The prompt that asks the user to grant, in the system's settings, a permission the call needs.
///
/// It appears when a capability the call grants (`sendAudio`, `sendVideo`) needs a permission that is
/// not granted and can no longer be requested, unless the user dismissed that prompt for this call.
public struct PermissionPrompt: Sendable, Hashable {
    /// Which permissions are missing.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// Neither the camera nor the microphone may be used.
        case cameraAndMicrophone = "camera-and-microphone"
        /// The camera may not be used.
        case camera
        /// The microphone may not be used.
        case microphone

        /// The devices whose permission is missing, the camera first.
        public var devices: [PermissionDevice] {
            switch self {
            case .cameraAndMicrophone: [.camera, .microphone]
            case .camera: [.camera]
            case .microphone: [.microphone]
            }
        }
    }

    /// Which permissions are missing.
    public let kind: Kind
    /// The permissions the prompt was made from; their reasons go into `linuxSettingsSteps`.
    public let permissions: Permissions

    /// The button that shows the steps that grant access (`CallAction.openSettings`).
    public static let openSettingsTitle = "Open Settings"
    /// The button that hides the prompt for the rest of the call (`CallAction.dismissPrompt`).
    public static let dismissTitle = "Dismiss"

    /// The prompt the call needs now, or nil.
    /// - Parameter dismissed: the kinds the user dismissed for this call.
    public init?(capabilities: Set<OwnCapability>, permissions: Permissions, dismissed: Set<Kind> = []) {
        guard let kind = Self.kind(capabilities: capabilities, permissions: permissions), !dismissed.contains(kind)
        else {
            return nil
        }
        self.kind = kind
        self.permissions = permissions
    }

    /// The missing combination, whether or not it was dismissed.
    public static func kind(capabilities: Set<OwnCapability>, permissions: Permissions) -> Kind? {
        let missing = Set(capabilities.compactMap(\.device).filter { permissions[$0].needsSettings })
        switch (missing.contains(.camera), missing.contains(.microphone)) {
        case (true, true): return .cameraAndMicrophone
        case (true, false): return .camera
        case (false, true): return .microphone
        case (false, false): return nil
        }
    }

    /// The prompt's heading ("Microphone access required").
    public var title: String {
        switch kind {
        case .cameraAndMicrophone: "Camera and microphone access required"
        case .camera: "Camera access required"
        case .microphone: "Microphone access required"
        }
    }

    /// The sentence under the heading: what the call allows that the app cannot do.
    public var message: String {
        switch kind {
        case .cameraAndMicrophone:
            "The call lets you speak and show video, but this app cannot use your camera or your microphone."
        case .camera: "The call lets you show video, but this app cannot use your camera."
        case .microphone: "The call lets you speak, but this app cannot use your microphone."
        }
    }

    /// What "Open Settings" shows on Linux, where there is no settings app to open: the concrete steps
    /// that grant access, with the reason each permission was refused.
    public var linuxSettingsSteps: [String] {
        var steps: [String] = []
        if kind.devices.contains(.microphone) {
            if let reason = permissions.microphone.reason { steps.append("Microphone: \(reason).") }
            steps += [
                "Check that a sound server runs: `pactl info` (PulseAudio, or PipeWire's pipewire-pulse).",
                "List the microphones with `miccheck devices`, then pick one with `--source NAME`.",
                "Unmute it: `pactl set-source-mute @DEFAULT_SOURCE@ 0`.",
                "In a Flatpak, allow audio: `flatpak override --user --socket=pulseaudio APP`; in a Snap: `snap connect APP:audio-record`.",
            ]
        }
        if kind.devices.contains(.camera) {
            if let reason = permissions.camera.reason { steps.append("Camera: \(reason).") }
            steps += [
                "Connect a camera and check that it appears: `ls -l /dev/video*`.",
                "Let your user open it: `sudo usermod -aG video $USER`, then log out and in again.",
                "In a Flatpak, allow devices: `flatpak override --user --device=all APP`; in a Snap: `snap connect APP:camera`.",
            ]
        }
        return steps
    }
}

public import MicCheckCall

/// What happened to the microphones while one of them was in use.
public enum MicrophoneDeviceChange: Sendable, Equatable {
    /// A microphone appeared (never an output's monitor, never the one in use).
    case appeared(MicrophoneDevice)
    /// A microphone that was not in use went away.
    case removed(MicrophoneDevice)
    /// The switch asked for took effect: this one is in use now.
    case switched(to: MicrophoneDevice)
    /// The switch asked for failed; the microphone in use stays.
    case switchFailed(MicrophoneDevice, reason: String)
    /// The microphone in use went away and the server's default took its place.
    case fellBack(lost: MicrophoneDevice, to: MicrophoneDevice)
}

public import MicCheck
/// Why voice processing could not start or go on.
public enum VoiceProcessingError: MicCheckError, Equatable, Sendable {
    /// The engine processes 8, 16, 32 and 48 kHz only.
    case unsupportedSampleRate(Int)
    /// A setting out of range.
    case invalidSetting(String)
    /// The library returned an error code (webrtc `AudioProcessing::Error`).
    case library(code: Int)
    /// This platform has no voice-processing engine.
    case unavailable

    /// The error as one sentence for the user.
    public var description: String {
        switch self {
        case .unsupportedSampleRate(let rate):
            "voice processing runs at 8, 16, 32 or 48 kHz, not \(rate) Hz"
        case .invalidSetting(let what): "voice processing setting out of range: \(what)"
        case .library(let code): "webrtc-audio-processing failed (\(Self.name(ofCode: code)), code \(code))"
        case .unavailable: "voice processing needs webrtc-audio-processing, which this platform lacks"
        }
    }

    private static func name(ofCode code: Int) -> String {
        switch code {
        case -2: "creation failed"
        case -3: "unsupported component"
        case -4: "unsupported function"
        case -5: "null pointer"
        case -6: "bad parameter"
        case -7: "bad sample rate"
        case -8: "bad data length"
        case -9: "bad number of channels"
        case -11: "stream parameter not set"
        case -12: "component not enabled"
        default: "unspecified error"
        }
    }
}

/// Why an audio input cannot be read. Each case describes the problem in one sentence fragment that a
/// caller prefixes with the input's name ("speech.wav: is not a WAV file (no RIFF header)").
public enum AudioInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input holds no bytes at all.
    case empty
    /// The input does not start like a WAV file.
    case notWAV(String)
    /// The input ends inside its header.
    case truncatedHeader(String)
    /// The header is present but inconsistent.
    case malformed(String)
    /// A sample encoding MicCheck does not decode (µ-law, ADPCM, …).
    case unsupportedEncoding(String)
    /// A channel count or sample rate outside what MicCheck accepts.
    case unsupportedFormat(String)
    /// A float sample is NaN or infinite.
    case nonFiniteSample(frame: Int)
    /// The operating system failed to read the input.
    case readFailed(String)

    public var description: String {
        switch self {
        case .empty: "is empty (0 bytes)"
        case .notWAV(let detail): "is not a WAV file (\(detail))"
        case .truncatedHeader(let detail): "ends inside its WAV header (\(detail))"
        case .malformed(let detail): "has a malformed WAV header: \(detail)"
        case .unsupportedEncoding(let detail):
            "uses \(detail), which MicCheck does not decode; convert it to PCM or float WAV"
        case .unsupportedFormat(let detail): detail
        case .nonFiniteSample(let frame):
            "holds a sample that is not a finite number (NaN or infinity) at frame \(frame)"
        case .readFailed(let detail): "could not be read: \(detail)"
        }
    }
}

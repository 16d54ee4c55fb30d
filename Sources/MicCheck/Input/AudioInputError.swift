/// Why an audio input cannot be read. Each case describes the problem in one sentence fragment that a
/// caller prefixes with the input's name ("speech.wav: is not a WAV file (no RIFF header)"), as
/// ``AudioFileError`` does for a file.
public enum AudioInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing exists at the path.
    case noSuchFile
    /// The path names something that is not an audio file: "a directory".
    case notAFile(String)
    /// The file exists but this process may not read it.
    case permissionDenied
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

    /// The problem as a fragment that follows the input's name ("is empty (0 bytes)").
    public var description: String {
        switch self {
        case .noSuchFile: "no such file"
        case .notAFile(let kind): "is \(kind), not an audio file"
        case .permissionDenied: "cannot be read (permission denied)"
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

extension AudioInputError: MicCheckError {
    /// The problem as a sentence about an unnamed input ("The audio input is empty (0 bytes)."); a file's
    /// ``AudioFileError`` names it.
    public var errorDescription: String? { "The audio input \(description)." }
}

/// Why the audio file at ``path`` cannot be read: the sentence that `miccheck` prints for it, without the
/// leading "miccheck: " and the final stop ("speech.wav: is not a WAV file (no RIFF header)").
public struct AudioFileError: MicCheckError, Sendable, Equatable {
    /// The file as it was named.
    public var path: String
    /// What is wrong with it.
    public var problem: AudioInputError

    /// The file at `path` and what is wrong with it.
    public init(path: String, problem: AudioInputError) {
        self.path = path
        self.problem = problem
    }

    /// "PATH: PROBLEM" ("speech.wav: is not a WAV file (no RIFF header)").
    public var description: String { "\(path): \(problem)" }
}

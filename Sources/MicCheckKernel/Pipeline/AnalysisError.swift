/// Why an analysis cannot start.
public enum AnalysisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sample rate (Hz) is not one of ``AudioFormat/supportedSampleRates``.
    case unsupportedSampleRate(Int)

    /// The reason in words, e.g. "4000 Hz is not a supported sample rate".
    public var description: String {
        switch self {
        case .unsupportedSampleRate(let rate): "\(rate) Hz is not a supported sample rate"
        }
    }
}

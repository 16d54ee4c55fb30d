/// Why an analysis cannot start.
public enum AnalysisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sample rate (Hz) is not one of ``AudioFormat/supportedSampleRates``.
    case unsupportedSampleRate(Int)

    public var description: String {
        switch self {
        case .unsupportedSampleRate(let rate): "\(rate) Hz is not a supported sample rate"
        }
    }
}

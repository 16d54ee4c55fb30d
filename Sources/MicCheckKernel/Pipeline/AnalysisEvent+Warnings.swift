// Which warning an event raises or clears: the pipeline's events read as the detectors' warnings.

extension AnalysisEvent {
    /// The warning this event raises, if it raises one.
    public var raisedWarning: MicrophoneWarning? {
        switch self {
        case .noisyMicrophone(_, let kind, let db): .noisy(kind, levelDB: db)
        case .clipping(_, let ceiling, let share): .clipping(ceilingDB: ceiling, share: share)
        case .speechTooQuiet(_, let db): .speechTooQuiet(levelDB: db)
        case .wrongSource(_, let name): .wrongSource(name)
        default: nil
        }
    }

    /// The kind of warning this event clears, if it clears one.
    public var clearedWarning: MicrophoneWarning.Kind? {
        switch self {
        case .microphoneClean: .noisy
        case .clippingEnded: .clipping
        case .speechLevelOK: .speechTooQuiet
        default: nil
        }
    }
}

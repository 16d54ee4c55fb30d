/// A warning about the microphone besides a dead device, as a call's microphone check shows it.
public enum MicrophoneWarning: Sendable, Hashable {
    /// Steady background noise, of a kind where it is clear, at a level (dBFS).
    case noisy(NoiseKind?, levelDB: Float)
    /// The input is cut flat at a ceiling (dBFS) in a share of its samples.
    case clipping(ceilingDB: Float, share: Float)
    /// Speech arrives at this active level (dBFS), too quiet.
    case speechTooQuiet(levelDB: Float)
    /// The source is an output's monitor, not a microphone.
    case wrongSource(String)

    /// Which warning, without its figures: a raised warning of a kind replaces the one before.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Steady background noise (`noisy_microphone`).
        case noisy = "noisy_microphone"
        /// The input cut flat at a ceiling (`clipping`).
        case clipping
        /// Speech too quiet (`speech_too_quiet`).
        case speechTooQuiet = "speech_too_quiet"
        /// An output's monitor instead of a microphone (`wrong_source`).
        case wrongSource = "wrong_source"

        /// The kind's place in `allCases`.
        var slot: Int {
            switch self {
            case .noisy: 0
            case .clipping: 1
            case .speechTooQuiet: 2
            case .wrongSource: 3
            }
        }

        /// In words: "noisy microphone", "clipping", "speech too quiet", "wrong source".
        public var displayName: String {
            switch self {
            case .noisy: "noisy microphone"
            case .clipping: "clipping"
            case .speechTooQuiet: "speech too quiet"
            case .wrongSource: "wrong source"
            }
        }
    }

    /// Which warning this is, without its figures.
    public var kind: Kind {
        switch self {
        case .noisy: .noisy
        case .clipping: .clipping
        case .speechTooQuiet: .speechTooQuiet
        case .wrongSource: .wrongSource
        }
    }

    /// What to tell the user; `source` names the microphone whose volume to change, where known.
    public func sentence(source: String? = nil) -> String {
        let volume = source.map { "the input volume of \($0)" } ?? "your microphone's input volume"
        switch self {
        case .noisy(let kind, let db):
            return
                "Your microphone picks up \(kind?.description ?? "background noise") (\(Self.db(db)) dBFS) that others will hear. "
                + "Move somewhere quieter, or turn on noise suppression."
        case .clipping(let ceiling, let share):
            return
                "Your microphone is too loud and distorts: \(Self.percent(share)) of the sound is cut flat at \(Self.db(ceiling)) dBFS. "
                + "Lower \(volume)."
        case .speechTooQuiet(let db):
            return
                "Your voice is very quiet (\(Self.db(db)) dBFS while you speak). Raise \(volume), or move closer to the microphone."
        case .wrongSource(let name):
            return
                "You are listening to \(name), the monitor of an output (what the speakers play), not a microphone. Pick a microphone."
        }
    }

    static func db(_ v: Float) -> String { fixed(Double(v), 1) }

    static func percent(_ share: Float) -> String {
        let p = Double(share) * 100
        return fixed(p, p >= 10 ? 0 : 1) + " %"
    }
}

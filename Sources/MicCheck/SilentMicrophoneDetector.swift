/// Why the microphone is judged dead.
public enum DeadMicrophoneSignature: String, Sendable, Equatable, CaseIterable {
    /// Every sample is exactly zero.
    case digitalSilence = "digital_silence"
    /// Every sample holds the same non-zero value (a DC offset or a stuck converter).
    case constantValue = "constant_value"
    /// A steady, spectrally flat hiss below about -70 dBFS: the input's own noise, nothing from a room.
    case hiss = "hiss"

    /// What to tell the user.
    public var explanation: String {
        switch self {
        case .digitalSilence: "the device delivers only digital silence (exact zeros)"
        case .constantValue: "the device delivers a constant value (a DC offset or a stuck sample)"
        case .hiss: "the device delivers only a faint, featureless hiss"
        }
    }
}

/// Tells a dead microphone from a quiet room: raises `silent` when the device stops delivering
/// anything a room could have produced, and `active` when sound returns.
///
/// A live microphone never delivers exact zeros or one constant value: its converter always has some
/// noise. So a constant signal is judged dead after ``Configuration/constantAfterSound`` once the
/// device has delivered a real signal, or after ``Configuration/constantAtStart`` when it has delivered
/// nothing else yet. Some sources (digitally mixed audio, a noise gate, a browser's silence
/// suppression) send exact zeros between sounds; once a source has shown such a gap that ended in
/// sound, a constant stretch must last ``Configuration/constantWhenGated`` (as Jitsi's 4 s).
/// A hiss is judged dead when it stays below ``Configuration/hissLevel``, spectrally flat and steady
/// for ``Configuration/hissDuration``: room tone is coloured (more energy low) and varies.
public struct SilentMicrophoneDetector: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var constantAtStart: Double = 1.9
        public var constantAfterSound: Double = 1.0
        public var constantWhenGated: Double = 4.0
        /// A constant run at least this long that ends in sound marks the source as gated (seconds).
        public var gatedGap: Double = 0.05
        public var hissLevel: Float = -70
        public var hissDuration: Double = 1.5
        /// Mean band flatness at or above which a hiss counts as featureless.
        public var hissFlatness: Float = 0.5
        /// Largest spread of frame levels (dB) a featureless hiss may show.
        public var hissSpread: Float = 8
        /// Sound must last this long to end a silent verdict (seconds).
        public var activeAfter: Double = 0.05

        public init() {}
        public static let `default` = Configuration()
    }

    public enum Event: Sendable, Equatable {
        case silent(DeadMicrophoneSignature)
        case active
    }

    public let configuration: Configuration
    private let fps = Double(LevelMeter.framesPerSecond)
    private var constantRun = 0
    private var constantValue: Float = 0
    private var hissRun = 0
    private var hissFlatSum: Float = 0
    private var hissMin: Float = 0
    private var hissMax: Float = 0
    private var aliveRun = 0
    private var heardSignal = false
    private var gated = false
    /// The current verdict: the signature of a dead device, or `nil` while the microphone seems to work.
    public private(set) var deadSignature: DeadMicrophoneSignature?

    public init(configuration: Configuration = .default) { self.configuration = configuration }

    /// Feeds one frame: its level (at the input's rate) and the band flatness of the same frame.
    public mutating func process(level: FrameLevel, bandFlatness: Float) -> Event? {
        let c = configuration
        if level.isConstant {
            if constantRun == 0 { constantValue = level.minimum }
            if level.minimum != constantValue { constantRun = 0; constantValue = level.minimum }
            constantRun += 1
        } else {
            if constantRun >= Int(c.gatedGap * fps) { gated = true }
            constantRun = 0
            heardSignal = true
        }
        let quiet = !level.isConstant && level.rmsDB < c.hissLevel
        if quiet {
            if hissRun == 0 { hissFlatSum = 0; hissMin = level.rmsDB; hissMax = level.rmsDB }
            hissRun += 1
            hissFlatSum += bandFlatness
            hissMin = min(hissMin, level.rmsDB); hissMax = max(hissMax, level.rmsDB)
        } else {
            hissRun = 0
        }
        let alive = !level.isConstant && level.rmsDB >= c.hissLevel
        aliveRun = alive ? aliveRun + 1 : 0

        if deadSignature != nil {
            if aliveRun >= max(1, Int(c.activeAfter * fps)) {
                deadSignature = nil
                return .active
            }
            return nil
        }
        let limit = gated ? c.constantWhenGated : (heardSignal ? c.constantAfterSound : c.constantAtStart)
        if constantRun >= Int(limit * fps) {
            let sig: DeadMicrophoneSignature = constantValue == 0 ? .digitalSilence : .constantValue
            deadSignature = sig
            return .silent(sig)
        }
        if hissRun >= Int(c.hissDuration * fps), hissFlatSum / Float(hissRun) >= c.hissFlatness,
           hissMax - hissMin <= c.hissSpread {
            deadSignature = .hiss
            return .silent(.hiss)
        }
        return nil
    }
}

/// What kind of background noise a noisy microphone picks up, where it is clear.
public enum NoiseKind: String, Sendable, Equatable, CaseIterable {
    /// Mains hum: most of the energy below about 400 Hz, perfectly steady.
    case hum
    /// A steady, featureless noise: a fan, air conditioning, a hiss.
    case hiss
    /// Broadband noise that comes and goes: a street, a crowd, machines.
    case broadband
    /// Music, or anything else with a pitch.
    case music

    /// How to name it to the user.
    public var description: String {
        switch self {
        case .hum: "a hum"
        case .hiss: "a fan or hiss"
        case .broadband: "background noise"
        case .music: "music"
        }
    }
}

/// Raises `noisy` when the microphone picks up steady background noise loud enough to bother the
/// others in a call while the user is not talking, and `clean` when it has gone.
///
/// As Jitsi's noisy-microphone warning (a voice score under 0.2 with the level above its threshold
/// for 1.5 s), with two differences. The window's median frame level must reach
/// ``Configuration/noisyLevel`` and its levels stay within ``Configuration/maximumSpread`` dB (10th
/// to 90th percentile): loud clicks, claps and keystrokes over a quiet room make no noisy room. And
/// the window is shorter (0.8 s), so that the warning comes in the pause before the user's first
/// words rather than over them. Never decided while the user speaks: a window with a frame of an
/// utterance, or a mean speech probability of ``Configuration/maximumVoice`` or more, raises nothing.
/// It clears when the level, outside speech, has stayed ``Configuration/hysteresis`` dB lower for
/// ``Configuration/cleanWindow``, and is not raised again within ``Configuration/cooldown`` of clearing.
///
/// - Complexity: O(1) per frame (a 1 dB histogram of the window's levels); allocated once.
public struct NoisyMicrophoneDetector: Sendable {
    /// The detector's thresholds: levels in dBFS, durations in seconds.
    public struct Configuration: Sendable, Equatable {
        /// Median frame level (dBFS, without DC) of a noisy window.
        public var noisyLevel: Float = -43
        /// Largest spread (dB, 10th to 90th percentile) of a noisy window's levels: steady noise.
        public var maximumSpread: Float = 12
        /// Seconds of noise before the warning.
        public var window: Double = 0.8
        /// Mean speech probability at or above which a window is the user's, not the room's.
        public var maximumVoice: Float = 0.2
        /// dB below ``noisyLevel`` that the room must fall to clear the warning.
        public var hysteresis: Float = 6
        /// Seconds below that, outside speech, before the warning clears.
        public var cleanWindow: Double = 3
        /// Seconds after clearing during which the warning is not raised again.
        public var cooldown: Double = 10

        /// Settings with the defaults above.
        public init() {}
        /// The default settings.
        public static let `default` = Configuration()
    }

    /// What the detector reports: `noisy` when it raises the warning, `clean` when it clears it.
    public enum Event: Sendable, Equatable {
        /// Noise of this kind (when clear) at this level (dBFS, the window's mean power).
        case noisy(NoiseKind?, levelDB: Float)
        /// The noise has gone: the level stayed `hysteresis` dB lower for `cleanWindow`, outside speech.
        case clean
    }

    /// One frame as the window keeps it.
    private struct Frame {
        var power: Float = 0, bin = 0, voice: Float = 0, speaking = false
        var harmonicity: Float = 0, flatness: Float = 0, lowPower: Float = 0
    }

    static let lowestBin: Float = -100

    /// The detector's settings.
    public let configuration: Configuration
    private let fps = Double(LevelMeter.framesPerSecond)
    private let length: Int
    private var ring: [Frame]
    private var histogram: [Int]
    private var head = 0
    private var filled = 0
    private var speaking = 0, quietRun = 0, sinceClear = Int.max / 2
    private var voiceSum: Float = 0
    private var dc = DCTracker()
    /// Whether the warning is up.
    public private(set) var isNoisy = false
    /// The kind of noise the warning named, while it is up.
    public private(set) var namedKind: NoiseKind?
    /// Whether the warning is up for a steady background: a hum, or a fan or hiss.
    public var namesSteadyBackground: Bool { isNoisy && (namedKind == .hum || namedKind == .hiss) }

    /// A detector with these settings.
    public init(configuration: Configuration = .default) {
        self.configuration = configuration
        length = max(1, Int(configuration.window * Double(LevelMeter.framesPerSecond)))
        ring = [Frame](repeating: Frame(), count: length)
        histogram = [Int](repeating: 0, count: Int(-Self.lowestBin) + 1)
    }

    /// Feeds one frame.
    /// - Parameters:
    ///   - level: the frame's level at the input's rate.
    ///   - voice: the speech probability; `speaking`: whether an utterance is open.
    ///   - features: the voice detector's features of the same frame (harmonicity, flatness, bands).
    public mutating func process(
        level: FrameLevel, voice: Float, speaking isSpeaking: Bool,
        features: VoiceFeatureExtractor
    ) -> Event? {
        let c = configuration
        let power = Float(dc.power(of: level))
        let db = Decibels.fromPower(Double(power))
        // Power below about 400 Hz: the three lowest bands, and whatever lies under the bands (50 Hz).
        var low: Float = 0
        for b in 0..<3 { low += Decibels.power(features.bandLevelDB(b)) }
        low += max(0, power - Decibels.power(features.levelDB))
        let frame = Frame(
            power: power, bin: Int(min(0, max(Self.lowestBin, db)) - Self.lowestBin),
            voice: voice, speaking: isSpeaking, harmonicity: features.harmonicity,
            flatness: features.bandFlatness, lowPower: min(low, power))
        if filled == length { remove(ring[head]) } else { filled += 1 }
        ring[head] = frame
        head = (head + 1) % length
        add(frame)
        sinceClear += 1

        if isNoisy {
            if !isSpeaking && voice < 0.5 { quietRun = db < c.noisyLevel - c.hysteresis ? quietRun + 1 : 0 }
            guard quietRun >= Int(c.cleanWindow * fps) else { return nil }
            isNoisy = false
            namedKind = nil
            quietRun = 0
            sinceClear = 0
            return .clean
        }
        guard filled == length, speaking == 0, voiceSum / Float(length) < c.maximumVoice,
            sinceClear >= Int(c.cooldown * fps)
        else { return nil }
        let median = percentile(0.5)
        guard median >= c.noisyLevel, percentile(0.9) - percentile(0.1) <= c.maximumSpread else { return nil }
        isNoisy = true
        namedKind = kind
        return .noisy(namedKind, levelDB: meanLevelDB)
    }

    private mutating func add(_ f: Frame) {
        histogram[f.bin] += 1
        if f.speaking { speaking += 1 }
        voiceSum += f.voice
    }

    private mutating func remove(_ f: Frame) {
        histogram[f.bin] -= 1
        if f.speaking { speaking -= 1 }
        voiceSum -= f.voice
    }

    /// The level (dBFS, to 1 dB) below which a share `q` of the window's frames lie.
    private func percentile(_ q: Float) -> Float {
        let rank = Int(q * Float(filled))
        var seen = 0
        for (bin, n) in histogram.enumerated() {
            seen += n
            if seen > rank { return Float(bin) + Self.lowestBin }
        }
        return 0
    }

    /// The window's mean power, dBFS.
    private var meanLevelDB: Float {
        var p: Float = 0
        for f in ring { p += f.power }
        return Decibels.fromPower(Double(p / Float(length)))
    }

    /// The window's kind of noise, where its measures agree on one.
    private var kind: NoiseKind? {
        var power: Float = 0
        var low: Float = 0
        var harm: Float = 0
        var flat: Float = 0
        for f in ring {
            power += f.power
            low += f.lowPower
            harm += f.harmonicity
            flat += f.flatness
        }
        let n = Float(length)
        let lowShare = power > 0 ? low / power : 0
        // Measured on the public corpus's noises and generated ones: pink, white and fans 0.38-0.91
        // flat with a harmonicity of 0.22-0.46; music 0.52-0.86 harmonic and at most 0.15 flat; crowds
        // and machines in between. Mains hum has all its power low and a spectrum of a few lines
        // (flatness under 0.05); a drum loop does too, but is far more periodic (harmonicity ~0.99).
        // (Frame-to-frame level steps say nothing of a hum: a 10 ms frame holds half a 50 Hz period.)
        if lowShare >= 0.95 && flat / n < 0.05 && harm / n < 0.9 { return .hum }
        if flat / n >= 0.3 && harm / n < 0.5 { return .hiss }
        if harm / n >= 0.5 && flat / n < 0.2 { return .music }
        if flat / n >= 0.1 && harm / n < 0.5 { return .broadband }
        return nil
    }
}

/// Why the microphone is judged dead.
public enum DeadMicrophoneSignature: String, Sendable, Equatable, CaseIterable {
    /// Every sample is exactly zero.
    case digitalSilence = "digital_silence"
    /// Every sample holds the same non-zero value (a DC offset or a stuck converter), or a large DC
    /// offset carries only a faint hiss (a floating or broken input).
    case constantValue = "constant_value"
    /// A faint hiss and nothing else: spectrally flat and steady below about -70 dBFS, or of any colour
    /// below about -77 dBFS from the start (without the DC offset): the input's own noise, nothing from a
    /// room.
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

/// Tells a dead microphone from a quiet room, and from a source that sends digital silence between
/// sounds: raises `silent` when the device stops delivering anything a room could have produced, and
/// `active` when sound returns.
///
/// A live microphone never delivers exact zeros or one constant value: its converter always has some
/// noise. But noise gates, codecs with discontinuous transmission (DTX), Bluetooth headsets and
/// synthetic voices do send exact zeros between words, and calling such a source dead mid-call is the
/// worst error this detector can make. So how long a constant stretch must last depends on what the
/// source has shown (the first that applies):
///
/// | the source has shown | a constant stretch must last |
/// |---|---|
/// | nothing but constant samples yet | ``Configuration/constantAtStart`` (1.9 s) |
/// | a constant gap bounded by sound on both sides (it is gated) | ``Configuration/constantWhenGated`` (10 s) |
/// | a noise floor in a pause after sound: a second of non-constant room tone or steady sound | ``Configuration/constantAfterFloor`` (1 s) |
/// | sound (a frame far from the floor; one that falls just before constant samples is a cut, not a sound), but no floor after it and no gap yet (its first pause may be a gate's) | ``Configuration/constantWhenGated`` (10 s) |
/// | a noise floor and no sound yet | ``Configuration/constantAfterFloor`` (1 s) |
/// | less than a second of anything but constant samples | ``Configuration/constantUnproven`` (4 s, as Jitsi) |
///
/// A device that dies after it has shown its room tone between sounds (every real microphone between
/// words) is then found in a second; one that goes quiet in a source that pauses in digital silence
/// waits 10 s. Room tone heard only before the first sound says nothing about the pauses after it: a
/// noise gate or a browser's processing lets the room through until the voice sets its threshold, then
/// sends zeros in every pause, the first included.
/// How loud the sound was just before the zeros says nothing: trimmed prompts, synthetic voices and
/// sample-based mixes end in a loud sample and then zeros, exactly as a cable pulled mid-word does.
///
/// Every level rule sees the signal without its DC offset. A hiss is judged dead when its level stays below
/// ``Configuration/hissLevel``, spectrally flat and steady for ``Configuration/hissDuration``, and the source
/// has never delivered a frame at ``Configuration/loudLevel`` (after a voice, a flat hiss in the pauses is a
/// quiet room's): room tone is coloured and varies. A preamp's own noise is rarely white, though: a hiss of
/// any colour below ``Configuration/colouredHissLevel`` (or, over a large DC offset of at least
/// ``Configuration/offsetLevel``, which no working microphone's AC-coupled converter shows, below
/// ``Configuration/offsetHissLevel``: a floating input) is dead after ``Configuration/colouredHissDuration``
/// when the source has delivered nothing louder since it started. A quiet room with a voice in it, on any
/// offset, has.
///
/// - Complexity: O(1) per frame; nothing is allocated.
public struct SilentMicrophoneDetector: Sendable {
    /// The detector's thresholds: levels in dBFS, durations in seconds.
    public struct Configuration: Sendable, Equatable {
        /// Seconds a constant stretch must last while the source has sent nothing but constant samples.
        public var constantAtStart: Double = 1.9
        /// Seconds a constant stretch must last once the source has shown its noise floor (before any sound,
        /// or in a pause after one).
        public var constantAfterFloor: Double = 1.0
        /// Seconds a constant stretch must last when the source has sent more than constant samples, but
        /// neither a floor nor a sound yet (as Jitsi).
        public var constantUnproven: Double = 4.0
        /// Seconds a constant stretch must last in a gated source, or after sound with no floor or gap
        /// after it yet.
        public var constantWhenGated: Double = 10.0
        /// A constant run at least this long, with sound before and after it, marks the source as
        /// gated (seconds). Shorter gaps (a dropped buffer) say nothing.
        public var gatedGap: Double = 0.15
        /// Seconds of non-constant floor (below ``floorLevel``, or steady: within ``steadyStep`` of its
        /// running level) that show an ungated source.
        public var floorEvidence: Double = 1.0
        /// Level without DC offset (dBFS) below which a non-constant frame counts as room tone.
        public var floorLevel: Float = -50
        /// Largest distance (dB) of a frame of steady sound from the running level (a 0.1 s average).
        public var steadyStep: Float = 6
        /// Level without DC offset (dBFS) below which a non-constant frame may be a dead input's hiss.
        public var hissLevel: Float = -70
        /// Seconds a flat, steady hiss below `hissLevel` must last to be a dead device.
        public var hissDuration: Double = 1.5
        /// Mean band flatness at or above which a hiss counts as featureless.
        public var hissFlatness: Float = 0.5
        /// Largest spread of frame levels (dB) a featureless hiss may show.
        public var hissSpread: Float = 8
        /// A DC offset (dBFS) at or above which a faint hiss of any colour on top is a dead input (while the
        /// source has delivered nothing louder since it started).
        public var offsetLevel: Float = -30
        /// Level without DC offset (dBFS) below which the hiss over such an offset counts as dead.
        public var offsetHissLevel: Float = -66
        /// Level without DC offset (dBFS) that no dead input reaches: once the source has delivered a frame this
        /// loud (a voice, however quiet), a featureless hiss in its pauses is the room's, not a dead device's.
        public var loudLevel: Float = -60
        /// Level without DC offset (dBFS) below which a hiss of any colour (pink, brown: a preamp's own noise
        /// is rarely white) counts as dead while the source has sent nothing louder. Only its level is
        /// checked: a silent room this quiet from the start reads as dead too (nothing tells them apart).
        public var colouredHissLevel: Float = -77
        /// How long such a hiss must last, with no sound before it, to be a dead device (seconds).
        public var colouredHissDuration: Double = 1.9
        /// Sound must last this long to end a silent verdict (seconds).
        public var activeAfter: Double = 0.05

        /// Settings with the defaults above.
        public init() {}
        /// The default settings.
        public static let `default` = Configuration()
    }

    /// What the detector reports: `silent` when the device seems dead, `active` when sound returns.
    public enum Event: Sendable, Equatable {
        /// The device seems dead; the signature says what it delivers.
        case silent(DeadMicrophoneSignature)
        /// Sound again, for at least `activeAfter`, after `silent`.
        case active
    }

    /// The detector's settings.
    public let configuration: Configuration
    private let fps = Double(LevelMeter.framesPerSecond)
    private var constantRun = 0
    private var constantValue: Float = 0
    private var hissRun = 0
    private var hissFlatSum: Float = 0
    private var hissMin: Float = 0
    private var hissMax: Float = 0
    private var aliveRun = 0
    /// Frames in a row that are constant or a faint hiss (below ``Configuration/colouredHissLevel``), and how
    /// many of them are hiss.
    private var faintRun = 0
    private var faintHiss = 0
    private var faintOffset = 0
    /// Frames of the current flat hiss that sit on a large DC offset.
    private var hissOffset = 0
    /// The source has delivered ``Configuration/activeAfter`` of frames in a row at or above
    /// ``Configuration/loudLevel``.
    private var heardLoud = false
    private var loudRun = 0
    /// The source has delivered ``Configuration/activeAfter`` of frames in a row above the faint level (not
    /// constant, not a faint hiss, not a faint hiss on a large offset).
    private var heardAboveFaint = false
    private var aboveFaintRun = 0
    private var floorRun = 0
    /// The last frame fell far below the running level: a sound, unless constant samples follow it.
    private var fellBeforeThis = false
    private var runningLevel: Float = Decibels.floor
    private var dc = DCTracker()
    private var heardSignal = false
    /// The source has shown a second of room tone or steady sound.
    public private(set) var heardFloor = false
    /// The source has sent sound: a frame neither constant nor like its floor (a voice, a knock).
    public private(set) var heardSound = false
    /// The source has shown a second of room tone or steady sound after a sound: its pauses hold its floor.
    public private(set) var heardFloorAfterSound = false
    /// The source has shown a constant gap between sounds.
    public private(set) var isGated = false
    /// The current verdict: the signature of a dead device, or `nil` while the microphone seems to work.
    public private(set) var deadSignature: DeadMicrophoneSignature?

    /// A detector with these settings.
    public init(configuration: Configuration = .default) { self.configuration = configuration }

    /// The peak level (dBFS) of one step of a 16-bit code: a frame that never goes past it holds zeros
    /// and a dither of one least significant bit at most.
    static let oneStepDB = Decibels.fromAmplitude(1.0 / 32_768) + 0.01

    /// How long the current constant stretch must last to be a dead device (seconds).
    public var constantLimit: Double {
        let c = configuration
        if !heardSignal { return c.constantAtStart }
        if isGated { return c.constantWhenGated }
        if heardSound { return heardFloorAfterSound ? c.constantAfterFloor : c.constantWhenGated }
        if heardFloor { return c.constantAfterFloor }
        return c.constantUnproven
    }

    /// Feeds one frame: its level (at the input's rate) and the band flatness of the same frame.
    public mutating func process(level: FrameLevel, bandFlatness: Float) -> Event? {
        let c = configuration
        let ac = level.acLevelDB
        // An idle converter's zeros with a sparse dither of one step of a 16-bit code (as sox writes
        // silence), or zeros after a browser's processing rounded to 16 bits, are digital silence too.
        let still = level.isConstant || level.peakDB <= Self.oneStepDB
        if still {
            fellBeforeThis = false
            let value = level.isConstant ? level.minimum : 0
            if constantRun == 0 || value != constantValue {
                constantRun = 0
                constantValue = value
            }
            constantRun += 1
            floorRun = 0
        } else {
            // A gap already judged dead says nothing about gating.
            if heardSignal && deadSignature == nil && constantRun >= Int(c.gatedGap * fps) { isGated = true }
            constantRun = 0
            heardSignal = true
            // Without a slowly followed DC offset, so that a frame keeps its own low frequencies.
            let db = Decibels.fromPower(dc.power(of: level))
            runningLevel = runningLevel <= Decibels.floor ? db : runningLevel + 0.1 * (db - runningLevel)
            let floorLike = db < c.floorLevel || abs(db - runningLevel) <= c.steadyStep
            floorRun = floorLike ? floorRun + 1 : 0
            // A frame far from the floor is a sound (a voice, a knock, its decay), but for one that falls and is
            // followed by constant samples: that is the frame a mute or a pulled cable cut part way through.
            // Counted as sound, it would make a steady room that dies mid-frame wait as a gated source does
            // (10 s) instead of a second. A falling frame counts once the next one is not constant.
            if fellBeforeThis { heardSound = true }
            fellBeforeThis = !floorLike && db <= runningLevel
            if !floorLike && db > runningLevel { heardSound = true }
            if floorRun >= Int(c.floorEvidence * fps) {
                heardFloor = true
                if heardSound { heardFloorAfterSound = true }
            }
        }
        let onOffset = Decibels.fromAmplitude(abs(level.mean)) >= c.offsetLevel && ac < c.offsetHissLevel
        let quiet = !still && ac < c.hissLevel
        // Sound that no dead input makes must last as long as sound that ends a dead verdict (a plug-in pop or
        // a step of the DC offset inside one frame is not a voice).
        let evidence = max(1, Int(c.activeAfter * fps))
        loudRun = !still && ac >= c.loudLevel ? loudRun + 1 : 0
        if loudRun >= evidence { heardLoud = true }
        if quiet {
            if hissRun == 0 {
                hissFlatSum = 0
                hissMin = ac
                hissMax = ac
                hissOffset = 0
            }
            hissRun += 1
            hissFlatSum += bandFlatness
            if onOffset { hissOffset += 1 }
            hissMin = min(hissMin, ac)
            hissMax = max(hissMax, ac)
        } else {
            hissRun = 0
        }
        // Faint: constant, below the coloured hiss's level, or a hiss on a large DC offset. A slow (brown) hiss a
        // step or two of a 16-bit code deep holds frames of one value between frames that move, and breaks both
        // the runs above.
        let faint = still || ac < c.colouredHissLevel || onOffset
        if faint {
            faintRun += 1
            if !still { faintHiss += 1 }
            if onOffset { faintOffset += 1 }
            aboveFaintRun = 0
        } else {
            faintRun = 0
            faintHiss = 0
            faintOffset = 0
            aboveFaintRun += 1
            if aboveFaintRun >= evidence { heardAboveFaint = true }
        }
        // A faint hiss on a large offset (up to -66 dBFS, louder than `quiet`) is no sound either: it never ends
        // the verdict it gave.
        let alive = !still && !quiet && !onOffset
        aliveRun = alive ? aliveRun + 1 : 0

        if deadSignature != nil {
            if aliveRun >= max(1, Int(c.activeAfter * fps)) {
                // Sound after a stretch of digital silence judged dead: the source sends it between
                // sounds (a gate, a codec's DTX, a browser's processing), so its pauses wait as a gated
                // source's do, rather than raising the warning in every pause.
                if deadSignature == .digitalSilence { isGated = true }
                deadSignature = nil
                return .active
            }
            return nil
        }
        if constantRun > 0 && constantRun >= Int(constantLimit * fps) {
            let sig: DeadMicrophoneSignature = constantValue == 0 ? .digitalSilence : .constantValue
            deadSignature = sig
            return .silent(sig)
        }
        if hissRun >= Int(c.hissDuration * fps), !heardLoud {
            if hissFlatSum / Float(hissRun) >= c.hissFlatness, hissMax - hissMin <= c.hissSpread {
                // On a large DC offset throughout: a floating input that sits at a fixed voltage.
                let sig: DeadMicrophoneSignature = hissOffset == hissRun ? .constantValue : .hiss
                deadSignature = sig
                return .silent(sig)
            }
        }
        // A faint hiss of any colour from the start, with nothing louder ever: a dead input's self-noise. Once
        // the source has sent anything louder (a quiet voice at -52 dBFS, a room at -75) its faint pauses are a
        // quiet room's, whatever their colour.
        if !heardAboveFaint, faintRun >= Int(c.colouredHissDuration * fps), faintHiss > 0 {
            let sig: DeadMicrophoneSignature = faintOffset == faintRun ? .constantValue : .hiss
            deadSignature = sig
            return .silent(sig)
        }
        return nil
    }
}

// libm (Math.swift says why this and not Foundation).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// Raises `typing` when the microphone hears a keyboard while the user is not speaking: the other
/// people in a call hear every keystroke of someone who forgot to mute.
///
/// A keystroke is a short broadband click: it rises at least ``Configuration/minimumRise`` dB above
/// the 22 ms before it within a few milliseconds, falls back within tens of milliseconds, and has its
/// energy spread over the band (a share within ``Configuration/highShare`` of it above 2 kHz, at most
/// ``Configuration/maximumLowShare`` below 300 Hz). Claps, kicks and doors put most of their energy low
/// and ring for longer; a bird's chirp or a hiss is almost all high. Typing is many such clicks: at
/// least ``Configuration/minimumKeystrokes`` within ``Configuration/window`` seconds, spread over at
/// least ``Configuration/minimumSpan`` seconds, with unequal levels (keys differ: a standard deviation
/// of ``Configuration/minimumLevelSpread`` dB or more), an uneven rhythm (a motor, a clock or a
/// wheel ticks evenly), and most of the clicks around them keystrokes (a fire's crackle and applause
/// make many clicks, few of them keystroke-like) with quiet between them (the keystrokes' median peak
/// ``Configuration/minimumContrast`` dB over the window's median level). A single clap, a door or a crash is never typing; applause and music rarely
/// leave 22 ms of quiet before a click.
///
/// Never decided while the user speaks: a keystroke heard while an utterance is open, or on a frame
/// whose speech probability is ``Configuration/maximumVoice`` or more, ends the stretch of typing, and
/// the counting starts again after the utterance. The event is raised once per stretch of typing (the
/// keystrokes, one at most ``Configuration/window`` seconds after the one before, outside speech) and
/// again every ``Configuration/repeatAfter`` seconds while the stretch goes on.
///
/// Clicks are judged on 1 ms blocks of the 16 kHz frames, 100 ms after their onset (the time a
/// keystroke's decay and what follows it take), so an event comes at most about 0.1 s after the
/// keystroke that completes the evidence.
///
/// - Complexity: O(1) per 1 ms block, O(100) per click candidate; everything is allocated once.
public struct KeyboardNoiseDetector: Sendable {
    /// What makes a keystroke and what makes typing (units as noted on each).
    public struct Configuration: Sendable, Equatable {
        /// dB above the 22 ms before it that a 1 ms block must rise to start a click.
        public var onsetRise: Float = 12
        /// A click's peak must rise this many dB above the 22 ms before it to be a keystroke.
        public var minimumRise: Float = 16
        /// Quieter blocks (dBFS) start no click.
        public var onsetLevel: Float = -65
        /// Longest attack, onset to peak, in ms.
        public var maximumAttack: Int = 7
        /// The decay (ms, from the peak until 20 dB below it or back near the level before it) of a
        /// keystroke lies in this range.
        public var decay: ClosedRange<Int> = 4...40
        /// The click's energy over the 100 ms from its onset, in ms at its peak power: a keystroke's is
        /// short; a ringing hit's or a sustained sound's is long.
        public var maximumDuration: Float = 40
        /// Share of the click's first 12 ms of energy above 2 kHz.
        public var highShare: ClosedRange<Float> = 0.2...0.8
        /// Largest share of the click's first 12 ms of energy below 300 Hz.
        public var maximumLowShare: Float = 0.08
        /// Seconds over which keystrokes are counted; also the longest gap inside a stretch of typing.
        public var window: Double = 2
        /// Keystrokes within ``window`` that make typing.
        public var minimumKeystrokes: Int = 7
        /// Seconds from the first to the last of them: typing has been heard this long.
        public var minimumSpan: Double = 1
        /// Smallest standard deviation (dB) of their peak levels.
        public var minimumLevelSpread: Float = 2
        /// Smallest spread of the intervals between them (median absolute deviation over the median).
        public var minimumRhythmSpread: Float = 0.1
        /// Smallest share of keystrokes among the clicks within ``window``: typing's clicks are mostly
        /// keystrokes; a crackling fire's or applause's mostly not.
        public var minimumKeystrokeShare: Float = 0.5
        /// dB from the median 1 ms level of the window up to the keystrokes' median peak: between
        /// keystrokes a room is quiet; a fire's crackle, applause or a machine fill the gaps.
        public var minimumContrast: Float = 24
        /// A keystroke on a frame at or above this speech probability is the user's speech.
        public var maximumVoice: Float = 0.5
        /// Seconds of continued typing after which the event is raised again.
        public var repeatAfter: Double = 10

        /// Settings with the defaults above.
        public init() {}
        /// The default settings.
        public static let `default` = Configuration()
    }

    /// Typing heard while the user is not speaking.
    public struct Typing: Sendable, Equatable {
        /// Keystrokes heard in this stretch of typing so far.
        public var keystrokes: Int
        /// Keystrokes a second over the last ``Configuration/window``.
        public var perSecond: Float
        /// The median peak level of those keystrokes (dBFS, over 1 ms).
        public var levelDB: Float
        /// When this stretch of typing began: its first keystroke's onset, seconds from the start.
        public var since: Double

        /// Typing with these figures.
        public init(keystrokes: Int, perSecond: Float, levelDB: Float, since: Double) {
            self.keystrokes = keystrokes
            self.perSecond = perSecond
            self.levelDB = levelDB
            self.since = since
        }
    }

    private struct Block {
        var energy: Float = 0, high: Float = 0, low: Float = 0
        var db: Float = -160
    }

    private struct Key {
        var time: Double = 0
        var peak: Float = 0
    }

    /// The 1 ms blocks kept: 22 before a candidate onset, 100 after it, a few to spare.
    private static let ringSize = 128
    private static let blockLength = 16
    private static let before = 24
    private static let after = 100
    private static let maximumKeys = 64

    /// The detector's settings.
    public let configuration: Configuration
    private var blocks: [Block]
    private var blockCount = 0
    /// The next block at which an onset may start (after the last click's decay).
    private var nextOnset = 0
    private var highPass: Biquad
    private var lowPass: Biquad
    /// Whether the user spoke (or the frame sounded like speech), per frame, for the last frames.
    private var voiced: [Bool]
    private var keys: [Key]
    /// The onset times of every click (keystroke or not) of the last window, a ring.
    private var clicks: [Double]
    private var clickHead = 0
    private var clickCount = 0
    private var keyHead = 0
    private var keyCount = 0
    private var scratch: [Float]
    private var stretchStart: Double?
    private var stretchKeys = 0
    private var lastKeyTime = -Double.infinity
    private var lastEvent: Double?
    private let startTime: Double
    /// The last window's 1 ms levels as 1 dB bins (0 for -160 dBFS and below … 160 for 0 dBFS), a ring,
    /// and their histogram.
    private var levelBins: [UInt8]
    private var levelHistogram: [Int]

    /// - Parameter startTime: the time of the first frame (seconds), as the analyzer's.
    public init(configuration: Configuration = .default, startTime: Double = 0) {
        self.configuration = configuration
        self.startTime = startTime
        blocks = [Block](repeating: Block(), count: Self.ringSize)
        highPass = Biquad.highPass(frequency: 2_000, sampleRate: 16_000)
        lowPass = Biquad.lowPass(frequency: 300, sampleRate: 16_000)
        voiced = [Bool](repeating: false, count: 16)
        keys = [Key](repeating: Key(), count: Self.maximumKeys)
        clicks = [Double](repeating: 0, count: Self.maximumKeys * 2)
        levelBins = [UInt8](repeating: 0, count: max(1, Int(configuration.window * 1000)))
        levelHistogram = [Int](repeating: 0, count: 161)
        levelHistogram[0] = levelBins.count
        scratch = [Float](repeating: 0, count: Self.maximumKeys)
    }

    /// Whether a stretch of typing is going on (keystrokes heard within the last window, outside speech).
    public var isTyping: Bool { stretchStart != nil }

    /// Feeds one 10 ms frame at 16 kHz.
    /// - Parameters:
    ///   - frame: the frame's samples.
    ///   - speaking: whether an utterance is open; `voice`: the frame's speech probability.
    ///   - time: the frame's start, in seconds.
    /// - Returns: typing, when it has been heard long enough now (at most every ``Configuration/repeatAfter``
    ///   seconds of a stretch).
    public mutating func process(
        frame: UnsafeBufferPointer<Float>, speaking: Bool, voice: Float, time: Double
    ) -> Typing? {
        let frameIndex = blockCount / 10
        voiced[frameIndex % voiced.count] = speaking || voice >= configuration.maximumVoice
        if speaking { endStretch() }
        var result: Typing?
        var start = 0
        while start + Self.blockLength <= frame.count {
            var e: Float = 0
            var h: Float = 0
            var l: Float = 0
            for i in start..<(start + Self.blockLength) {
                let x = frame[i]
                let hx = highPass.process(x)
                let lx = lowPass.process(x)
                e += x * x
                h += hx * hx
                l += lx * lx
            }
            let n = Float(Self.blockLength)
            let block = Block(energy: e / n, high: h / n, low: l / n, db: Self.db(e / n))
            blocks[blockCount % Self.ringSize] = block
            let bin = UInt8(max(0, min(160, (block.db + 160).rounded())))
            let slot = blockCount % levelBins.count
            levelHistogram[Int(levelBins[slot])] -= 1
            levelBins[slot] = bin
            levelHistogram[Int(bin)] += 1
            blockCount += 1
            start += Self.blockLength
            if let typing = judge(now: time, speaking: speaking) { result = typing }
        }
        if stretchStart != nil, time - lastKeyTime > configuration.window { endStretch() }
        return result
    }

    private mutating func endStretch() {
        stretchStart = nil
        stretchKeys = 0
        keyCount = 0
        clickCount = 0
        lastEvent = nil
    }

    /// Looks at the block ``after`` blocks back: an onset there is judged now, its 100 ms being known.
    private mutating func judge(now: Double, speaking: Bool) -> Typing? {
        let p = blockCount - 1 - Self.after
        guard p >= Self.before, p >= nextOnset else { return nil }
        let c = configuration
        var preEnergy: Float = 0
        for i in (p - Self.before)..<(p - 2) { preEnergy += blocks[i % Self.ringSize].energy }
        let pre = Self.db(preEnergy / Float(Self.before - 2))
        let onsetDB = blocks[p % Self.ringSize].db
        guard onsetDB - pre >= c.onsetRise, onsetDB >= c.onsetLevel else { return nil }
        // The peak within 12 ms, then the decay to 20 dB below it or to 4 dB over what came before.
        var peakIndex = p
        for i in p..<(p + 12) where blocks[i % Self.ringSize].db > blocks[peakIndex % Self.ringSize].db {
            peakIndex = i
        }
        let peak = blocks[peakIndex % Self.ringSize].db
        var end = peakIndex
        let last = blockCount - 1
        while end <= last, blocks[end % Self.ringSize].db > peak - 20, blocks[end % Self.ringSize].db > pre + 4 {
            end += 1
        }
        nextOnset = max(end, p + 15)
        var energy: Float = 0
        var high: Float = 0
        var low: Float = 0
        for i in p..<(p + 12) {
            let b = blocks[i % Self.ringSize]
            energy += b.energy
            high += b.high
            low += b.low
        }
        var total: Float = 0
        for i in p..<(p + Self.after) { total += blocks[i % Self.ringSize].energy }
        let peakEnergy = max(blocks[peakIndex % Self.ringSize].energy, 1e-16)
        let highShare = high / max(energy, 1e-16)
        let lowShare = low / max(energy, 1e-16)
        let isKeystroke =
            peakIndex - p <= c.maximumAttack && c.decay.contains(end - peakIndex)
            && c.highShare.contains(highShare) && lowShare <= c.maximumLowShare && peak - pre >= c.minimumRise
            && total / peakEnergy <= c.maximumDuration
        // The onset's frame, or now: the user speaking ends the stretch.
        let onsetTime = startTime + Double(p) / 1000
        let onsetFrame = p / 10
        if voiced[onsetFrame % voiced.count] || speaking {
            endStretch()
            return nil
        }
        if clickCount == clicks.count {
            clickHead = (clickHead + 1) % clicks.count
            clickCount -= 1
        }
        clicks[(clickHead + clickCount) % clicks.count] = onsetTime
        clickCount += 1
        guard isKeystroke else { return nil }
        return keystroke(at: onsetTime, peak: peak, now: now)
    }

    private mutating func keystroke(at t: Double, peak: Float, now: Double) -> Typing? {
        let c = configuration
        if stretchStart == nil || t - lastKeyTime > c.window {
            endStretch()
            stretchStart = t
        }
        lastKeyTime = t
        stretchKeys += 1
        if keyCount == keys.count {
            keyHead = (keyHead + 1) % keys.count
            keyCount -= 1
        }
        keys[(keyHead + keyCount) % keys.count] = Key(time: t, peak: peak)
        keyCount += 1
        while keyCount > 0, t - keys[keyHead].time > c.window {
            keyHead = (keyHead + 1) % keys.count
            keyCount -= 1
        }
        guard keyCount >= c.minimumKeystrokes else { return nil }
        let first = keys[keyHead].time
        guard t - first >= c.minimumSpan else { return nil }
        if let last = lastEvent, now - last < c.repeatAfter { return nil }
        while clickCount > 0, t - clicks[clickHead] > c.window {
            clickHead = (clickHead + 1) % clicks.count
            clickCount -= 1
        }
        guard Float(keyCount) >= c.minimumKeystrokeShare * Float(clickCount) else { return nil }
        // Unequal levels.
        var sum: Float = 0
        var squares: Float = 0
        for k in 0..<keyCount {
            let v = keys[(keyHead + k) % keys.count].peak
            sum += v
            squares += v * v
        }
        let n = Float(keyCount)
        let mean = sum / n
        guard (max(0, squares / n - mean * mean)).squareRoot() >= c.minimumLevelSpread else { return nil }
        // An uneven rhythm: the intervals' median absolute deviation over their median.
        let intervals = keyCount - 1
        for k in 0..<intervals {
            let a = keys[(keyHead + k) % keys.count].time
            let b = keys[(keyHead + k + 1) % keys.count].time
            scratch[k] = Float(b - a)
        }
        let median = Self.median(&scratch, count: intervals)
        guard median > 0 else { return nil }
        for k in 0..<intervals { scratch[k] = abs(scratch[k] - median) }
        let spread = Self.median(&scratch, count: intervals) / median
        guard spread >= c.minimumRhythmSpread else { return nil }
        for k in 0..<keyCount { scratch[k] = keys[(keyHead + k) % keys.count].peak }
        let level = Self.median(&scratch, count: keyCount)
        guard level - medianLevel >= c.minimumContrast else { return nil }
        lastEvent = now
        return Typing(
            keystrokes: stretchKeys, perSecond: Float(Double(keyCount) / c.window), levelDB: level,
            since: stretchStart ?? first)
    }

    /// The median 1 ms level of the last window (dBFS, to 1 dB).
    private var medianLevel: Float {
        let half = levelBins.count / 2
        var seen = 0
        for (bin, n) in levelHistogram.enumerated() {
            seen += n
            if seen > half { return Float(bin) - 160 }
        }
        return 0
    }

    /// The median of the first `count` values (sorted in place; insertion sort of at most 64).
    private static func median(_ values: inout [Float], count: Int) -> Float {
        guard count > 0 else { return 0 }
        for i in 1..<max(1, count) {
            let v = values[i]
            var j = i - 1
            while j >= 0, values[j] > v {
                values[j + 1] = values[j]
                j -= 1
            }
            values[j + 1] = v
        }
        return count % 2 == 1 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2
    }

    @inline(__always)
    private static func db(_ power: Float) -> Float { 10 * log10(power + 1e-16) }
}

/// A second-order IIR section (the RBJ cookbook's filters), direct form I.
struct Biquad: Sendable {
    var b0: Float, b1: Float, b2: Float, a1: Float, a2: Float
    var x1: Float = 0, x2: Float = 0, y1: Float = 0, y2: Float = 0

    static func highPass(frequency: Double, sampleRate: Double, q: Double = 0.5.squareRoot()) -> Biquad {
        let (c, alpha) = terms(frequency, sampleRate, q)
        return Biquad(normalising: [(1 + c) / 2, -(1 + c), (1 + c) / 2], [1 + alpha, -2 * c, 1 - alpha])
    }

    static func lowPass(frequency: Double, sampleRate: Double, q: Double = 0.5.squareRoot()) -> Biquad {
        let (c, alpha) = terms(frequency, sampleRate, q)
        return Biquad(normalising: [(1 - c) / 2, 1 - c, (1 - c) / 2], [1 + alpha, -2 * c, 1 - alpha])
    }

    private static func terms(_ f: Double, _ rate: Double, _ q: Double) -> (Double, Double) {
        let w = 2 * Double.pi * f / rate
        return (cos(w), sin(w) / (2 * q))
    }

    private init(normalising b: [Double], _ a: [Double]) {
        b0 = Float(b[0] / a[0])
        b1 = Float(b[1] / a[0])
        b2 = Float(b[2] / a[0])
        a1 = Float(a[1] / a[0])
        a2 = Float(a[2] / a[0])
    }

    @inline(__always)
    mutating func process(_ x: Float) -> Float {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        return y
    }
}

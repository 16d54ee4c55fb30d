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

/// Turns 10 ms frames of 16 kHz audio into the feature vector the voice activity model reads.
///
/// Each frame, a 32 ms Hann window ending at the frame's end is transformed; from its spectrum come
/// band energies over an adaptive per-band noise floor (so a steady fan or hum reads as 0 dB above the
/// floor), spectral shape (flatness, centroid, tilt, flux), and from its autocorrelation the
/// harmonicity and pitch. Recursive averages add about a second of context without a history buffer:
/// syllable-rate (2–8 Hz) modulation, how much the pitch moves, the share of voiced frames, and how
/// much the level varies. These are what separate speech from music, machines and clicks. Then come
/// the 16 band levels relative to their mean (the spectral envelope's shape), and last how fast the
/// pattern of bands above the noise floor changes over 40 and 100 ms: speech moves from phoneme to
/// phoneme, while a held note, a sung vowel or an animal's bleat keeps its shape.
///
/// - Complexity: a 512-point and a 256-point real FFT and O(bands) work per frame; nothing is
///   allocated after `init`. Look-ahead: none.
public struct VoiceFeatureExtractor: Sendable {
    /// Number of features per frame, with the articulation features (47–49).
    public static let count = 50
    /// The features before the articulation features, which models trained before them read (the
    /// bundled model reads all ``count``). Given room for only these, ``process(frame:into:)`` skips the
    /// articulation features' work.
    public static let coreCount = 47

    /// The features' names, in their order: the layout that a model file names (`featureNames`) and
    /// training reads (`miccheck features --names`).
    public static let names: [String] = {
        var n = [
            "level", "mean_snr", "speech_snr", "max_snr", "harmonicity", "pitch", "band_flatness", "centroid", "tilt",
            "flux",
        ]
        n += (0..<8).map { "band_pair_snr_\($0)" }
        n += [
            "harmonicity_fast", "harmonicity_slow", "voiced_share", "pitch_movement", "syllable_modulation",
            "snr_short", "snr_long", "flux_average", "snr_variance", "level_deviation",
        ]
        n += (0..<16).map { "band_shape_\($0)" }
        n += [
            "shape_change_fast", "shape_change_slow", "shape_change_short", "voicing_flips", "contrast_modulation",
            "consonant_share",
        ]
        return n
    }()

    /// Whether a model reading `n` features can run on this extractor: all of them, or the core ones.
    public static func supports(featureCount n: Int) -> Bool { n == count || n == coreCount }
    /// Samples per frame (10 ms at 16 kHz).
    public static let frameLength = 160
    /// Analysis window (32 ms at 16 kHz).
    public static let windowLength = 512
    /// Sample rate of the frames, Hz (16 kHz).
    public static let sampleRate = 16_000
    static let bandCount = 16

    private var fft = RealFFT(size: windowLength)
    /// Half the window's size: the autocorrelation only needs 0–4 kHz, so it is taken at 8 kHz (even lags).
    private var acFFT = RealFFT(size: windowLength / 2)
    private let window: [Float]
    private let windowAC: [Float]  // autocorrelation of the window, normalised, per lag
    private let bandStart: [Int]
    private let bandEnd: [Int]
    private let powerScale: Float
    private var signal: [Float]
    private var scratch: [Float]
    private var power: [Float]
    private var bandDB: [Float]
    private var floorDB: [Float]
    private var previousBandDB: [Float]
    private var started = false
    // Recursive context.
    private var harmFast: Float = 0
    private var harmSlow: Float = 0
    private var voicedShare: Float = 0
    private var pitchMove: Float = 0
    private var lastLag: Float = 0
    private var modFast: Float = 0
    private var modSlow: Float = 0
    private var modulation: Float = 0
    private var snrShort: Float = 0
    private var snrLong: Float = 0
    private var fluxAvg: Float = 0
    private var snrVariance: Float = 0
    private var levelAvg: Float = -100
    /// Each band's level above its floor (dB), minus their mean, for the last ``historyFrames`` frames.
    private var snrHistory: [Float]
    private var historyHead = 0
    private var shapeChangeFast: Float = 0
    private var shapeChangeSlow: Float = 0
    private var shapeChangeShort: Float = 0
    static let historyFrames = 11
    /// Bands 3.25–7.6 kHz (fricatives) and 340–1190 Hz (the first formant).
    static let fricativeBands = 11..<16
    static let formantBands = 2..<6
    // Articulation: consonant-vowel alternation.
    /// Whether the current frame is voiced (harmonicity above 0.45), and whether the one before was.
    private var voiced: Float = 0
    private var previousVoiced: Float = 0
    private var voicingFlips: Float = 0
    private var contrastFast: Float = 0
    private var contrastSlow: Float = 0
    private var contrastModulation: Float = 0
    private var consonantShare: Float = 0

    /// Level of the last frame's window in dBFS over 80–7600 Hz.
    public private(set) var levelDB: Float = Decibels.floor
    /// Flatness of the last frame's band spectrum: 1 for white noise, lower for coloured sound.
    public private(set) var bandFlatness: Float = 0
    /// Harmonicity of the last frame: the window-corrected normalised autocorrelation peak, 0…1.
    public private(set) var harmonicity: Float = 0

    /// The last frame's level in band `band` (0..<16, mel-spaced from 80 to 7600 Hz), dBFS (floor -120).
    public func bandLevelDB(_ band: Int) -> Float { bandDB[band] }
    /// The number of bands ``bandLevelDB(_:)`` reads.
    public static var bands: Int { bandCount }

    static let minLag = 32  // 500 Hz
    static let maxLag = 200  // 80 Hz

    /// An extractor at the start of a stream: no history, its noise floors not yet learnt.
    public init() {
        let n = Self.windowLength
        window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * (Double($0) + 0.5) / Double(n))) }
        // Circular autocorrelation of the window, to undo its taper on the signal's autocorrelation.
        var wac = [Float](repeating: 0, count: n / 2 + 1)
        for lag in 0...(n / 2) {
            var s = 0.0
            for i in 0..<n { s += Double(window[i]) * Double(window[(i + lag) % n]) }
            wac[lag] = Float(s)
        }
        let w0 = wac[0]
        windowAC = wac.map { $0 / w0 }
        let sumW2 = window.reduce(0) { $0 + $1 * $1 }
        powerScale = 2 / (Float(n) * sumW2)
        // Mel-spaced bands from 80 to 7600 Hz.
        let mel = { (f: Double) in 2595 * log10(1 + f / 700) }
        let hz = { (m: Double) in 700 * (pow(10, m / 2595) - 1) }
        let lo = mel(80)
        let hi = mel(7600)
        let binHz = Double(Self.sampleRate) / Double(n)
        var edges = (0...Self.bandCount).map {
            Int((hz(lo + (hi - lo) * Double($0) / Double(Self.bandCount)) / binHz).rounded())
        }
        for i in 1..<edges.count where edges[i] <= edges[i - 1] { edges[i] = edges[i - 1] + 1 }
        bandStart = Array(edges[0..<Self.bandCount])
        bandEnd = Array(edges[1...])
        signal = [Float](repeating: 0, count: n)
        scratch = [Float](repeating: 0, count: n)
        power = [Float](repeating: 0, count: n / 2 + 1)
        bandDB = [Float](repeating: -120, count: Self.bandCount)
        floorDB = [Float](repeating: -120, count: Self.bandCount)
        previousBandDB = [Float](repeating: -120, count: Self.bandCount)
        snrHistory = [Float](repeating: 0, count: Self.bandCount * Self.historyFrames)
    }

    /// Consumes one frame of ``frameLength`` samples; writes ``count`` features into `features`, or
    /// ``coreCount`` when it has room for no more.
    public mutating func process(frame: UnsafeBufferPointer<Float>, into features: UnsafeMutableBufferPointer<Float>) {
        precondition(frame.count == Self.frameLength && features.count >= Self.coreCount)
        let n = Self.windowLength
        let hop = Self.frameLength
        // Slide the analysis window by one frame.
        signal.withUnsafeMutableBufferPointer { s in
            guard let base = s.baseAddress, let new = frame.baseAddress else { return }  // n > hop > 0
            base.update(from: base + hop, count: n - hop)  // overlapping, front to back: a memmove
            (base + (n - hop)).update(from: new, count: hop)
        }
        scratch.withUnsafeMutableBufferPointer { sc in
            signal.withUnsafeBufferPointer { s in
                window.withUnsafeBufferPointer { w in
                    for i in 0..<n { sc[i] = s[i] * w[i] }
                }
            }
        }
        scratch.withUnsafeBufferPointer { fft.transform($0) }
        let scale = powerScale
        power.withUnsafeMutableBufferPointer { p in
            fft.real.withUnsafeBufferPointer { re in
                fft.imaginary.withUnsafeBufferPointer { im in
                    for k in 0...(n / 2) { p[k] = (re[k] * re[k] + im[k] * im[k]) * scale }
                }
            }
        }
        harmonicityAndLag()
        bandFeatures(into: features)
    }

    /// Autocorrelation through the FFT of the power spectrum; harmonicity and pitch lag.
    ///
    /// Only 80–4000 Hz carries the voice's harmonics, so only those bins enter. A spectrum limited to
    /// 4 kHz has an autocorrelation that is exact at even lags from a transform of half the size
    /// (bins 0…128 of 256, the shared 4 kHz bin counted for both signs); the peak between even lags is
    /// found by parabolic interpolation.
    private mutating func harmonicityAndLag() {
        let m = Self.windowLength / 2
        let loBin = 3
        let hiBin = m / 2
        scratch.withUnsafeMutableBufferPointer { sc in
            power.withUnsafeBufferPointer { p in
                // Bins below loBin and their mirror images stay zero; the rest is written below.
                for k in 0..<loBin { sc[k] = 0 }
                for k in (m - loBin + 1)..<m { sc[k] = 0 }
                for k in loBin..<hiBin {
                    sc[k] = p[k]
                    sc[m - k] = p[k]
                }
                sc[hiBin] = 2 * p[hiBin]
            }
        }
        scratch.withUnsafeBufferPointer { acFFT.transform(UnsafeBufferPointer(rebasing: $0[0..<m])) }
        var best: Float = 0
        var bestLag: Float = 0
        acFFT.real.withUnsafeBufferPointer { r in
            windowAC.withUnsafeBufferPointer { wac in
                let r0 = r[0]
                guard r0 > 1e-12 else { return }
                for half in (Self.minLag / 2)...(Self.maxLag / 2) {
                    let a = r[half - 1]
                    let b = r[half]
                    let c = r[half + 1]
                    guard b >= a, b >= c else { continue }
                    // Vertex of the parabola through the three even lags around the peak.
                    let curve = a - 2 * b + c
                    let shift: Float = curve < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / curve)) : 0
                    let peak = b - 0.25 * (a - c) * shift
                    let lag = 2 * (Float(half) + shift)
                    let index = min(Int(lag + 0.5), wac.count - 1)  // lag > 0: rounds half away from zero, as rounded()
                    let v = peak / (r0 * wac[index])
                    if v > best {
                        best = v
                        bestLag = lag
                    }
                }
            }
        }
        harmonicity = min(1, max(0, best))
        let h = harmonicity
        harmFast += 0.1 * (h - harmFast)
        harmSlow += 0.02 * (h - harmSlow)
        voiced = h > 0.45 ? 1 : 0
        voicedShare += 0.02 * (voiced - voicedShare)
        if voiced > 0, bestLag > 0 {
            let lag = bestLag
            if lastLag > 0 {
                let move = min(0.5, abs(log2(lag / lastLag)))
                pitchMove += 0.05 * (move - pitchMove)
            }
            lastLag = lag
        } else {
            lastLag = 0
        }
    }

    private mutating func bandFeatures(into f: UnsafeMutableBufferPointer<Float>) {
        let bands = Self.bandCount
        var total: Float = 0
        var low: Float = 0
        var high: Float = 0
        var centroidNum: Float = 0
        var logSum: Float = 0
        var linSum: Float = 0
        let binHz = Float(Self.sampleRate) / Float(Self.windowLength)
        power.withUnsafeBufferPointer { p in
            bandDB.withUnsafeMutableBufferPointer { bdb in
                bandStart.withUnsafeBufferPointer { start in
                    bandEnd.withUnsafeBufferPointer { end in
                        for b in 0..<bands {
                            var e: Float = 0
                            for k in start[b]..<end[b] {
                                e += p[k]
                                centroidNum += p[k] * Float(k) * binHz
                            }
                            total += e
                            if Float(end[b]) * binHz <= 1000 { low += e } else { high += e }
                            let perBin = e / Float(end[b] - start[b]) + 1e-14
                            logSum += log(perBin)
                            linSum += perBin
                            bdb[b] = max(-120, 10 * log10(e + 1e-12))
                        }
                    }
                }
            }
        }
        levelDB = total > 0 ? max(Decibels.floor, 10 * log10(total)) : Decibels.floor
        let level = max(-120, levelDB)
        bandFlatness = exp(logSum / Float(bands)) / (linSum / Float(bands))
        if !started {
            started = true
            for b in 0..<bands {
                floorDB[b] = bandDB[b]
                previousBandDB[b] = bandDB[b]
            }
        }
        var snrSum: Float = 0
        var snrSpeech: Float = 0
        var snrMax: Float = 0
        var flux: Float = 0
        var speechBands: Float = 0
        var fricativeSNR: Float = 0
        var formantSNR: Float = 0
        var prevSNR: Float = 0
        let head = historyHead * bands
        // One exclusive access per buffer for the whole loop (no copy-on-write check per element).
        floorDB.withUnsafeMutableBufferPointer { floor in
            previousBandDB.withUnsafeMutableBufferPointer { previous in
                snrHistory.withUnsafeMutableBufferPointer { history in
                    bandDB.withUnsafeBufferPointer { bdb in
                        bandStart.withUnsafeBufferPointer { start in
                            for b in 0..<bands {
                                let e = bdb[b]
                                var fl = floor[b]
                                if e < fl {
                                    fl += 0.3 * (e - fl)
                                } else {
                                    fl += max(0.01, 0.002 * (e - fl))
                                    fl = min(fl, e)
                                }
                                floor[b] = fl
                                let snr = min(60, max(0, e - fl))
                                snrSum += snr
                                snrMax = max(snrMax, snr)
                                let lo = Float(start[b]) * binHz
                                if lo >= 250, lo < 3400 {
                                    snrSpeech += snr
                                    speechBands += 1
                                }
                                if Self.fricativeBands.contains(b) {
                                    fricativeSNR += snr
                                } else if Self.formantBands.contains(b) {
                                    formantSNR += snr
                                }
                                flux += max(0, e - previous[b])
                                previous[b] = e
                                if b % 2 == 1 { f[10 + b / 2] = (snr + prevSNR) / 40 } else { prevSNR = snr }
                                history[head + b] = snr
                            }
                        }
                    }
                }
            }
        }
        let meanSNR = snrSum / Float(bands)
        let speechSNR = snrSpeech / max(1, speechBands)
        flux /= Float(bands)
        // Context.
        modFast += 0.4 * (speechSNR - modFast)
        modSlow += 0.05 * (speechSNR - modSlow)
        let d = modFast - modSlow
        modulation += 0.02 * (d * d - modulation)
        snrShort += 0.033 * (speechSNR - snrShort)
        snrLong += 0.01 * (speechSNR - snrLong)
        fluxAvg += 0.033 * (flux - fluxAvg)
        let dv = speechSNR - snrLong
        snrVariance += 0.02 * (dv * dv - snrVariance)
        levelAvg += 0.01 * (level - levelAvg)

        f[0] = (level + 50) / 25
        f[1] = meanSNR / 20
        f[2] = speechSNR / 20
        f[3] = snrMax / 30
        f[4] = harmonicity
        f[5] = lastLag > 0 ? log2(Float(Self.sampleRate) / lastLag / 200) : 0
        f[6] = bandFlatness
        f[7] = total > 0 ? centroidNum / total / 4000 : 0
        f[8] = (10 * log10(low + 1e-12) - 10 * log10(high + 1e-12)) / 20
        f[9] = flux / 10
        f[18] = harmFast
        f[19] = harmSlow
        f[20] = voicedShare
        f[21] = pitchMove * 10
        f[22] = min(4, modulation / 100)
        f[23] = snrShort / 20
        f[24] = snrLong / 20
        f[25] = fluxAvg / 10
        f[26] = min(4, snrVariance / 100)
        f[27] = (level - levelAvg) / 20
        shapeChanges(bands: bands, meanSNR: meanSNR, into: f)
        if f.count >= Self.count {
            articulation(
                fricativeSNR: fricativeSNR / Float(Self.fricativeBands.count),
                formantSNR: formantSNR / Float(Self.formantBands.count), into: f)
        }
        // Spectral shape: each band's level relative to the frame's mean band level.
        var meanBand: Float = 0
        for b in 0..<bands { meanBand += bandDB[b] }
        meanBand /= Float(bands)
        for b in 0..<bands { f[28 + b] = (bandDB[b] - meanBand) / 20 }
    }

    /// Features 47–49: how speech alternates between vowels and consonants, which a call, a bleat or a
    /// held note does not. Over about a second: how often the frame flips between voiced and unvoiced;
    /// the 1–6 Hz modulation of the contrast between the fricative bands (3.25–7.6 kHz) and the first
    /// formant's (340–1190 Hz), both over their floors; and the share of frames that are unvoiced with
    /// the fricative bands above their floor and evenly filled (noise-like, as /s/, /f/, /t/), not one
    /// band's tone as a bird's chirp.
    /// `fricativeSNR` and `formantSNR`: the mean level over the floor (dB) of those bands this frame.
    private mutating func articulation(
        fricativeSNR high: Float, formantSNR low: Float, into f: UnsafeMutableBufferPointer<Float>
    ) {
        voicingFlips += 0.02 * (abs(voiced - previousVoiced) - voicingFlips)
        previousVoiced = voiced
        var highMax: Float = -120
        var highMean: Float = 0
        bandDB.withUnsafeBufferPointer { level in
            for b in Self.fricativeBands {
                highMax = max(highMax, level[b])
                highMean += level[b]
            }
        }
        highMean /= Float(Self.fricativeBands.count)
        let contrast = high - low
        contrastFast += 0.4 * (contrast - contrastFast)
        contrastSlow += 0.05 * (contrast - contrastSlow)
        let d = contrastFast - contrastSlow
        contrastModulation += 0.02 * (d * d - contrastModulation)
        let consonant: Float = voiced == 0 && high > 6 && high > low && highMax - highMean < 6 ? 1 : 0
        consonantShare += 0.02 * (consonant - consonantShare)
        f[47] = voicingFlips * 10
        f[48] = min(4, contrastModulation / 100)
        f[49] = consonantShare * 4
    }

    /// Features 44–46: the RMS change (dB) of the above-floor band pattern, its mean removed, against
    /// 100 ms ago (averaged over about 150 ms and 1 s) and 40 ms ago (about 150 ms).
    private mutating func shapeChanges(bands: Int, meanSNR: Float, into f: UnsafeMutableBufferPointer<Float>) {
        let frames = Self.historyFrames
        let now = historyHead * bands
        let past = (historyHead + 1) % frames * bands  // 100 ms ago: the oldest kept
        let recent = (historyHead + frames - 4) % frames * bands  // 40 ms ago
        var far: Float = 0
        var near: Float = 0
        snrHistory.withUnsafeMutableBufferPointer { h in
            for b in 0..<bands {
                h[now + b] -= meanSNR
                let x = h[now + b]
                far += (x - h[past + b]) * (x - h[past + b])
                near += (x - h[recent + b]) * (x - h[recent + b])
            }
        }
        far = (far / Float(bands)).squareRoot()
        near = (near / Float(bands)).squareRoot()
        shapeChangeFast += 0.066 * (far - shapeChangeFast)
        shapeChangeSlow += 0.01 * (far - shapeChangeSlow)
        shapeChangeShort += 0.066 * (near - shapeChangeShort)
        historyHead = (historyHead + 1) % frames
        f[44] = shapeChangeFast / 10
        f[45] = shapeChangeSlow / 10
        f[46] = shapeChangeShort / 10
    }
}

import Foundation

/// Finds how long the loudspeaker's sound takes to come back through the microphone, from the two
/// signals' energy envelopes, so that the echo canceller can be told.
///
/// The legacy canceller in webrtc-audio-processing 0.3 adapts a filter of about 64 ms (extended:
/// about 130 ms) after the far end it is handed, and its delay-agnostic mode moves that window
/// only a few tens of ms: an echo 200 ms late loses 2-3 dB. Desktop echo paths run from 20 to 300
/// ms and more. This estimator measures the delay; ``VoiceProcessingStream`` hands the canceller
/// the far end that much later.
///
/// Each 10 ms frame, the log energy of each signal minus its own running mean (about 100 ms) is an
/// envelope that rises at every syllable. The near envelope is correlated with the far envelope at
/// every lag from 0 to ``maximumLag`` frames, over frames where the far end is playing, with a
/// forgetting factor of about 2 s. A lag is taken once the far end has played ``minimumEvidence``
/// frames and the lag has been the best, with a normalized correlation of at least 0.9 (0.8 after
/// 1 s of far-end sound, 0.7 after 2 s), for ``confirmationFrames`` frames in a row. An echo
/// scores 0.97-0.99 (0.7 in room noise as loud as the echo); two unrelated voices reach 1.0 over
/// their first syllable, 0.6-0.7 over the first two seconds, and less after. Double talk lowers
/// the score below all three, so it leaves a delay found before it where it was. On the corpus's
/// voices a delay is found 0.5 s after the far end starts talking.
///
/// Cost per frame: two mean squares over the frames and 3 multiply-adds per lag. Nothing is
/// allocated after `init`.
public struct EchoDelayEstimator: Sendable {
    /// The longest delay looked for, in 10 ms frames (webrtc-audio-processing accepts a stated delay
    /// of at most 500 ms).
    public static let maximumLag = 49
    /// The normalized correlation a lag needs after 2 s (200 frames) of far-end sound.
    public static let minimumCorrelation: Float = 0.7
    /// The normalized correlation a lag needs after 1 s (100 frames) of far-end sound.
    public static let laterCorrelation: Float = 0.8
    /// The normalized correlation a lag needs in the first second of far-end sound.
    public static let earlyCorrelation: Float = 0.9
    /// Frames of far-end sound (0.3 s) before any lag is taken.
    public static let minimumEvidence: Float = 30
    /// Frames of far-end sound after which a lag needs only ``laterCorrelation``, then only
    /// ``minimumCorrelation``; ``evidence`` stops counting at `evidenceLimit`.
    private static let laterEvidence: Float = 100
    private static let settledEvidence: Float = 200
    private static let evidenceLimit: Float = 300
    /// Frames in a row (200 ms) a lag must be the best, at the correlation needed, before it is taken.
    public static let confirmationFrames = 20

    /// The delay found, in ms (a multiple of 10), or nil until one is found.
    public private(set) var delayMilliseconds: Int?
    /// The best-correlated lag on the last frame (in frames, -1 for none), its normalized
    /// correlation, and how many frames of far-end sound the correlations hold (at most 300).
    public private(set) var bestLag = -1
    /// The normalized correlation of `bestLag` on the last frame (0 when there is none).
    public private(set) var bestCorrelation: Float = 0
    /// How many frames of far-end sound the correlations hold (at most 300).
    public private(set) var evidence: Float = 0

    private static let forgetting: Float = 0.995
    private static let meanFollow: Float = 0.1
    /// Far frames quieter than this (-60 dBFS, as a mean square) are not playing.
    private static let activeFarPower: Float = 1e-6

    private var farEnvelope: [Float]
    private var farActive: [Bool]
    private var newest = 0
    private var correlation: [Float]
    private var farPower: [Float]
    private var nearPower: [Float]
    private var farMean: Float?
    private var nearMean: Float?
    private var candidate = -1
    private var candidateFrames = 0

    /// An estimator that has seen nothing yet, with no delay found.
    public init() {
        let n = Self.maximumLag + 1
        farEnvelope = [Float](repeating: 0, count: n)
        farActive = [Bool](repeating: false, count: n)
        correlation = [Float](repeating: 0, count: n)
        farPower = [Float](repeating: 0, count: n)
        nearPower = [Float](repeating: 0, count: n)
    }

    /// Adds one pair of frames: the far end as handed to the canceller and the near end as captured
    /// (before processing), of any equal length.
    public mutating func add(far: UnsafeBufferPointer<Float>, near: UnsafeBufferPointer<Float>) {
        let farSquare = Self.meanSquare(far)
        let nearSquare = Self.meanSquare(near)
        let farLevel = Self.log10(farSquare)
        let nearLevel = Self.log10(nearSquare)
        let fm = (farMean ?? farLevel) + Self.meanFollow * (farLevel - (farMean ?? farLevel))
        let nm = (nearMean ?? nearLevel) + Self.meanFollow * (nearLevel - (nearMean ?? nearLevel))
        (farMean, nearMean) = (fm, nm)
        let n = farEnvelope.count
        newest = (newest + 1) % n
        farEnvelope[newest] = farLevel - fm
        farActive[newest] = farSquare > Self.activeFarPower
        if farActive[newest] { evidence = min(evidence + 1, Self.evidenceLimit) }
        let nearValue = nearLevel - nm
        var best = -1
        var bestScore: Float = 0
        for lag in 0..<n {
            let slot = (newest - lag + n) % n
            guard farActive[slot] else { continue }
            let f = farEnvelope[slot]
            correlation[lag] = Self.forgetting * correlation[lag] + nearValue * f
            farPower[lag] = Self.forgetting * farPower[lag] + f * f
            nearPower[lag] = Self.forgetting * nearPower[lag] + nearValue * nearValue
            // A near end that barely moves (digital silence, a steady hum) correlates with anything:
            // its power is floored at what 1 dB of movement over 100 frames gives.
            let denominator = (farPower[lag] * max(nearPower[lag], 1)).squareRoot()
            let score = denominator > 0 ? correlation[lag] / denominator : 0
            if score > bestScore { (best, bestScore) = (lag, score) }
        }
        (bestLag, bestCorrelation) = (best, bestScore)
        // Over a second or two, a chance likeness between two voices at one of 50 lags can reach 0.6:
        // ask for more while the evidence is short.
        let required =
            evidence < Self.laterEvidence
            ? Self.earlyCorrelation
            : evidence < Self.settledEvidence ? Self.laterCorrelation : Self.minimumCorrelation
        guard evidence >= Self.minimumEvidence, best >= 0, bestScore >= required else {
            candidateFrames = 0
            return
        }
        if best == candidate {
            candidateFrames += 1
        } else {
            (candidate, candidateFrames) = (best, 1)
        }
        if candidateFrames >= Self.confirmationFrames { delayMilliseconds = candidate * 10 }
    }

    private static func meanSquare(_ x: UnsafeBufferPointer<Float>) -> Float {
        guard !x.isEmpty else { return 0 }
        var sum: Float = 0
        for v in x { sum += v * v }
        return sum / Float(x.count)
    }

    /// log10 of a mean square, floored at -100 dB.
    private static func log10(_ power: Float) -> Float {
        Float(Foundation.log10(Double(max(power, 1e-10))))
    }
}

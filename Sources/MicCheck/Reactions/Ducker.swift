import Foundation

/// How much other audio is lowered during a call, as phones offer it: `default` leaves it as it
/// is, each step lowers it about 10 dB more. With advanced ducking, audio is lowered a further
/// ``DuckingLevel/speechExtraDB`` while someone speaks, and comes back when nobody does.
public enum DuckingLevel: String, Sendable, CaseIterable {
    /// `default` lowers nothing; `min`, `mid` and `max` lower other audio by 10, 20 and 30 dB.
    case `default`, min, mid, max

    /// Steady attenuation, in dB.
    public var attenuationDB: Double {
        switch self {
        case .default: 0
        case .min: 10
        case .mid: 20
        case .max: 30
        }
    }

    /// Attenuation added while someone speaks, with advanced ducking.
    public static let speechExtraDB = 10.0

    /// The attenuation to apply, in dB.
    public func attenuationDB(advanced: Bool, someoneSpeaking: Bool) -> Double {
        attenuationDB + (advanced && someoneSpeaking ? Self.speechExtraDB : 0)
    }
}

/// A gain envelope that ducks an app's own mix (the call's ringtone, a shared video) without clicks:
/// the gain moves from one level to the next along a straight line in dB, over ``attack`` seconds
/// when ducking deeper and ``release`` seconds when coming back.
///
/// - Complexity: one multiplication per sample; no allocation, no `pow` per sample.
public struct Ducker: Sendable {
    /// The rate of the samples it attenuates (Hz).
    public let sampleRate: Int
    /// Seconds to reach a deeper attenuation.
    public let attack: Double
    /// Seconds to come back from one.
    public let release: Double
    /// Attenuation the gain is heading for, in dB (0 or more).
    public private(set) var targetDB: Double = 0
    /// The gain applied to the next sample (1 = unchanged).
    public private(set) var gain: Float = 1
    private var step: Float = 1
    private var remaining = 0
    private var targetGain: Float = 1

    /// - Parameters:
    ///   - attack: seconds to duck (default 50 ms: quick, yet longer than one cycle at 20 Hz).
    ///   - release: seconds to come back (default 600 ms, as broadcast duckers do).
    public init(sampleRate: Int, attack: Double = 0.05, release: Double = 0.6) {
        precondition(sampleRate > 0 && attack >= 0 && release >= 0)
        self.sampleRate = sampleRate
        self.attack = attack
        self.release = release
    }

    /// The current attenuation in dB.
    public var attenuationDB: Double { gain >= 1 ? 0 : -20 * log10(Double(gain)) }

    /// Heads for `decibels` of attenuation (clamped to 0…120).
    public mutating func duck(by decibels: Double) {
        let target = Swift.min(120, Swift.max(0, decibels.isFinite ? decibels : 0))
        guard target != targetDB else { return }
        targetDB = target
        targetGain = Float(pow(10, -target / 20))
        let deeper = targetGain < gain
        let samples = Int(((deeper ? attack : release) * Double(sampleRate)).rounded())
        if samples <= 0 || gain <= 0 {
            gain = targetGain
            remaining = 0
            return
        }
        // Equal ratios per sample: a straight line in dB.
        step = Float(pow(Double(targetGain) / Double(gain), 1 / Double(samples)))
        remaining = samples
    }

    /// Applies the envelope to `samples` in place.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Float>) {
        var i = 0
        while i < samples.count && remaining > 0 {
            samples[i] *= gain
            gain *= step
            remaining -= 1
            if remaining == 0 { gain = targetGain }
            i += 1
        }
        if i < samples.count && gain != 1 {
            let g = gain
            while i < samples.count {
                samples[i] *= g
                i += 1
            }
        }
    }
}

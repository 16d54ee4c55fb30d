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

/// Conversions between linear values and decibels relative to full scale.
public enum Decibels {
    /// The lowest level MicCheck reports: digital silence reads as this, never as -infinity.
    public static let floor: Float = -160

    /// Level in dBFS of a mean square value (full-scale square wave = 0 dBFS, full-scale sine = -3.01).
    @inline(__always)
    public static func fromPower(_ meanSquare: Double) -> Float {
        guard meanSquare > 0 else { return floor }
        return max(floor, Float(10 * log10(meanSquare)))
    }

    /// Level in dBFS of an amplitude (full scale = 1).
    @inline(__always)
    public static func fromAmplitude(_ amplitude: Double) -> Float {
        guard amplitude > 0 else { return floor }
        return max(floor, Float(20 * log10(amplitude)))
    }

    /// Mean square (linear power) of a level in dBFS; 0 at or below ``floor``.
    @inline(__always)
    public static func power(_ dB: Float) -> Float { dB <= floor ? 0 : Float(pow(10, Double(dB) / 10)) }

    /// Linear amplitude of a level in dBFS.
    public static func amplitude(_ dB: Double) -> Double { pow(10, dB / 20) }

    /// A level in dBFS as 0…1 for display, the way phone SDKs do: −50 dB and below is 0, 0 dB is 1, linear
    /// in between.
    public static func displayLevel(_ decibels: Float) -> Float {
        guard decibels.isFinite else { return decibels > 0 ? 1 : 0 }
        return min(1, max(0, (decibels + 50) / 50))
    }
}

public import MicCheckCall

/// A clock that moves only when told: tests advance it instead of sleeping.
public struct ManualClock: CallClock {
    /// Seconds since the clock's start; moves only with `advance(by:)`.
    public private(set) var now: Double

    /// A clock that reads `now` seconds (default 0).
    public init(now: Double = 0) { self.now = now }

    /// Moves the clock forward by `seconds` (never back).
    public mutating func advance(by seconds: Double) { now += max(0, seconds) }
}

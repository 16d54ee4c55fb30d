/// The time the call models are given, in seconds from an arbitrary start.
///
/// The models themselves read no clock: every transition that depends on time takes `at:`. A UI
/// reads its `CallClock` once per event and passes the reading on, so tests drive the same code with a
/// manual clock (`MicCheckTesting.ManualClock`) and never sleep.
public protocol CallClock: Sendable {
    /// Seconds since this clock's start; never goes back.
    var now: Double { get }
}

/// The real clock: seconds since it was made, on the system's monotonic clock.
public struct ContinuousCallClock: CallClock {
    private let start: ContinuousClock.Instant

    /// A clock that reads 0 now.
    public init() { start = ContinuousClock.now }

    /// Seconds since the clock was made.
    public var now: Double {
        let d = start.duration(to: ContinuousClock.now)
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}

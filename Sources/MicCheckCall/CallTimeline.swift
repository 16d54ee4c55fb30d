internal import MicCheck

/// The time the call models are given: seconds since the timeline began, read from any `Clock`.
///
/// The models themselves read no clock: every transition that depends on time takes `at:`, in seconds on
/// the same axis as the analysis's events (`AnalysisEvent` times are seconds since the
/// stream began). A UI makes one timeline, reads ``now`` once per event and passes the reading on. A test
/// makes its timeline on a clock it moves by hand (`MicCheckTesting.ManualClock`), so it drives the same
/// code without sleeping.
///
/// ```swift
/// let timeline = CallTimeline()  // the system's continuous clock
/// var session = CallSession(
///     call: call, localUser: me, permissions: permissions, microphoneName: "Built-in", at: timeline.now)
/// let events = session.handle(.join, at: timeline.now)
/// ```
public struct CallTimeline<C: Clock>: Sendable where C.Duration == Duration {
    /// The clock read.
    public let clock: C
    /// The clock's reading at which the timeline reads 0.
    public let start: C.Instant

    /// A timeline that reads 0 at `start` (default: the clock's reading now).
    public init(clock: C, start: C.Instant? = nil) {
        self.clock = clock
        self.start = start ?? clock.now
    }

    /// Seconds since ``start``, for the models' `at:`.
    public var now: Double { seconds(at: clock.now) }

    /// Seconds from ``start`` to `instant` (negative before it).
    public func seconds(at instant: C.Instant) -> Double { start.duration(to: instant).seconds }
}

extension CallTimeline where C == ContinuousClock {
    /// A timeline on the system's continuous clock that reads 0 now.
    public init() { self.init(clock: ContinuousClock()) }
}

/// The time the call models are given, in seconds from an arbitrary start.
@available(*, deprecated, message: "Use CallTimeline(clock:), which reads any Clock")
public protocol CallClock: Sendable {
    /// Seconds since this clock's start; never goes back.
    var now: Double { get }
}

/// The real clock: seconds since it was made, on the system's monotonic clock.
@available(*, deprecated, message: "Use CallTimeline(), which reads the same ContinuousClock")
public struct ContinuousCallClock: CallClock {
    private let timeline = CallTimeline()

    /// A clock that reads 0 now.
    public init() {}

    /// Seconds since the clock was made.
    public var now: Double { timeline.now }
}

import MicCheck
import Synchronization

/// A reading of a test's clock: the time since the clock began.
public struct OffsetInstant: InstantProtocol, Sendable {
    /// Time since the clock began.
    public var offset: Duration
    /// The reading `offset` after the clock began.
    public init(offset: Duration) { self.offset = offset }
    /// The clock's start.
    public static let zero = OffsetInstant(offset: .zero)
    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> OffsetInstant { OffsetInstant(offset: offset + duration) }
    /// The time from this instant to `other`.
    public func duration(to other: OffsetInstant) -> Duration { other.offset - offset }
    /// Whether `a` comes before `b`.
    public static func < (a: OffsetInstant, b: OffsetInstant) -> Bool { a.offset < b.offset }
}

/// A `Clock` that moves only when told: tests advance it instead of sleeping.
///
/// Read the call models' time through `CallTimeline(clock:)`. Copies share one time, so a test can hand the
/// clock to the code under test and move it from outside. A task that sleeps on it wakes when the clock is
/// advanced past its deadline, or when it is cancelled.
public final class ManualClock: Clock, Sendable {
    private struct Sleeper {
        let deadline: OffsetInstant
        let continuation: CheckedContinuation<Void, any Error>
    }
    private struct State {
        var now = OffsetInstant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextSleeper = 0
    }
    private let state = Mutex(State())

    /// A clock that reads `now` since its start (default: zero).
    public init(now: Duration = .zero) { state.withLock { $0.now = OffsetInstant(offset: now) } }

    /// A clock that reads `seconds` since its start.
    @available(*, deprecated, message: "Pass a Duration: ManualClock(now: .seconds(30))")
    @_disfavoredOverload
    public convenience init(now seconds: Double) { self.init(now: .wait(seconds: seconds)) }

    /// The clock's reading: it moves only with `advance(by:)`.
    public var now: OffsetInstant { state.withLock { $0.now } }
    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves the clock forward by `duration` (never back), and wakes the sleepers now due.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = state.now.advanced(by: max(.zero, duration))
            let now = state.now
            // Woken in the order of their deadlines (then of their sleeps), whatever the dictionary's order.
            let keys = state.sleepers.filter { $0.value.deadline <= now }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }.map(\.key)
            return keys.compactMap { state.sleepers.removeValue(forKey: $0)?.continuation }
        }
        for continuation in due { continuation.resume() }
    }

    /// Moves the clock forward by `seconds` (never back).
    @available(*, deprecated, message: "Pass a Duration: advance(by: .seconds(1))")
    @_disfavoredOverload
    public func advance(by seconds: Double) { advance(by: .wait(seconds: seconds)) }

    /// Waits until the clock is advanced to `deadline`; throws `CancellationError` if the task is cancelled.
    public func sleep(until deadline: OffsetInstant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> Int in
            state.nextSleeper += 1
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Bool? in
                    if Task.isCancelled { return nil }
                    if state.now >= deadline { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                switch ready {
                case nil: continuation.resume(throwing: CancellationError())
                case true?: continuation.resume()
                case false?: break
                }
            }
        } onCancel: {
            let continuation = state.withLock { $0.sleepers.removeValue(forKey: id)?.continuation }
            continuation?.resume(throwing: CancellationError())
        }
    }
}

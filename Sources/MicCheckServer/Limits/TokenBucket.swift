/// Tokens that come back at `rate` a second, up to `capacity`: the one shape of every budget of a connection
/// (its audio's pace, its presence changes and joins, the joins of an address). Pure: the clock is passed in.
struct TokenBucket: Sendable, Equatable {
    let capacity: Double
    let rate: Double
    private var tokens: Double
    private var last: Double?

    /// A bucket that starts full; a rate of 0 is no bound.
    init(capacity: Double, rate: Double) {
        self.capacity = capacity
        self.rate = rate
        tokens = capacity
    }

    /// Whether the bucket has filled again by `now` (it can be forgotten).
    func isFull(now: Double) -> Bool {
        rate <= 0 || tokens + rate * max(0, now - (last ?? now)) >= capacity
    }

    /// The tokens come back for the time since the bucket was last touched.
    private mutating func refill(now: Double) {
        if let last { tokens = min(capacity, tokens + rate * max(0, now - last)) }
        last = now
    }

    /// Takes a token at `now`, if one is there.
    mutating func take(now: Double) -> Bool {
        guard rate > 0 else { return true }
        refill(now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Spends `amount` at `now`, into debt if need be; returns the seconds until the debt is paid back (0: none).
    mutating func spend(_ amount: Double, now: Double) -> Double {
        guard rate > 0 else { return 0 }
        refill(now: now)
        tokens -= amount
        return max(0, -tokens / rate)
    }
}

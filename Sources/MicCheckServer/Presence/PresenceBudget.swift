import Synchronization

/// How much of the call's presence one connection may change: its updates (toggles, speaking) and its joins,
/// each a bucket of tokens. A page that flips its toggles, or joins and leaves, as fast as its socket allows
/// would otherwise send every flip to every connection of the call (and, with presence shared through
/// PostgreSQL, commit each one). Past the budget an update is not dropped but coalesced: the member's latest
/// state waits and is published when a token comes back (the connection's timer asks), so the others always
/// end up seeing the state the page is in, a few times a second at most. A join past its budget is refused.
///
/// Pure: the clock is passed in, and nothing is published here (``CallEndpoint`` does what it says).
struct PresenceBudget: Sendable {
    /// What the connection does with a change.
    enum Decision: Sendable, Equatable {
        case publish(PresenceMember)
        /// Kept as the member's latest state, for a later ``due(now:)``.
        case held
    }

    private(set) var updates: TokenBucket
    private(set) var joins: TokenBucket
    /// The member's latest state, not yet published.
    private(set) var pending: PresenceMember?

    /// The most joins a page may make at once, before the per-minute rate applies.
    static let joinBurst = 4.0

    /// - Parameters:
    ///   - changesPerSecond: updates a second, after a burst of four times as many (0: no bound).
    ///   - joinsPerMinute: joins a minute, after a burst of ``joinBurst`` (0: no bound).
    init(changesPerSecond: Double, joinsPerMinute: Double) {
        updates = TokenBucket(capacity: max(1, 4 * changesPerSecond), rate: changesPerSecond)
        joins = TokenBucket(capacity: Self.joinBurst, rate: joinsPerMinute / 60)
    }

    /// A join at `now`: whether it may be made. A join publishes the member whole, so nothing waits after it.
    mutating func join(now: Double) -> Bool {
        guard joins.take(now: now) else { return false }
        pending = nil
        return true
    }

    /// The member left: what waited is dropped.
    mutating func left() { pending = nil }

    /// An update of the member at `now`: published, or held as its latest state.
    mutating func update(_ member: PresenceMember, now: Double) -> Decision {
        guard updates.take(now: now) else {
            pending = member
            return .held
        }
        pending = nil
        return .publish(member)
    }

    /// The held state, once a token is back at `now`.
    mutating func due(now: Double) -> PresenceMember? {
        guard let member = pending, updates.take(now: now) else { return nil }
        pending = nil
        return member
    }
}

/// The joins of a call from one address (an IPv6 /64 or an IPv4 address, as the connection caps count them),
/// across its connections: a page that joins, leaves, connects again and joins again in a loop is past any
/// one connection's budget, and each of its joins and leaves would reach every page of the call (a slow
/// reader's backlog grew by tens of kilobytes a second). Shared by the server's connections (a lock around a
/// dictionary, touched once a join); an address's bucket is forgotten once it has filled again (looked for
/// past 4,096 buckets, at most once a second).
final class JoinLedger: Sendable {
    private struct State {
        var buckets: [String: TokenBucket] = [:]
        var prunedAt = -Double.infinity
    }

    private let state = Mutex(State())
    let burst: Double
    let perMinute: Double
    /// Buckets kept before the full ones are forgotten.
    static let pruneAt = 4_096

    /// - Parameters:
    ///   - perMinute: joins a minute from one address into one call, after `burst` (0: no bound).
    init(perMinute: Double, burst: Double = 32) {
        self.perMinute = perMinute
        self.burst = burst
    }

    /// Takes a join for `address` into `call` at `now`, if one is left.
    func join(call: String, address: String, now: Double) -> Bool {
        guard perMinute > 0 else { return true }
        let key = call + "\u{0}" + address
        return state.withLock { state in
            // At most once a second, however many addresses there are.
            if state.buckets.count >= Self.pruneAt, now - state.prunedAt >= 1 {
                state.buckets = state.buckets.filter { !$0.value.isFull(now: now) }
                state.prunedAt = now
            }
            var bucket = state.buckets[key] ?? TokenBucket(capacity: burst, rate: perMinute / 60)
            let taken = bucket.take(now: now)
            state.buckets[key] = bucket
            return taken
        }
    }
}

import Synchronization

/// The messages waiting for one client, between whoever decides them and the task that writes to the
/// socket. Bounded: a newer level replaces a level not yet sent, so a slow reader costs no memory for
/// levels; every other message is kept, in order, up to `limit`; past that the client is too slow and
/// ``push(_:level:)`` says so (the caller closes the connection rather than drop an event).
final class Outbox: Sendable {
    private struct State {
        var items: [String] = []
        var head = 0
        /// Where the unsent level is in `items`, if one is.
        var levelAt: Int?
        var waiter: CheckedContinuation<String?, Never>?
        var closed = false
    }

    private let state = Mutex(State())
    let limit: Int

    init(limit: Int = 1_024) { self.limit = limit }

    /// Queues `text`; returns false when the client has `limit` messages unread (nothing is queued then).
    @discardableResult
    func push(_ text: String, level: Bool = false) -> Bool {
        let (accepted, waiter) = state.withLock { s -> (Bool, CheckedContinuation<String?, Never>?) in
            guard !s.closed else { return (true, nil) }
            if let w = s.waiter {
                s.waiter = nil
                return (true, w)
            }
            if level, let at = s.levelAt {
                s.items[at] = text
                return (true, nil)
            }
            guard s.items.count - s.head < limit else { return (false, nil) }
            if level { s.levelAt = s.items.count }
            s.items.append(text)
            return (true, nil)
        }
        waiter?.resume(returning: text)
        return accepted
    }

    /// The next message, waiting for one; nil once closed and drained.
    func next() async -> String? {
        await withCheckedContinuation { (c: CheckedContinuation<String?, Never>) in
            let ready = state.withLock { s -> String?? in
                if s.head < s.items.count {
                    let item = s.items[s.head]
                    if s.levelAt == s.head { s.levelAt = nil }
                    s.head += 1
                    if s.head == s.items.count || s.head > 256 {
                        s.items.removeFirst(s.head)
                        s.levelAt = s.levelAt.map { $0 - s.head }
                        s.head = 0
                    }
                    return .some(item)
                }
                if s.closed { return .some(nil) }
                s.waiter = c
                return .none
            }
            if let ready { c.resume(returning: ready) }
        }
    }

    /// No more messages: ``next()`` returns what is queued, then nil.
    func close() {
        let waiter = state.withLock { s -> CheckedContinuation<String?, Never>? in
            s.closed = true
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Messages queued and not yet taken.
    var count: Int { state.withLock { $0.items.count - $0.head } }
}

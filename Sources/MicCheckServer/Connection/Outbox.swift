/// The messages waiting for one client, owned by its connection's loop (no lock: one owner). Bounded: a
/// newer level replaces a level not yet handed to the writer, so a slow reader costs no memory for
/// levels; the call's presence changes waiting can be dropped whole (``dropPresence()``) for one snapshot
/// that says the same; every other message is kept, in order, up to a count and a size; past either the
/// client is too slow and ``push(_:inFlight:)`` says so (the connection closes rather than drop an event).
struct Outbox: Sendable {
    private var items: [String] = []
    /// Whether each item is a presence change (parallel to `items`).
    private var presence: [Bool] = []
    /// Where the unsent level is in `items`, if one is.
    private var levelAt: Int?
    /// UTF-8 bytes of `items`.
    private(set) var bytes = 0
    /// Presence changes waiting.
    private(set) var presenceWaiting = 0
    let limit: Int
    let byteLimit: Int

    init(limit: Int = 1_024, byteLimit: Int = 4 << 20) {
        self.limit = limit
        self.byteLimit = byteLimit
        items.reserveCapacity(16)
        presence.reserveCapacity(16)
    }

    /// Queues `message`; false when `limit` messages or `byteLimit` bytes are waiting, counting
    /// `inFlight` bytes handed to the writer and not yet written (nothing is queued then).
    mutating func push(_ message: ServerMessage, inFlight: Int = 0) -> Bool {
        let size = message.text.utf8.count
        if message.isLevel, let at = levelAt {
            bytes += size - items[at].utf8.count
            items[at] = message.text
            return true
        }
        guard items.count < limit, bytes + inFlight + size <= byteLimit else { return false }
        if message.isLevel { levelAt = items.count }
        items.append(message.text)
        presence.append(message.isPresence)
        if message.isPresence { presenceWaiting += 1 }
        bytes += size
        return true
    }

    /// Drops the presence changes waiting (a snapshot will say where the call is instead); the rest keeps
    /// its order.
    mutating func dropPresence() {
        guard presenceWaiting > 0 else { return }
        var kept: [String] = []
        kept.reserveCapacity(items.count - presenceWaiting)
        let level = levelAt
        levelAt = nil
        bytes = 0
        for i in items.indices where !presence[i] {
            if i == level { levelAt = kept.count }
            kept.append(items[i])
            bytes += items[i].utf8.count
        }
        items = kept
        presence = Array(repeating: false, count: kept.count)
        presenceWaiting = 0
    }

    /// Everything queued, in order, for the writer; the outbox is then empty.
    mutating func takeAll() -> [String] {
        defer {
            items.removeAll(keepingCapacity: true)
            presence.removeAll(keepingCapacity: true)
            levelAt = nil
            bytes = 0
            presenceWaiting = 0
        }
        return items
    }

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }
}

/// The messages waiting for one client, owned by its connection's loop (no lock: one owner). Bounded: a
/// newer level replaces a level not yet handed to the writer, so a slow reader costs no memory for
/// levels; every other message is kept, in order, up to a count and a size; past either the client is
/// too slow and ``push(_:)`` says so (the connection closes rather than drop an event).
struct Outbox: Sendable {
    private var items: [String] = []
    /// Where the unsent level is in `items`, if one is.
    private var levelAt: Int?
    /// UTF-8 bytes of `items`.
    private(set) var bytes = 0
    let limit: Int
    let byteLimit: Int

    init(limit: Int = 1_024, byteLimit: Int = 4 << 20) {
        self.limit = limit
        self.byteLimit = byteLimit
        items.reserveCapacity(16)
    }

    /// Queues `message`; false when `limit` messages or `byteLimit` bytes are waiting, counting
    /// `inFlight` bytes handed to the writer and not yet written (nothing is queued then).
    mutating func push(_ message: Connection.Message, inFlight: Int = 0) -> Bool {
        let size = message.text.utf8.count
        if message.isLevel, let at = levelAt {
            bytes += size - items[at].utf8.count
            items[at] = message.text
            return true
        }
        guard items.count < limit, bytes + inFlight + size <= byteLimit else { return false }
        if message.isLevel { levelAt = items.count }
        items.append(message.text)
        bytes += size
        return true
    }

    /// Everything queued, in order, for the writer; the outbox is then empty.
    mutating func takeAll() -> [String] {
        defer {
            items.removeAll(keepingCapacity: true)
            levelAt = nil
            bytes = 0
        }
        return items
    }

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }
}

import Synchronization

/// What the server enforces on every WebSocket.
public struct ConnectionLimits: Sendable, Equatable {
    /// The largest message a client may send (bytes); larger ones close the connection with 1009.
    public var maxMessageBytes: Int
    /// A connection that sends nothing (no audio, no keep-alive) this long is closed with 1008; so is one
    /// that reads nothing of what it is sent for as long.
    public var idleTimeout: Double
    /// Messages that may wait for a client that reads slowly; levels are coalesced and do not count
    /// beyond one, events do; past this the client is closed with 1008 rather than lose an event.
    public var outboxLimit: Int
    /// Bytes that may wait for a client that reads slowly (large signals weigh more than levels).
    public var outboxBytes: Int
    /// Frames one message may come in (empty continuation frames count); more close the connection with 1009.
    public var maxFramesPerMessage: Int
    /// How much faster than real time a stream's audio is analysed, at most (after a first burst of
    /// 2 s): a client that sends faster waits, and TCP slows it, so that one
    /// unthrottled stream cannot take the cores from the others. 0: no bound (batch use).
    public var maxAudioSpeed: Double
    /// Presence changes (toggles, speaking) one connection publishes a second, after a burst of four times
    /// as many; past them the member's latest state waits and is published when the budget allows, so a
    /// page that flips its toggles as fast as it can costs the call a few updates a second. 0: no bound.
    public var presenceChangesPerSecond: Double
    /// Joins one connection may make a minute, after a burst of 4 (a page joins once, and again after a
    /// leave); past them the connection is closed with 1008. 0: no bound.
    public var joinsPerMinute: Double
    /// Joins into one call from one address (an IPv6 /64 or an IPv4 address), across connections, a minute
    /// after a burst of 32: a page that connects again to join again is bounded too; past them the join's
    /// connection is closed with 1008. 0: no bound.
    public var joinsPerMinutePerAddress: Double
    /// Bytes waiting for slow readers across all the server's connections: past it, a connection that
    /// has 64 KiB or more of its own waiting is closed with 1008 (honest readers hold a few KiB).
    public var maxQueuedBytes: Int

    /// Limits with the defaults: 64 KiB messages, a 10 s idle timeout, an outbox of 1,024 messages and 4 MiB, 64
    /// frames a message, audio at 4 times real time, 5 presence changes a second, 12 joins a minute per connection
    /// and 60 per address, and 256 MiB waiting in all.
    public init(
        maxMessageBytes: Int = 65_536, idleTimeout: Double = 10, outboxLimit: Int = 1_024, outboxBytes: Int = 4 << 20,
        maxFramesPerMessage: Int = 64, maxAudioSpeed: Double = 4, presenceChangesPerSecond: Double = 5,
        joinsPerMinute: Double = 12, joinsPerMinutePerAddress: Double = 60, maxQueuedBytes: Int = 256 << 20
    ) {
        self.joinsPerMinutePerAddress = joinsPerMinutePerAddress
        self.presenceChangesPerSecond = presenceChangesPerSecond
        self.joinsPerMinute = joinsPerMinute
        self.maxQueuedBytes = maxQueuedBytes
        self.maxAudioSpeed = maxAudioSpeed
        self.maxMessageBytes = maxMessageBytes
        self.maxFramesPerMessage = maxFramesPerMessage
        self.idleTimeout = idleTimeout
        self.outboxLimit = outboxLimit
        self.outboxBytes = outboxBytes
    }
}

/// The bytes waiting for slow readers across all of a server's connections (a server-wide count, shared by
/// every connection's loop; no lock: one atomic). Each connection adds what waits for it, as it changes,
/// and takes it away when it ends; past ``limit`` the connections that hold a slow reader's share are
/// closed, so that many slow readers cannot take the server's memory though each is under its own bound.
public final class QueuedBytes: Sendable {
    /// What a connection holds before it counts as a slow reader: honest readers hold a few KiB.
    static let shareOfASlowReader = 64 << 10
    /// Bytes that may wait in all before slow readers are closed (`ConnectionLimits.maxQueuedBytes`).
    public let limit: Int
    private let total = Atomic<Int>(0)

    /// A count of nothing waiting, with `limit`.
    public init(limit: Int) { self.limit = limit }

    /// Adds `delta` (negative: takes away); returns the new total.
    @discardableResult
    func add(_ delta: Int) -> Int {
        guard delta != 0 else { return total.load(ordering: .relaxed) }
        return total.add(delta, ordering: .relaxed).newValue
    }

    /// Bytes waiting now.
    public var bytes: Int { total.load(ordering: .relaxed) }

    /// The limit in words: whole MiB, or bytes.
    var limitText: String { limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes" }
}

/// The pace of a stream's audio against the wall clock: how long to wait before analysing more, so that
/// audio goes no faster than `speed` times real time after a first burst. A bucket of credit in seconds of
/// audio: it holds at most the burst, fills at `speed` seconds a second, and each message takes its length;
/// a stream that idles (keep-alives only) saves no more than the burst, however long it idles.
struct AudioPace: Sendable {
    static let burstSeconds = 2.0
    let speed: Double
    private var credit: TokenBucket

    init(speed: Double) {
        self.speed = speed
        credit = TokenBucket(capacity: Self.burstSeconds, rate: speed)
    }

    /// Counts `seconds` of audio received at `now`; returns how long to wait before analysing it.
    mutating func received(_ seconds: Double, now: Double) -> Double { credit.spend(seconds, now: now) }

    /// Waits, when `bytes` of 16-bit PCM at `rate` received at `now` would take the stream past its pace (a
    /// cancelled task stops waiting: its connection is closing). No limit (`speed` 0) never waits.
    mutating func admit(pcmBytes bytes: Int, rate: Int, now: Double) async {
        guard speed > 0, rate > 0 else { return }
        let wait = received(Double(bytes / 2) / Double(rate), now: now)
        if wait > 0.001 { try? await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
    }
}

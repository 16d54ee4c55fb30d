import Dispatch
public import Foundation
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import ServiceLifecycle
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

/// A WebSocket of the server, run by one owner: a task group around one loop that owns the endpoint (its
/// protocol state and analysis), the outbox, and the connection's clock. Child tasks only carry things to
/// and from it: the reader hands it each message, the writer writes what it is handed, a ticker and the
/// call's presence events knock. Nothing is shared but streams and two counters (atomics, no lock): how
/// many messages the reader has handed over and the loop not yet handled (past a few, the reader waits
/// for its message to be handled, so a client that sends faster than it is analysed is slowed by TCP, not
/// buffered), and how many bytes the writer has written (what it holds decides when levels coalesce, and
/// a client that reads nothing is found by it).
public enum Connection {
    /// A message for the client, of either endpoint. Levels may be coalesced (a newer one replaces an
    /// unsent one); the others must all arrive, in order.
    public struct Message: Sendable, Equatable {
        /// The message's text: one JSON object.
        public var text: String
        /// A level: a newer one replaces it while it is unsent.
        public var isLevel: Bool
        /// A change of the call's presence (joined, updated, left): while the client reads too slowly for them,
        /// they are dropped for one snapshot (`ConnectionEndpoint.resendPresence(send:)`).
        public var isPresence: Bool

        /// A message; not a presence change by default.
        public init(text: String, isLevel: Bool, isPresence: Bool = false) {
            self.text = text
            self.isLevel = isLevel
            self.isPresence = isPresence
        }
    }

    /// Seconds on a monotonic clock.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// How long a close waits for the writer to send what is queued and the close frame: a client that
    /// reads nothing must not hold the connection (or the server's shutdown) open.
    static let closeDeadline = 2.0
    /// Messages the reader may hand over before it waits for them to be handled.
    static let readAhead = 8
    /// Bytes the writer may hold; past them the outbox keeps messages back and levels coalesce.
    static let writeAhead = 16_384
    /// Presence changes that may wait for a client that reads slowly; past them they are dropped, and the
    /// client gets one snapshot once it has read what it holds (a call that churns, such as participants
    /// that join and leave in a loop, costs a slow reader one message, not every change).
    static let presenceBacklog = 32

    /// What reaches the owner loop.
    enum Input: Sendable {
        /// A message; `handled`, when the reader waits, lets it read the next one.
        case message(InboundMessage, handled: CheckedContinuation<Void, Never>?)
        /// The client closed, or the WebSocket layer ended the connection (its error), or the client's
        /// frames broke a rule (a ``ProtocolError``).
        case inboundEnded((any Error)?)
        /// A presence event; `handled` lets the next one come, so that the subscription's own bounded buffer
        /// (a gap, then a snapshot) is what holds a stalled loop's backlog.
        case presence(PresenceEvent, handled: CheckedContinuation<Void, Never>)
        case tick
        /// The server is shutting down gracefully.
        case shutdown
        /// The writer has written all it was handed and stopped.
        case writerDone
    }

    /// What the writer is handed.
    enum Output: Sendable {
        case texts([String])
        case close(code: Int, reason: String)
    }

    /// The counters the loop shares with its reader and its writer.
    final class Counters: Sendable {
        /// Messages handed to the loop and not yet handled.
        let unhandled = Atomic<Int>(0)
        /// Bytes the writer has written.
        let written = Atomic<Int>(0)
    }

    /// How the loop ended.
    enum Ending {
        /// The client went (`error`: the WebSocket layer's reason, if any).
        case clientLeft((any Error)?)
        /// The endpoint is done: what is queued goes out, then a normal close.
        case done
        case failed(ProtocolError)
    }

    /// Runs `endpoint` on one WebSocket until the client goes, the endpoint is done, or a rule is broken
    /// (then the connection closes with the ``ProtocolError``'s code and reason). `presence`: the events of
    /// the call the endpoint follows. `hangUp` closes the TCP connection.
    static func run<Endpoint: ConnectionEndpoint>(
        _ endpoint: inout Endpoint, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
        limits: ConnectionLimits, presence: AsyncStream<PresenceEvent>? = nil, queued: QueuedBytes? = nil,
        expiry: Expiry? = nil, hangUp: @Sendable () -> Void = {}
    ) async throws {
        let (inputs, input) = AsyncStream.makeStream(of: Input.self)
        let (outputs, output) = AsyncStream.makeStream(of: Output.self)
        let counters = Counters()
        let tickInterval = endpoint.tickInterval
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await read(inbound, limits: limits, counters: counters, into: input) }
            group.addTask {
                await write(outputs, to: outbound, counters: counters)
                input.yield(.writerDone)
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: tickInterval)
                    input.yield(.tick)
                }
            }
            if let presence {
                group.addTask {
                    for await event in presence {
                        await handOver(to: input) { .presence(event, handled: $0) }
                    }
                }
            }
            var loop = Loop(limits: limits, output: output, counters: counters, queued: queued, expiry: expiry)
            // A shutdown ends the loop as any ending does, within the close deadline, so that a client that reads
            // nothing cannot hold the server up. (The WebSocket layer's own shutdown handler, which runs first,
            // has usually sent a 1000 close by then: the client sees that, not 1001.)
            let ending = await withGracefulShutdownHandler {
                await loop.run(&endpoint, inputs)
            } onGracefulShutdown: {
                input.yield(.shutdown)
            }
            await endpoint.closed()
            let (failure, inTime) = await loop.close(ending, inputs)
            defer { loop.release() }
            // A writer that could not send the close in time is blocked on a client that reads nothing: the
            // WebSocket layer's own close would block as well, so the TCP connection goes.
            if !inTime { hangUp() }
            output.finish()
            input.finish()
            group.cancelAll()
            // A reader or a presence forwarder still waiting for its input to be handled is let go.
            for await item in inputs {
                switch item {
                case .message(_, let handled?), .presence(_, let handled): handled.resume()
                default: break
                }
            }
            if let failure { throw failure }
        }
    }

    private static func read(
        _ inbound: WebSocketInboundStream, limits: ConnectionLimits, counters: Counters,
        into input: AsyncStream<Input>.Continuation
    ) async {
        var assembler = MessageAssembler(maxBytes: limits.maxMessageBytes, maxFrames: limits.maxFramesPerMessage)
        do {
            for try await frame in inbound {
                guard let message = try assembler.add(ClientFrame(frame)) else { continue }
                if counters.unhandled.add(1, ordering: .relaxed).newValue <= readAhead {
                    input.yield(.message(message, handled: nil))
                } else {
                    await handOver(to: input) { .message(message, handled: $0) }
                }
                if Task.isCancelled { return }
            }
            input.yield(.inboundEnded(nil))
        } catch {
            input.yield(.inboundEnded(error))
        }
    }

    /// Yields the input `make` builds around a continuation, and waits until the loop resumes it (at once
    /// when the loop has ended).
    private static func handOver(
        to input: AsyncStream<Input>.Continuation, _ make: (CheckedContinuation<Void, Never>) -> Input
    ) async {
        await withCheckedContinuation { (handled: CheckedContinuation<Void, Never>) in
            if case .terminated = input.yield(make(handled)) { handled.resume() }
        }
    }

    private static func write(
        _ outputs: AsyncStream<Output>, to outbound: WebSocketOutboundWriter, counters: Counters
    ) async {
        for await item in outputs {
            switch item {
            case .texts(let texts):
                for text in texts {
                    do { try await outbound.write(.text(text)) } catch { return }
                    counters.written.add(text.utf8.count, ordering: .relaxed)
                }
            case .close(let code, let reason):
                try? await outbound.close(WebSocketErrorCode(codeNumber: code), reason: reason.isEmpty ? nil : reason)
            }
        }
    }

    /// The owner's state: the outbox, what the writer holds, and the clock of the last message heard.
    private struct Loop {
        let limits: ConnectionLimits
        let output: AsyncStream<Output>.Continuation
        let counters: Counters
        var outbox: Outbox
        /// Bytes handed to the writer.
        var handed = 0
        /// The writer's count when it was last seen to move, and when.
        var lastWritten = (bytes: 0, at: Connection.now())
        var lastHeard = Connection.now()
        var overflowed = false
        /// Presence changes were dropped for this client (and are, until it has caught up); the endpoint owes it
        /// a snapshot.
        var behind = false
        /// The server's count of bytes waiting for slow readers, and this connection's share of it.
        let queued: QueuedBytes?
        var counted = 0
        var serverFull = false
        let expiry: Expiry?

        init(
            limits: ConnectionLimits, output: AsyncStream<Output>.Continuation, counters: Counters,
            queued: QueuedBytes?, expiry: Expiry?
        ) {
            self.limits = limits
            self.output = output
            self.counters = counters
            self.queued = queued
            self.expiry = expiry
            outbox = Outbox(limit: limits.outboxLimit, byteLimit: limits.outboxBytes)
        }

        /// Bytes handed to the writer and not yet written.
        var unwritten: Int { handed - counters.written.load(ordering: .relaxed) }

        mutating func send(_ message: Message) {
            if behind, message.isPresence { return }  // the snapshot owed will say it
            if !outbox.push(message, inFlight: unwritten) { overflowed = true }
            count()
        }

        /// Brings the server's count up to date with what waits here; notes when the server holds too much and
        /// this connection is one of those it holds it for.
        mutating func count() {
            guard let queued else { return }
            let waiting = outbox.bytes + unwritten
            let total = queued.add(waiting - counted)
            counted = waiting
            if total > queued.limit, waiting >= QueuedBytes.shareOfASlowReader { serverFull = true }
        }

        /// This connection's share leaves the server's count (once it has ended).
        mutating func release() {
            _ = queued?.add(-counted)
            counted = 0
        }

        /// Hands the writer what is queued, unless it holds enough already.
        mutating func flush() {
            guard !outbox.isEmpty else { return }
            let held = unwritten
            guard held < writeAhead else { return }
            if held == 0 { lastWritten = (handed, Connection.now()) }
            handed += outbox.bytes
            output.yield(.texts(outbox.takeAll()))
            count()
        }

        /// Whether the client has read nothing of what the writer holds for the idle timeout.
        mutating func readsNothing(now: Double) -> Bool {
            let written = counters.written.load(ordering: .relaxed)
            if written != lastWritten.bytes || written == handed {
                lastWritten = (written, now)
                return false
            }
            return now - lastWritten.at > limits.idleTimeout
        }

        mutating func run<Endpoint: ConnectionEndpoint>(
            _ endpoint: inout Endpoint, _ inputs: AsyncStream<Input>
        ) async -> Ending {
            await endpoint.opened { send($0) }
            flush()
            for await item in inputs {
                var ending: Ending?
                switch item {
                case .message(let message, let handled):
                    lastHeard = Connection.now()
                    do {
                        if try await !endpoint.received(message, now: lastHeard, send: { send($0) }) { ending = .done }
                    } catch {
                        ending = .failed(error)
                    }
                    counters.unhandled.subtract(1, ordering: .relaxed)
                    handled?.resume()
                case .inboundEnded(let error as ProtocolError):
                    ending = .failed(error)
                case .inboundEnded(let error):
                    ending = .clientLeft(error)
                case .presence(let event, let handled):
                    await endpoint.presence(event) { send($0) }
                    handled.resume()
                case .tick:
                    let now = Connection.now()
                    count()
                    if let expiry, now >= expiry.at {
                        ending = .failed(ProtocolError(expiry.reason, code: .invitationExpired))
                    } else if now - lastHeard > limits.idleTimeout {
                        ending = .failed(
                            ProtocolError(
                                "nothing received for \(Int(limits.idleTimeout)) s (send audio or {\"type\": \"keep_alive\"})"
                            ))
                    } else if readsNothing(now: now) {
                        ending = .failed(
                            ProtocolError(
                                "the client reads nothing: what was sent \(Int(limits.idleTimeout)) s ago is unread"))
                    } else {
                        await endpoint.tick(now: now) { send($0) }
                    }
                case .writerDone:
                    ending = .clientLeft(nil)
                case .shutdown:
                    ending = .failed(ProtocolError("the server is shutting down", code: .goingAway))
                }
                if overflowed, ending == nil {
                    ending = .failed(
                        ProtocolError(
                            "the client reads too slowly: \(limits.outboxLimit) messages or \(limits.outboxBytes >> 10) KiB are waiting"
                        ))
                }
                if serverFull, ending == nil, let queued {
                    ending = .failed(ProtocolError("the server holds \(queued.limitText) for slow readers, its most"))
                }
                if let ending { return ending }
                if outbox.presenceWaiting > presenceBacklog {
                    outbox.dropPresence()
                    behind = true
                }
                flush()
                // Caught up: the snapshot that stands for what was dropped.
                if behind, outbox.isEmpty, unwritten < writeAhead {
                    behind = false
                    await endpoint.resendPresence { send($0) }
                    flush()
                }
            }
            return .clientLeft(nil)
        }

        /// Ends the connection: what is queued and the close frame go out, and the client's close comes back,
        /// within ``closeDeadline``. The reader keeps reading meanwhile (what comes is dropped): a connection
        /// closed with unread bytes would end in a TCP reset, and the client would see no close code.
        /// Returns the WebSocket layer's error to rethrow, if any, and whether the close was done in time.
        mutating func close(_ ending: Ending, _ inputs: AsyncStream<Input>) async -> ((any Error)?, inTime: Bool) {
            let close: (code: Int, reason: String)
            switch ending {
            case .clientLeft(let error): return (error, true)
            case .done: close = (1000, "")
            case .failed(let error): close = (Int(error.code.rawValue), error.reason)
            }
            if !outbox.isEmpty {
                handed += outbox.bytes
                output.yield(.texts(outbox.takeAll()))
            }
            output.yield(.close(code: close.code, reason: close.reason))
            output.finish()
            let deadline = Connection.now() + closeDeadline
            for await item in inputs {
                switch item {
                case .message(_, let handled):  // too late: the connection is closing
                    counters.unhandled.subtract(1, ordering: .relaxed)
                    handled?.resume()
                case .presence(_, let handled): handled.resume()
                case .inboundEnded: return (nil, true)
                case .writerDone, .tick, .shutdown: break
                }
                if Connection.now() > deadline { return (nil, false) }
            }
            return (nil, true)
        }
    }
}

extension Connection {
    /// When a connection's invitation ends: at `at` (on `Connection.now()`'s clock) it is closed with 4401
    /// and `reason`, and the page reconnects with a fresh token.
    public struct Expiry: Sendable, Equatable {
        /// When the connection closes, in seconds on the connection's monotonic clock.
        public var at: Double
        /// The close frame's reason.
        public var reason: String

        /// An expiry at `at` seconds on the connection's monotonic clock.
        public init(at: Double, reason: String) {
            self.at = at
            self.reason = reason
        }

        /// The expiry of a token that expires at `date`, on the connection's monotonic clock.
        public init(date: Date, reason: String) {
            self.init(at: Connection.now() + date.timeIntervalSinceNow, reason: reason)
        }
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
}

/// One endpoint's protocol on a ``Connection``: what it sends first, what it does with each message, with
/// the clock's ticks and the call's presence, and when the connection ends. `send` queues a message.
protocol ConnectionEndpoint: Sendable {
    /// How often the loop looks at the clock: the idle timeout, a client that reads nothing, the endpoint's
    /// own timers. Each connection has its own timer: a shorter interval costs every connection wake-ups.
    var tickInterval: Duration { get }
    mutating func opened(send: (Connection.Message) -> Void) async
    /// Returns false when the endpoint is done (the connection then closes normally once its messages are out).
    mutating func received(
        _ message: InboundMessage, now: Double, send: (Connection.Message) -> Void
    ) async throws(ProtocolError) -> Bool
    mutating func tick(now: Double, send: (Connection.Message) -> Void) async
    mutating func presence(_ event: PresenceEvent, send: (Connection.Message) -> Void) async
    /// The client, too slow for the call's presence changes, had them dropped and has now read what it held:
    /// send what stands for them (the snapshot).
    mutating func resendPresence(send: (Connection.Message) -> Void) async
    /// The connection ended, however it ended.
    mutating func closed() async
}

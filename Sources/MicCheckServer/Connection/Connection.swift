import Dispatch
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

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

    public init(maxMessageBytes: Int = 65_536, idleTimeout: Double = 10, outboxLimit: Int = 1_024, outboxBytes: Int = 4 << 20) {
        self.maxMessageBytes = maxMessageBytes
        self.idleTimeout = idleTimeout
        self.outboxLimit = outboxLimit
        self.outboxBytes = outboxBytes
    }
}

/// A WebSocket of the server, run by one owner: a task group around one loop that owns the endpoint (its
/// protocol state and analysis), the outbox, and the connection's clock. Child tasks only carry things to
/// and from it: the reader hands it each message and waits until it is handled (so a client that sends
/// faster than it is analysed is slowed by TCP, not buffered), the writer writes what it is handed and
/// says when it is done, a ticker and the call's presence events knock. Nothing is shared but streams.
public enum Connection {
    /// A message for the client, of either endpoint. Levels may be coalesced (a newer one replaces an
    /// unsent one); the others must all arrive, in order.
    public struct Message: Sendable, Equatable {
        public var text: String
        public var isLevel: Bool

        public init(text: String, isLevel: Bool) {
            self.text = text
            self.isLevel = isLevel
        }
    }

    /// Seconds on a monotonic clock.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// How long a close waits for the writer to send what is queued and the close frame: a client that
    /// reads nothing must not hold the connection (or the server's shutdown) open.
    static let closeDeadline = 2.0
    static let tickInterval = Duration.milliseconds(250)

    /// What reaches the owner loop.
    enum Input: Sendable {
        /// A message; `handled` lets the reader read the next one.
        case message(WebSocketMessage, handled: CheckedContinuation<Void, Never>)
        /// The client closed, or the WebSocket layer ended the connection (its error: a message over the limit).
        case inboundEnded((any Error)?)
        case presence(PresenceEvent)
        case tick
        /// The writer wrote what it was handed.
        case written
    }

    /// What the writer is handed.
    enum Output: Sendable {
        case texts([String])
        case close(ProtocolError)
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
    /// the call the endpoint follows.
    static func run<Endpoint: ConnectionEndpoint>(
        _ endpoint: inout Endpoint, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
        limits: ConnectionLimits, presence: AsyncStream<PresenceEvent>? = nil, hangUp: @Sendable () -> Void = {}
    ) async throws {
        let (inputs, input) = AsyncStream.makeStream(of: Input.self)
        let (outputs, output) = AsyncStream.makeStream(of: Output.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await read(inbound, limits: limits, into: input) }
            group.addTask { await write(outputs, to: outbound, done: input) }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: tickInterval)
                    input.yield(.tick)
                }
            }
            if let presence {
                group.addTask { for await event in presence { input.yield(.presence(event)) } }
            }
            var loop = Loop(limits: limits, output: output)
            let ending = await loop.run(&endpoint, inputs)
            await endpoint.closed()
            let (failure, inTime) = await loop.close(ending, inputs)
            // A writer that could not send the close in time is blocked on a client that reads nothing: the
            // WebSocket layer's own close would block as well, so the TCP connection goes.
            if !inTime { hangUp() }
            output.finish()
            input.finish()
            group.cancelAll()
            // Readers still waiting for their message to be handled are let go.
            for await case .message(_, let handled) in inputs { handled.resume() }
            if let failure { throw failure }
        }
    }

    private static func read(_ inbound: WebSocketInboundStream, limits: ConnectionLimits,
                             into input: AsyncStream<Input>.Continuation) async {
        do {
            for try await message in inbound.messages(maxSize: limits.maxMessageBytes) {
                await withCheckedContinuation { (handled: CheckedContinuation<Void, Never>) in
                    if case .terminated = input.yield(.message(message, handled: handled)) { handled.resume() }
                }
                if Task.isCancelled { return }
            }
            input.yield(.inboundEnded(nil))
        } catch {
            input.yield(.inboundEnded(error))
        }
    }

    private static func write(_ outputs: AsyncStream<Output>, to outbound: WebSocketOutboundWriter,
                              done: AsyncStream<Input>.Continuation) async {
        for await item in outputs {
            switch item {
            case .texts(let texts):
                for text in texts {
                    do { try await outbound.write(.text(text)) } catch { return }
                }
            case .close(let error):
                try? await outbound.close(WebSocketErrorCode(codeNumber: Int(error.code.rawValue)), reason: error.reason)
            }
            done.yield(.written)
        }
    }

    /// The owner's state: the outbox, what the writer holds, and the clock of the last message heard.
    private struct Loop {
        let limits: ConnectionLimits
        let output: AsyncStream<Output>.Continuation
        var outbox: Outbox
        /// Bytes handed to the writer and not yet written, and since when.
        var inFlight: (bytes: Int, since: Double)?
        var lastHeard = Connection.now()
        var overflowed = false

        init(limits: ConnectionLimits, output: AsyncStream<Output>.Continuation) {
            self.limits = limits
            self.output = output
            outbox = Outbox(limit: limits.outboxLimit, byteLimit: limits.outboxBytes)
        }

        mutating func send(_ message: Message) {
            if !outbox.push(message, inFlight: inFlight?.bytes ?? 0) { overflowed = true }
        }

        /// Hands the writer what is queued, when it holds nothing.
        mutating func flush() {
            guard inFlight == nil, !outbox.isEmpty else { return }
            inFlight = (outbox.bytes, Connection.now())
            output.yield(.texts(outbox.takeAll()))
        }

        mutating func run<Endpoint: ConnectionEndpoint>(_ endpoint: inout Endpoint, _ inputs: AsyncStream<Input>) async -> Ending {
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
                    handled.resume()
                case .inboundEnded(let error):
                    ending = .clientLeft(error)
                case .presence(let event):
                    await endpoint.presence(event) { send($0) }
                case .tick:
                    let now = Connection.now()
                    if now - lastHeard > limits.idleTimeout {
                        ending = .failed(ProtocolError("nothing received for \(Int(limits.idleTimeout)) s (send audio or {\"type\": \"keep_alive\"})"))
                    } else if let since = inFlight?.since, now - since > limits.idleTimeout {
                        ending = .failed(ProtocolError("the client reads nothing: what was sent \(Int(limits.idleTimeout)) s ago is unread"))
                    } else {
                        await endpoint.tick(now: now) { send($0) }
                    }
                case .written:
                    inFlight = nil
                }
                if overflowed, ending == nil {
                    ending = .failed(ProtocolError("the client reads too slowly: \(limits.outboxLimit) messages or \(limits.outboxBytes >> 10) KiB are waiting"))
                }
                if let ending { return ending }
                flush()
            }
            return .clientLeft(nil)
        }

        /// Ends the connection: what is queued and the close frame go out, within ``closeDeadline``.
        /// Returns the WebSocket layer's error to rethrow, if any, and whether the writer was done in time.
        mutating func close(_ ending: Ending, _ inputs: AsyncStream<Input>) async -> ((any Error)?, inTime: Bool) {
            let closeWith: ProtocolError?
            switch ending {
            case .clientLeft(let error): return (error, true)
            case .done: closeWith = nil
            case .failed(let error): closeWith = error
            }
            let deadline = Connection.now() + closeDeadline
            var closeSent = false
            for await item in inputs {
                switch item {
                case .message(_, let handled): handled.resume()  // too late: the connection is closing
                case .inboundEnded: return (nil, true)
                case .written: inFlight = nil
                case .presence, .tick: break
                }
                if inFlight == nil {
                    if !outbox.isEmpty {
                        flush()
                    } else if let closeWith, !closeSent {
                        closeSent = true
                        inFlight = (0, Connection.now())
                        output.yield(.close(closeWith))
                    } else {
                        return (nil, true)
                    }
                }
                if Connection.now() > deadline { return (nil, false) }
            }
            return (nil, true)
        }
    }
}

/// One endpoint's protocol on a ``Connection``: what it sends first, what it does with each message, with
/// the clock's ticks and the call's presence, and when the connection ends. `send` queues a message.
protocol ConnectionEndpoint: Sendable {
    mutating func opened(send: (Connection.Message) -> Void) async
    /// Returns false when the endpoint is done (the connection then closes normally once its messages are out).
    mutating func received(_ message: WebSocketMessage, now: Double, send: (Connection.Message) -> Void) async throws(ProtocolError) -> Bool
    mutating func tick(now: Double, send: (Connection.Message) -> Void) async
    mutating func presence(_ event: PresenceEvent, send: (Connection.Message) -> Void) async
    /// The connection ended, however it ended.
    mutating func closed() async
}

extension WebSocketMessage {
    /// The bytes of a binary message.
    func withBinary<R>(_ body: (UnsafeRawBufferPointer) throws(ProtocolError) -> R) throws(ProtocolError) -> R? {
        guard case .binary(let buffer) = self else { return nil }
        do {
            return try buffer.withUnsafeReadableBytes { bytes in try body(bytes) }
        } catch let e as ProtocolError {
            throw e
        } catch {
            throw ProtocolError("unreadable binary message")
        }
    }

    var text: String? {
        guard case .text(let s) = self else { return nil }
        return s
    }
}

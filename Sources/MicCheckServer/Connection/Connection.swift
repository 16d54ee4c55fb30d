import Dispatch
import Foundation
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import ServiceLifecycle
import Synchronization

/// A WebSocket of the server, run by one owner: a task group around one loop that owns the endpoint (its
/// protocol state and analysis), the outbox, and the connection's clock. Child tasks only carry things to
/// and from it: the reader hands it each message, the writer writes what it is handed, a ticker and the
/// call's presence events knock. Nothing is shared but streams and two counters (atomics, no lock): how
/// many messages the reader has handed over and the loop not yet handled (past a few, the reader waits
/// for its message to be handled, so a client that sends faster than it is analysed is slowed by TCP, not
/// buffered), and how many bytes the writer has written (what it holds decides when levels coalesce, and
/// a client that reads nothing is found by it).
public enum Connection {
    /// A message for the client: the protocol's ``ServerMessage``.
    @available(*, deprecated, renamed: "ServerMessage")
    public typealias Message = ServerMessage

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

        mutating func send(_ message: ServerMessage) {
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

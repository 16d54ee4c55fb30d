import Dispatch
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Synchronization

/// What the server enforces on every WebSocket.
public struct ConnectionLimits: Sendable, Equatable {
    /// The largest message a client may send (bytes); larger ones close the connection with 1009.
    public var maxMessageBytes: Int
    /// A connection that sends nothing (no audio, no keep-alive) this long is closed with 1008.
    public var idleTimeout: Double
    /// Messages that may wait for a client that reads slowly; levels are coalesced and do not count
    /// beyond one, events do; past this the client is closed with 1008 rather than lose an event.
    public var outboxLimit: Int

    public init(maxMessageBytes: Int = 65_536, idleTimeout: Double = 10, outboxLimit: Int = 1_024) {
        self.maxMessageBytes = maxMessageBytes
        self.idleTimeout = idleTimeout
        self.outboxLimit = outboxLimit
    }
}

/// One WebSocket's plumbing, the same for both endpoints: a writer task that drains the ``Outbox``, a
/// watchdog for the idle timeout and a client too slow to read, and the read loop, which hands each
/// message to the endpoint and closes with the endpoint's ``ProtocolError`` when one is thrown.
final class Connection: Sendable {
    let outbox: Outbox
    let limits: ConnectionLimits
    private let outbound: WebSocketOutboundWriter
    private let lastHeard = Mutex(Connection.now())
    private let failure = Mutex<ProtocolError?>(nil)

    init(outbound: WebSocketOutboundWriter, limits: ConnectionLimits) {
        self.outbound = outbound
        self.limits = limits
        outbox = Outbox(limit: limits.outboxLimit)
    }

    /// Seconds on a monotonic clock.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Queues a message for the client; a client that lets `outboxLimit` messages wait is closed.
    func send(_ message: VADSession.Message) {
        if !outbox.push(message.text, level: message.isLevel) {
            fail(ProtocolError("the client reads too slowly: \(limits.outboxLimit) messages are waiting"))
        }
    }

    /// Ends the connection with `error` (the first one wins).
    func fail(_ error: ProtocolError) {
        failure.withLock { if $0 == nil { $0 = error } }
    }

    /// Runs the connection until the client closes, the endpoint asks to close (`handle` returns false),
    /// or a rule is broken. `handle` gets each message whole.
    func run(_ inbound: WebSocketInboundStream, handle: (WebSocketMessage) async throws(ProtocolError) -> Bool) async throws {
        let outbox = outbox, outbound = outbound
        let writer = Task {
            while let text = await outbox.next() {
                do { try await outbound.write(.text(text)) } catch { break }
            }
        }
        let watchdog = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                let idle = Self.now() - lastHeard.withLock { $0 }
                if idle > limits.idleTimeout {
                    fail(ProtocolError("nothing received for \(Int(limits.idleTimeout)) s (send audio or {\"type\": \"keep_alive\"})"))
                }
                if let error = failure.withLock({ $0 }) {
                    await close(error, writer: writer)
                    return
                }
            }
        }
        defer { watchdog.cancel() }
        do {
            for try await message in inbound.messages(maxSize: limits.maxMessageBytes) {
                lastHeard.withLock { $0 = Self.now() }
                let goOn = try await handle(message)
                if let error = failure.withLock({ $0 }) { throw error }
                if !goOn { break }
            }
            outbox.close()
            await writer.value
        } catch let error as ProtocolError {
            fail(error)
            await close(failure.withLock { $0 } ?? error, writer: writer)
        } catch {
            // The WebSocket layer's own errors (a message over the limit: 1009) close the connection there.
            outbox.close()
            writer.cancel()
            throw error
        }
    }

    /// Sends what is queued, then the close frame.
    private func close(_ error: ProtocolError, writer: Task<Void, Never>) async {
        outbox.close()
        await writer.value
        try? await outbound.close(WebSocketErrorCode(codeNumber: Int(error.code.rawValue)), reason: error.reason)
    }
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

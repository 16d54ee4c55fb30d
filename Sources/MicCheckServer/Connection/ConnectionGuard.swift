import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// What the server allows a TCP connection before it is an HTTP request: how many may be open (in all,
/// and from one address), and how long the request's head may take to arrive, and how large it may be.
public struct AdmissionLimits: Sendable, Equatable {
    /// Connections open at once; past this one is answered 503 and closed. Below the process's file
    /// limit, so that accepting never fails (a full table of descriptors spins the accept loop).
    public var maxConnections: Int
    /// Connections open at once from one address.
    public var maxConnectionsPerAddress: Int
    /// Seconds for the first request's head to arrive whole (slowloris, a half-sent head, a TLS hello on
    /// the plain port): 408 and closed past it.
    public var headTimeout: Double
    /// Bytes the head may hold: 431 and closed past it.
    public var maxHeadBytes: Int
    /// How many leading bits of an IPv4 address make "one address" for ``maxConnectionsPerAddress`` (32: the
    /// address itself).
    public var ipv4Prefix: Int
    /// How many leading bits of an IPv6 address make "one address": 64, since one host is commonly given a
    /// whole /64 and could otherwise open the cap's worth from each of its addresses.
    public var ipv6Prefix: Int

    /// Limits with the defaults: `defaultMaxConnections()` in all and 1,024 from one address, 10 s and 32 KiB for a
    /// request's head, and an IPv4 /32 or an IPv6 /64 as one address.
    public init(
        maxConnections: Int = AdmissionLimits.defaultMaxConnections(), maxConnectionsPerAddress: Int = 1_024,
        headTimeout: Double = 10, maxHeadBytes: Int = 32_768, ipv4Prefix: Int = 32, ipv6Prefix: Int = 64
    ) {
        self.ipv4Prefix = ipv4Prefix
        self.ipv6Prefix = ipv6Prefix
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.headTimeout = headTimeout
        self.maxHeadBytes = maxHeadBytes
    }

    /// 4,096, or less where the process may open fewer files (64 kept for everything else).
    public static func defaultMaxConnections() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 4_096 }
        // (RLIM_INFINITY is all ones: clamped.)
        return max(16, min(4_096, Int(clamping: limit.rlim_cur) - 64))
    }
}

/// The open connections, in all and by address: shared by every connection's guard (a server-wide count,
/// not a connection's state).
final class ConnectionCounts: Sendable {
    private struct Counts {
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())
    let limits: AdmissionLimits

    init(limits: AdmissionLimits) { self.limits = limits }

    /// Counts a connection from `address`; nil when admitted, else why it is refused.
    func open(_ address: String) -> String? {
        counts.withLock { c in
            if c.total >= limits.maxConnections {
                return "the server holds \(limits.maxConnections) connections, its most"
            }
            if c.byAddress[address, default: 0] >= limits.maxConnectionsPerAddress {
                return "\(address) holds \(limits.maxConnectionsPerAddress) connections, the most one address may"
            }
            c.total += 1
            c.byAddress[address, default: 0] += 1
            return nil
        }
    }

    func close(_ address: String) {
        counts.withLock { c in
            c.total -= 1
            let left = c.byAddress[address, default: 1] - 1
            c.byAddress[address] = left > 0 ? left : nil
        }
    }

    var total: Int { counts.withLock { $0.total } }

    /// What counts as one address for the per-address cap: `address` cut to the prefix for its family
    /// (``AdmissionLimits/ipv4Prefix``, ``AdmissionLimits/ipv6Prefix``), written as `NETWORK/BITS`, or the
    /// bare address for a whole one. An IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`) is IPv4.
    static func key(_ address: SocketAddress?, limits: AdmissionLimits) -> String {
        var bytes: [UInt8]
        switch address {
        case .v4(let a):
            bytes = withUnsafeBytes(of: a.address.sin_addr) { Array($0) }
        case .v6(let a):
            bytes = withUnsafeBytes(of: a.address.sin6_addr) { Array($0) }
            if bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] { bytes = Array(bytes.suffix(4)) }
        default:
            return address?.ipAddress ?? "unknown"
        }
        let bits = bytes.count == 4 ? limits.ipv4Prefix : limits.ipv6Prefix
        let prefix = max(0, min(bytes.count * 8, bits))
        for i in bytes.indices {
            let kept = max(0, min(8, prefix - i * 8))
            bytes[i] &= kept == 8 ? 0xff : ~(0xff >> kept)
        }
        let masked = try? SocketAddress(packedIPAddress: ByteBuffer(bytes: bytes), port: 0)
        let text = masked?.ipAddress ?? "unknown"
        return prefix == bytes.count * 8 ? text : "\(text)/\(prefix)"
    }
}

/// The first handler of every connection: admits it under the counts, then watches each request's head
/// until it is whole (CR LF CR LF), within the time and size allowed; answers in plain HTTP and closes
/// otherwise. The first head's time runs from the connection; a kept-alive connection's next head's from
/// when the last bytes of the answer before it were written (and a connection idle that long after an answer
/// is closed). A WebSocket's upgrade (its 101) ends the watch: its frames are the WebSocket layer's to bound.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let counts: ConnectionCounts
    private var address: String?
    private var refused: String?
    /// The head so far (at most `maxHeadBytes` and a read).
    private var head: [UInt8] = []
    /// Where the connection is in its requests.
    private enum Phase {
        /// A head is being read, by the deadline.
        case head
        /// A head is whole and its request not yet answered.
        case answering
        /// The request has been answered (some of it written): the client's next bytes begin a new head.
        case answered
        /// The answer was a WebSocket's 101: no more heads on this connection.
        case upgraded
        /// The guard answered itself (503, 408, 431, 400) and closes the connection.
        case closing
    }

    private var phase = Phase.head
    /// The answer's writes not yet done: the next head's time runs from when the last one is.
    private var writesInFlight = 0
    /// The connection (or the handler) is gone: no timer is set again.
    private var ended = false
    private var deadline: Scheduled<Void>?

    init(counts: ConnectionCounts) { self.counts = counts }

    func handlerAdded(context: ChannelHandlerContext) {
        let address = ConnectionCounts.key(context.channel.remoteAddress, limits: counts.limits)
        if let why = counts.open(address) {
            refused = why
        } else {
            self.address = address
        }
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        if let refused {
            answer(context, "503 Service Unavailable", refused)
            return
        }
        guard deadline == nil, phase == .head else { return }
        arm(context)
    }

    /// The head must be whole within the head timeout from now; a connection with no head begun by then
    /// (idle after an answer) is closed, one with half a head is answered 408.
    private func arm(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        guard !ended else { return }
        let seconds = counts.limits.headTimeout
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
            let (handler, context) = loopBound.value
            switch handler.phase {
            case .answered: context.close(promise: nil)
            case .head:
                handler.answer(
                    context, "408 Request Timeout", "the request's head did not arrive within \(Int(seconds)) s")
            case .answering, .upgraded, .closing: break
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch phase {
        case .answering:
            // The answer's first bytes, its status line: a 101 hands the connection to the WebSocket layer, whose
            // frames are its own to bound.
            if unwrapOutboundIn(data).readableBytesView.starts(with: "HTTP/1.1 101".utf8) {
                phase = .upgraded
                context.write(data, promise: promise)
                return
            }
            phase = .answered
        case .answered: break
        case .head, .upgraded, .closing:
            context.write(data, promise: promise)
            return
        }
        // The next head's time runs from when the answer's last bytes are written, not queued: a client that
        // reads an answer slowly is not cut off in the middle of it.
        deadline?.cancel()
        writesInFlight += 1
        let written = context.eventLoop.makePromise(of: Void.self)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in
            let (handler, context) = loopBound.value
            handler.writesInFlight -= 1
            if handler.writesInFlight == 0, handler.phase == .answered { handler.arm(context) }
        }
        written.futureResult.cascade(to: promise)
        context.write(data, promise: written)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard refused == nil else { return }
        if phase == .answered {
            // The client's next request on a kept-alive connection: a head again, by the deadline the answer set.
            phase = .head
            head = []
        }
        if phase == .head {
            // Only the new bytes are searched (and the three before them, for a CR LF CR LF split across reads).
            let searchFrom = max(0, head.count - 3)
            head += unwrapInboundIn(data).readableBytesView
            if let end = Self.headEnd(head, from: searchFrom) {
                deadline?.cancel()
                if end > counts.limits.maxHeadBytes {
                    answer(
                        context, "431 Request Header Fields Too Large",
                        "a request head over \(counts.limits.maxHeadBytes) bytes")
                    return
                }
                if let problem = Self.problem(inHead: head[..<end]) {
                    answer(context, "400 Bad Request", problem)
                    return
                }
                phase = .answering
                head = []
            } else if head.count > counts.limits.maxHeadBytes {
                answer(
                    context, "431 Request Header Fields Too Large",
                    "a request head over \(counts.limits.maxHeadBytes) bytes")
                return
            }
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    /// The connection is gone (or the handler is): its count goes, once.
    private func release() {
        ended = true
        deadline?.cancel()
        if let address {
            counts.close(address)
            self.address = nil
        }
    }

    /// Where the head ends (its CR LF CR LF), if it has.
    static func headEnd(_ bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count >= 4, start <= bytes.count - 4 else { return nil }
        for i in start...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// What the HTTP parser would choke on without answering: a Content-Length that is not a number.
    static func problem(inHead head: ArraySlice<UInt8>) -> String? {
        for line in String(decoding: head, as: UTF8.self).split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.isEmpty || !value.allSatisfy(\.isASCII) || !value.allSatisfy(\.isNumber) {
                return "Content-Length must be a number of bytes"
            }
        }
        return nil
    }

    /// Answers in plain HTTP, before any of the server's handlers saw a request, and closes.
    private func answer(_ context: ChannelHandlerContext, _ status: String, _ reason: String) {
        deadline?.cancel()
        phase = .closing
        refused = refused ?? reason
        let body = reason + "\n"
        let text =
            "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "X-Content-Type-Options: nosniff\r\nContent-Security-Policy: \(PagePolicy.contentSecurity)\r\n"
            + "Connection: close\r\n\r\n" + body
        let channel = context.channel
        context.writeAndFlush(NIOAny(ByteBuffer(string: text))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// The server's child channel: Hummingbird's HTTP/1 with WebSocket upgrade, with ``ConnectionGuardHandler``
/// first in every connection's pipeline (Hummingbird's own handlers are added after the first request's
/// upgrade decision, too late for a head that never ends).
struct GuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let counts: ConnectionCounts

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let counts = counts
        let inner = inner
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuardHandler(counts: counts), position: .first)
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

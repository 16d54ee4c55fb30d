import Dispatch
public import Logging
import MicCheckKernel
import Synchronization

/// A microphone on a PulseAudio server that keeps delivering through faults: when the server goes away
/// it reconnects with backoff for a while, and when the source disappears it falls back to the
/// server's default source. It reports each such change as a ``Notice``, to the app's `notify` closure (for the
/// user) and to its swift-log `Logger` (for the operator), with the attempts in between at debug level.
///
/// The capture runs on libpulse's event thread and never waits for the consumer (see
/// ``PulseRecordStream``); the consumer calls ``read(into:timeout:)-(_,Duration)`` from one thread of its own.
public final class PulseMicrophone: @unchecked Sendable {
    // @unchecked Sendable: `connection`, `stream`, `wantedSource`, `droppedBefore` and `holesBefore` are
    // touched only by the single consumer thread (inside `read`, `close` and the accessors it calls), as
    // the documented contract requires; `stopping` is an `Atomic`, `switchRequest` a `Mutex` and
    // `dataReady` a semaphore, all safe from any thread, which is all `stop()` and `switchSource(to:)` use.

    /// A change the user should hear about.
    public enum Notice: Sendable, Equatable {
        /// The server went away; reconnecting for up to `window`.
        case serverLost(window: Duration)
        /// Connected again after `gap`, capturing from `source`.
        case reconnected(source: PulseSource, gap: Duration)
        /// The source named `lost` disappeared; capturing from `fallback` instead.
        case sourceLost(lost: String, fallback: PulseSource)
        /// Capturing from `source` now, as ``PulseMicrophone/switchSource(to:)`` asked.
        case switched(to: PulseSource)
        /// The source named `source` could not be opened (`reason`); capture goes on from the same source.
        case switchFailed(source: String, reason: String)
    }

    /// What one ``read(into:timeout:)-(_,Duration)`` brought.
    public enum Read: Sendable, Equatable {
        /// This many samples at ``sampleRate`` were written to the start of the buffer.
        case samples(Int)
        /// Nothing arrived within the timeout.
        case idle
        /// A new stream began (after a reconnection or a fallback): samples that follow may have another
        /// rate and continue after a gap.
        case restarted
        /// ``stop()`` was called.
        case stopped
    }

    /// The source asked for (nil: the default source).
    public let requestedSource: String?
    /// The server address asked for (nil: libpulse's default lookup).
    public let server: String?
    /// How long to keep trying to reconnect.
    public let reconnectWindow: Duration
    private let notify: (Notice) -> Void
    private let logger: Logger
    private let dataReady = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let switchRequest = Mutex<String?>(nil)
    /// The source to come back to after a reconnection: the one asked for, or the one switched to.
    private var wantedSource: String?
    private var connection: PulseConnection?
    private var stream: PulseRecordStream?
    private var droppedBefore = 0
    private var holesBefore = 0

    /// Connects and starts capturing from `source` (nil: the default source).
    /// - Parameters:
    ///   - logger: where each ``Notice`` is logged (a loss or a fallback as a warning, a recovery as info) and
    ///     each failed reconnection attempt (debug), with the source and server as metadata. nil: nowhere.
    ///   - notify: called on the consumer thread, inside `read`, for each fault and recovery.
    public init(
        source: String? = nil, server: String? = nil, reconnectWindow: Duration = .seconds(10), logger: Logger? = nil,
        notify: @escaping (Notice) -> Void = { _ in }
    ) throws(PulseError) {
        requestedSource = source
        wantedSource = source
        self.server = server
        self.reconnectWindow = reconnectWindow
        self.notify = notify
        var logger = logger ?? Logger(label: "miccheck.pulse", factory: { _ in SwiftLogNoOpLogHandler() })
        logger[metadataKey: "pulse.server"] = "\(server ?? "default")"
        self.logger = logger
        let connection = try makeConnection()
        self.connection = connection
        stream = try PulseRecordStream(
            connection: connection, source: try connection.source(named: source),
            dataReady: dataReady)
    }

    /// Connects and starts capturing from `source`, reconnecting for up to `reconnectWindow` seconds.
    @available(*, deprecated, message: "Pass a Duration: reconnectWindow: .seconds(10)")
    public convenience init(
        source: String? = nil, server: String? = nil, reconnectWindow: Double, logger: Logger? = nil,
        notify: @escaping (Notice) -> Void = { _ in }
    ) throws(PulseError) {
        try self.init(
            source: source, server: server, reconnectWindow: .wait(seconds: reconnectWindow), logger: logger,
            notify: notify)
    }

    deinit { close() }

    /// The source being captured now.
    public var source: PulseSource? { stream?.source }
    /// The rate of the samples ``read(into:timeout:)-(_,Duration)`` delivers now.
    public var sampleRate: Int { stream?.sampleRate ?? 48_000 }
    /// Samples dropped because the consumer fell behind, over all streams so far.
    public var droppedSamples: Int { droppedBefore + (stream?.ring.droppedSamples ?? 0) }
    /// Bytes the server reported lost before they reached this client, over all streams so far.
    public var holeBytes: Int { holesBefore + (stream?.holeBytes ?? 0) }

    /// Ends capture soon: a waiting or later ``read(into:timeout:)-(_,Duration)`` returns ``Read/stopped``.
    /// Callable from any thread (a signal handler's queue, for one).
    public func stop() {
        stopping.store(true, ordering: .releasing)
        dataReady.signal()
    }

    /// Asks to capture from the source named `name` instead. Callable from any thread: the switch is made
    /// on the reading thread, in the next ``read(into:timeout:)-(_,Duration)``, which then returns ``Read/restarted``
    /// and notifies ``Notice/switched(to:)``; when the source cannot be opened it notifies
    /// ``Notice/switchFailed(source:reason:)`` and capture goes on from the current source.
    public func switchSource(to name: String) {
        switchRequest.withLock { $0 = name }
        dataReady.signal()
    }

    /// Closes the stream and the connection.
    public func close() {
        endStream()
        connection?.close()
        connection = nil
    }

    /// Waits up to `timeout` seconds for samples and moves them into `buffer`.
    @available(*, deprecated, message: "Pass a Duration: read(into:timeout: .milliseconds(100))")
    public func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double) throws(PulseError) -> Read {
        try read(into: buffer, timeout: .wait(seconds: timeout))
    }

    /// Waits up to `timeout` for samples and moves them into `buffer`, recovering from faults on the way
    /// (which may take up to ``reconnectWindow``).
    /// - Throws: ``PulseError`` when the server stays away for the whole window, or no source is left.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Duration) throws(PulseError) -> Read {
        let deadline = DispatchTime.now() + timeout.seconds
        while true {
            if stopping.load(ordering: .acquiring) { return .stopped }
            if let name = switchRequest.withLock({ $0.take() }), trySwitch(to: name) { return .restarted }
            guard let stream else { break }
            let n = stream.ring.read(into: buffer)
            if n > 0 { return .samples(n) }
            if connection?.isLost ?? true { break }
            if stream.hasEnded {
                try fallBack(from: stream.source.name)
                return stopping.load(ordering: .acquiring) ? .stopped : .restarted
            }
            if dataReady.wait(timeout: deadline) == .timedOut { return .idle }
        }
        // No stream, or the server went away.
        try reconnect()
        return stopping.load(ordering: .acquiring) ? .stopped : .restarted
    }

    /// Forgets the samples captured and not yet read, to start in step with another capture.
    /// Call it from the reading thread.
    public func discardBuffered() { stream?.ring.discardAll() }

    /// Tells the app and the log of a fault or a recovery.
    private func report(_ notice: Notice) {
        logger.log(level: notice.logLevel, "\(notice)", metadata: notice.logMetadata)
        notify(notice)
    }

    private func makeConnection() throws(PulseError) -> PulseConnection {
        let ready = dataReady
        return try PulseConnection(server: server, onLost: { ready.signal() })
    }

    private func endStream() {
        guard let stream else { return }
        droppedBefore += stream.ring.droppedSamples
        holesBefore += stream.holeBytes
        stream.close()
        self.stream = nil
    }

    /// Waits `seconds`, or less if ``stop()`` is called. The semaphore also counts every block of samples
    /// that arrived while the reader was busy (often thousands by the time a server goes away): those wake
    /// nothing here, or each pause would end at once and the reconnection spin a core.
    private func pause(_ seconds: Double) {
        let until = DispatchTime.now() + seconds
        while !stopping.load(ordering: .acquiring), dataReady.wait(timeout: until) == .success {}
    }

    /// The source the user asked for when it exists, otherwise the default one (saying so).
    private func pickSource(on connection: PulseConnection) throws(PulseError) -> PulseSource {
        do {
            return try connection.source(named: wantedSource)
        } catch let error where error.kind == .noSuchSource && wantedSource != nil {
            let fallback = try connection.source(named: nil)
            report(.sourceLost(lost: wantedSource ?? "", fallback: fallback))
            return fallback
        }
    }

    private func reconnect() throws(PulseError) {
        endStream()
        connection?.close()
        connection = nil
        report(.serverLost(window: reconnectWindow))
        let started = DispatchTime.now()
        let deadline = started + reconnectWindow.seconds
        var backoff = 0.1
        var lastError = PulseError(.noServer, "no PulseAudio server is running")
        while !stopping.load(ordering: .acquiring) && DispatchTime.now() < deadline {
            do {
                let connection = try makeConnection()
                let source = try pickSource(on: connection)
                self.connection = connection
                stream = try PulseRecordStream(connection: connection, source: source, dataReady: dataReady)
                let gap = Duration.nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds))
                report(.reconnected(source: source, gap: gap))
                return
            } catch {
                if error.kind == .accessDenied { throw error }
                logger.debug("reconnecting: \(error.message)", metadata: ["pulse.retry_in_s": "\(backoff)"])
                lastError = error
                endStream()
                connection?.close()
                connection = nil
            }
            pause(backoff)
            backoff = min(backoff * 2, 2)
        }
        if stopping.load(ordering: .acquiring) { return }
        throw PulseError(
            .connectionLost,
            "the PulseAudio server did not come back within \(formatWindow(reconnectWindow.seconds)) (\(lastError.message))"
        )
    }

    /// Opens `name` and, once it runs, closes the current stream. Returns whether it switched.
    private func trySwitch(to name: String) -> Bool {
        guard let connection, !connection.isLost else {
            report(.switchFailed(source: name, reason: "the PulseAudio server is not connected"))
            return false
        }
        if let current = stream, current.source.name == name, !current.hasEnded { return false }
        do {
            let source = try connection.source(named: name)
            let next = try PulseRecordStream(connection: connection, source: source, dataReady: dataReady)
            endStream()
            stream = next
            wantedSource = name
            report(.switched(to: source))
            return true
        } catch {
            report(.switchFailed(source: name, reason: error.message))
            return false
        }
    }

    private func fallBack(from lost: String) throws(PulseError) {
        endStream()
        guard let connection else { return try reconnect() }
        let deadline = DispatchTime.now() + reconnectWindow.seconds
        var lastError = PulseError(.noSuchSource, "the PulseAudio server has no source to capture from")
        while !stopping.load(ordering: .acquiring) && DispatchTime.now() < deadline {
            if connection.isLost { return try reconnect() }
            do {
                let fallback = try connection.source(named: nil)
                if fallback.name != lost {
                    stream = try PulseRecordStream(connection: connection, source: fallback, dataReady: dataReady)
                    report(.sourceLost(lost: lost, fallback: fallback))
                    return
                }
            } catch {
                if error.kind == .accessDenied { throw error }
                lastError = error
            }
            pause(0.1)  // the server may not have picked a new default yet
        }
        if stopping.load(ordering: .acquiring) { return }
        throw PulseError(
            .noSuchSource, "the source \(lost) disappeared and no other source took its place (\(lastError.message))")
    }
}

extension PulseMicrophone.Notice: CustomStringConvertible {
    /// The notice as a sentence for the user, without a final stop: "the PulseAudio server went away;
    /// reconnecting for up to 10 s".
    public var description: String {
        switch self {
        case .serverLost(let window):
            "the PulseAudio server went away; reconnecting for up to \(formatWindow(window.seconds))"
        case .reconnected(let source, let gap):
            "reconnected after \(formatSeconds(gap.seconds)); listening to \(source.description) (\(source.name)) again"
        case .sourceLost(let lost, let fallback):
            "the source \(lost) disappeared; listening to the default source \(fallback.description) (\(fallback.name)) instead"
        case .switched(let source):
            "listening to \(source.description) (\(source.name)) now"
        case .switchFailed(let name, let reason):
            "could not switch to \(name) (\(reason)); listening on"
        }
    }

    /// How it is logged: a loss or a failure as a warning, a recovery or a switch asked for as info.
    public var logLevel: Logger.Level {
        switch self {
        case .serverLost, .sourceLost, .switchFailed: .warning
        case .reconnected, .switched: .info
        }
    }

    /// The source it is about, as log metadata (`pulse.source`, and `pulse.gap_s` after a reconnection).
    public var logMetadata: Logger.Metadata {
        switch self {
        case .serverLost: [:]
        case .reconnected(let source, let gap):
            ["pulse.source": "\(source.name)", "pulse.gap_s": "\(fixed(gap.seconds, 2))"]
        case .sourceLost(let lost, let fallback): ["pulse.source": "\(fallback.name)", "pulse.lost": "\(lost)"]
        case .switched(let source): ["pulse.source": "\(source.name)"]
        case .switchFailed(let name, _): ["pulse.source": "\(name)"]
        }
    }
}

/// "10 s", "2.5 s"; a window too long for whole seconds (retrying for ever) as Swift writes the number.
private func formatWindow(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e15, seconds == seconds.rounded() else { return "\(seconds) s" }
    return "\(Int(seconds)) s"
}

import CPulseAudio
import Synchronization

/// A connection to a PulseAudio server (or PipeWire's Pulse server) with its own event thread: libpulse's
/// threaded main loop and a context.
///
/// Blocking calls (connecting, ``sources()``, ``serverDefaults()``) take the main loop's lock and wait
/// for the server's answer; they must not be made from a libpulse callback.
///
/// - Important: create, use and close a connection from threads of your own, never from its event
///   thread. Closing stops the event thread; no callback runs after ``close()`` returns.
public final class PulseConnection: @unchecked Sendable {
    // @unchecked Sendable: `mainloop` and `context` are created in `init` and released once in `close()`
    // (guarded by the atomic `closed`); every libpulse call on them other than the thread-safe
    // `pa_threaded_mainloop_*` functions is made with the main loop's lock held, which is libpulse's
    // documented rule for using a threaded main loop from other threads. `lost` is an `Atomic`.
    let mainloop: OpaquePointer
    let context: OpaquePointer
    /// The server address asked for (nil: libpulse's default lookup).
    public let server: String?
    private let closed = Atomic<Bool>(false)
    private let lost = Atomic<Bool>(false)
    /// Called on the event thread when the connection breaks (the server died or dropped us).
    private let onLost: (@Sendable () -> Void)?

    /// Connects to the server at `server` (nil: `PULSE_SERVER`, then the user's runtime directory).
    /// Never starts a server (no autospawn).
    /// - Parameter onLost: called once, on the event thread, if the connection later breaks.
    public init(
        applicationName: String = "miccheck", server: String? = nil,
        onLost: (@Sendable () -> Void)? = nil
    ) throws(PulseError) {
        guard let ml = pa_threaded_mainloop_new() else {
            throw PulseError(.failed, "libpulse could not create its event loop")
        }
        guard let ctx = pa_context_new(pa_threaded_mainloop_get_api(ml), applicationName) else {
            pa_threaded_mainloop_free(ml)
            throw PulseError(.failed, "libpulse could not create a context")
        }
        mainloop = ml
        context = ctx
        self.server = server
        self.onLost = onLost
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(
            ctx,
            { _, userdata in
                guard let userdata else { return }
                Unmanaged<PulseConnection>.fromOpaque(userdata).takeUnretainedValue().contextStateChanged()
            }, me)
        guard pa_threaded_mainloop_start(ml) >= 0 else {
            throw PulseError(.failed, "libpulse could not start its event thread")
        }
        pa_threaded_mainloop_lock(ml)
        defer { pa_threaded_mainloop_unlock(ml) }
        if pa_context_connect(ctx, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            throw PulseError.from(code: pa_context_errno(ctx), doing: "connecting", server: server)
        }
        while true {
            let state = pa_context_get_state(ctx)
            if state == PA_CONTEXT_READY { break }
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                throw PulseError.from(code: pa_context_errno(ctx), doing: "connecting", server: server)
            }
            pa_threaded_mainloop_wait(ml)
        }
    }

    deinit { close() }

    /// Whether the connection has broken since it was made.
    public var isLost: Bool { lost.load(ordering: .acquiring) }

    /// Disconnects and stops the event thread. Safe to call more than once.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        pa_threaded_mainloop_lock(mainloop)
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_threaded_mainloop_unlock(mainloop)
        pa_threaded_mainloop_stop(mainloop)
        pa_context_unref(context)
        pa_threaded_mainloop_free(mainloop)
    }

    /// The event thread's view of the context (runs with the lock held).
    private func contextStateChanged() {
        let state = pa_context_get_state(context)
        if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
            if !lost.exchange(true, ordering: .acquiringAndReleasing) { onLost?() }
        }
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    /// Runs `body` with the main loop's lock held.
    func locked<T>(_ body: () throws(PulseError) -> T) throws(PulseError) -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// With the lock held: waits until `operation` completes or the connection breaks.
    func wait(for operation: OpaquePointer?, doing: String) throws(PulseError) {
        guard let operation else {
            throw PulseError.from(code: pa_context_errno(context), doing: doing, server: server)
        }
        defer { pa_operation_unref(operation) }
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            if pa_context_get_state(context) != PA_CONTEXT_READY {
                pa_operation_cancel(operation)
                throw PulseError(.connectionLost, "the connection to the PulseAudio server broke while \(doing)")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    /// With the lock held: waits until `stream`, just connected, runs; throws `refused()` when the server
    /// fails or ends it, and a lost connection's error naming `place`. The stream's state callback must
    /// signal the main loop.
    func waitUntilReady(
        _ stream: OpaquePointer, place: String, refused: () -> PulseError
    ) throws(PulseError) {
        while true {
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_READY { return }
            if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED { throw refused() }
            if isLost {
                throw PulseError(
                    .connectionLost, "the connection to the PulseAudio server broke while opening \(place)")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    /// With the lock held: subscribes to the server's events of `mask` and waits until the server has taken
    /// the subscription. The events go to the callback set with `pa_context_set_subscribe_callback`.
    func subscribe(_ mask: pa_subscription_mask_t, doing: String) throws(PulseError) {
        // Unretained: `wait(for:)` returns only once the operation completed or was cancelled, while `self`
        // is alive for the call.
        let me = Unmanaged.passUnretained(self).toOpaque()
        let op = pa_context_subscribe(
            context, mask,
            { _, _, userdata in
                guard let userdata else { return }
                let connection = Unmanaged<PulseConnection>.fromOpaque(userdata).takeUnretainedValue()
                pa_threaded_mainloop_signal(connection.mainloop, 0)
            }, me)
        try wait(for: op, doing: doing)
    }

    /// What the server says about itself and its defaults.
    public struct ServerDefaults: Sendable, Equatable {
        /// The server's name, as it reports it ("unknown" when it does not).
        public var serverName: String
        /// The server's version, as it reports it ("unknown" when it does not).
        public var serverVersion: String
        /// The name of the default source (capture device), if there is one.
        public var defaultSource: String?
        /// The name of the default sink (output), if there is one.
        public var defaultSink: String?
        /// A random number the server picks when it starts: the same server instance has the same one.
        public var cookie: UInt32 = 0
        /// The address the connection reached: a socket path (without "unix:") or a host.
        public var address: String = ""
    }

    /// The server's name, version and default devices.
    public func serverDefaults() throws(PulseError) -> ServerDefaults {
        let box = Box<ServerDefaults?>(nil, mainloop: mainloop)
        try locked { () throws(PulseError) in
            let op = pa_context_get_server_info(
                context,
                { _, info, userdata in
                    guard let userdata else { return }
                    let box = Unmanaged<Box<ServerDefaults?>>.fromOpaque(userdata).takeUnretainedValue()
                    if let info = info?.pointee {
                        box.value = ServerDefaults(
                            serverName: info.server_name.map { String(cString: $0) } ?? "unknown",
                            serverVersion: info.server_version.map { String(cString: $0) } ?? "unknown",
                            defaultSource: info.default_source_name.map { String(cString: $0) },
                            defaultSink: info.default_sink_name.map { String(cString: $0) },
                            cookie: info.cookie)
                    }
                    pa_threaded_mainloop_signal(box.mainloop, 0)
                }, Unmanaged.passUnretained(box).toOpaque())
            try wait(for: op, doing: "asking for its defaults")
            // "unix:/path" and "/path" name the same socket.
            let address = pa_context_get_server(context).map { String(cString: $0) } ?? server ?? ""
            box.value?.address = address.hasPrefix("unix:") ? String(address.dropFirst(5)) : address
        }
        guard let value = box.value else { throw PulseError(.failed, "the PulseAudio server did not describe itself") }
        return value
    }

    /// Every source (capture device and output monitor) the server has, in the server's order.
    public func sources() throws(PulseError) -> [PulseSource] {
        try sources(given: serverDefaults())
    }

    /// Every source, with the default marked as `defaults` (already asked for) names it.
    public func sources(given defaults: ServerDefaults) throws(PulseError) -> [PulseSource] {
        typealias Listing = (defaultName: String?, sources: [PulseSource])
        let box = Box<Listing>((defaults.defaultSource, []), mainloop: mainloop)
        try locked { () throws(PulseError) in
            let op = pa_context_get_source_info_list(
                context,
                { _, info, eol, userdata in
                    guard let userdata else { return }
                    let box = Unmanaged<Box<Listing>>.fromOpaque(userdata).takeUnretainedValue()
                    if eol == 0, let info = info?.pointee {
                        box.value.sources.append(PulseSource(info, defaultName: box.value.defaultName))
                    }
                    if eol != 0 { pa_threaded_mainloop_signal(box.mainloop, 0) }
                }, Unmanaged.passUnretained(box).toOpaque())
            try wait(for: op, doing: "listing sources")
        }
        return box.value.sources
    }

    /// The source named `name`, or the default source when `name` is nil.
    public func source(named name: String?) throws(PulseError) -> PulseSource {
        let all = try sources()
        if let name {
            guard let found = all.first(where: { $0.name == name }) else {
                let names = all.map(\.name).joined(separator: ", ")
                throw PulseError(
                    .noSuchSource,
                    "the PulseAudio server has no source named \"\(name)\" (it has: \(names.isEmpty ? "none" : names))")
            }
            return found
        }
        guard let found = all.first(where: \.isDefault) ?? all.first(where: { !$0.isMonitor }) ?? all.first else {
            throw PulseError(.noSuchSource, "the PulseAudio server has no source to capture from")
        }
        return found
    }
}

/// A value filled in by a libpulse callback on the event thread and read after the waiting thread wakes.
final class Box<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is written only by a libpulse callback, which runs on the event thread
    // with the main loop's lock held, and read by the waiting thread only after it has reacquired that
    // lock (inside or after `PulseConnection.wait(for:doing:)`), so the lock orders every access.
    var value: Value
    let mainloop: OpaquePointer
    init(_ value: Value, mainloop: OpaquePointer) {
        self.value = value
        self.mainloop = mainloop
    }
}

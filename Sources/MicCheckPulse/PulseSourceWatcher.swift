#if os(Linux)
    import CPulseAudio
    import Synchronization

    /// A source that came or went on the server.
    public enum PulseSourceChange: Sendable, Equatable {
        /// A source appeared after watching began.
        case added(PulseSource)
        /// A source known to the watcher disappeared (unplugged, its module unloaded).
        case removed(PulseSource)
    }

    /// Watches a PulseAudio server for sources that come and go, through libpulse's subscription API
    /// (`pa_context_subscribe` with `PA_SUBSCRIPTION_MASK_SOURCE`) on a connection of its own.
    ///
    /// The sources present when it starts are known (``sources``) but not reported; each one that appears
    /// later is reported as ``PulseSourceChange/added(_:)`` once its description is known, and each known
    /// one that disappears as ``PulseSourceChange/removed(_:)``. Monitors of outputs (what the speakers
    /// play) are not microphones: unless `includeMonitors` is set they are neither reported nor listed.
    ///
    /// Changes reach `onChange` when one is given, on libpulse's event thread; otherwise they wait for
    /// ``take()`` (a screen or a read loop that polls) or for ``changes`` (an `AsyncStream`).
    ///
    /// - Important: `onChange` runs on the event thread with the main loop's lock held: it must return
    ///   soon and must not call this watcher's connection. Create and close the watcher from threads of
    ///   your own. When the server goes away the watcher stops (``isLost``); make a new one once the
    ///   server is back.
    public final class PulseSourceWatcher: Sendable {
        private struct State {
            var known: [UInt32: PulseSource] = [:]
            var pending: [PulseSourceChange] = []
            var continuation: AsyncStream<PulseSourceChange>.Continuation?
        }

        /// The watcher's own connection (it is not shared with a capture).
        public let connection: PulseConnection
        /// Whether monitors of outputs are reported and listed too.
        public let includeMonitors: Bool
        private let onChange: (@Sendable (PulseSourceChange) -> Void)?
        private let state = Mutex(State())
        private let closed = Atomic<Bool>(false)
        /// At most this many changes wait for ``take()``; older ones are dropped first.
        static let pendingLimit = 256

        /// Connects to `server` (nil: `PULSE_SERVER`, then the user's own server), lists its sources and
        /// starts watching.
        /// - Parameter onChange: called on libpulse's event thread for every change; nil: keep them for
        ///   ``take()`` and ``changes``.
        public init(
            server: String? = nil, includeMonitors: Bool = false,
            onChange: (@Sendable (PulseSourceChange) -> Void)? = nil
        ) throws(PulseError) {
            connection = try PulseConnection(applicationName: "miccheck device watcher", server: server)
            self.includeMonitors = includeMonitors
            self.onChange = onChange
            do throws(PulseError) {
                try subscribe()
                // Listed after subscribing: a source that appears in between is reported, not missed.
                let listed = try connection.sources()
                state.withLock { s in
                    for source in listed where s.known[source.index] == nil { s.known[source.index] = source }
                }
            } catch {
                close()
                throw error
            }
        }

        deinit { close() }

        /// The sources the server has now, as far as the watcher knows, in index order (without monitors
        /// unless `includeMonitors`).
        public var sources: [PulseSource] {
            state.withLock { s in
                s.known.values.filter { includeMonitors || !$0.isMonitor }.sorted { $0.index < $1.index }
            }
        }

        /// Whether the connection broke: nothing more will be reported.
        public var isLost: Bool { connection.isLost }

        /// The changes since the last call, oldest first (always empty when `onChange` was given).
        public func take() -> [PulseSourceChange] {
            state.withLock { s in
                defer { s.pending.removeAll(keepingCapacity: true) }
                return s.pending
            }
        }

        /// The changes from now on, as an asynchronous sequence that ends when the watcher is closed
        /// (or replaced by a later call of this property). Changes go to one place: while this stream is
        /// iterated, ``take()`` stays empty.
        public var changes: AsyncStream<PulseSourceChange> {
            let (stream, continuation) = AsyncStream.makeStream(
                of: PulseSourceChange.self, bufferingPolicy: .bufferingNewest(Self.pendingLimit))
            let previous = state.withLock { s in
                defer { s.continuation = continuation }
                return s.continuation
            }
            previous?.finish()
            if closed.load(ordering: .acquiring) { continuation.finish() }
            return stream
        }

        /// Stops watching and disconnects. Safe to call more than once; no change is reported afterwards.
        public func close() {
            guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
            try? connection.locked { () throws(PulseError) in
                pa_context_set_subscribe_callback(connection.context, nil, nil)
            }
            connection.close()
            state.withLock { $0.continuation }?.finish()
        }

        // MARK: libpulse

        private func subscribe() throws(PulseError) {
            let me = Unmanaged.passUnretained(self).toOpaque()
            try connection.locked { () throws(PulseError) in
                pa_context_set_subscribe_callback(
                    connection.context,
                    { _, type, index, userdata in
                        guard let userdata else { return }
                        Unmanaged<PulseSourceWatcher>.fromOpaque(userdata).takeUnretainedValue()
                            .serverEvent(type.rawValue, index: index)
                    }, me)
                try connection.subscribe(PA_SUBSCRIPTION_MASK_SOURCE, doing: "subscribing to its sources' changes")
            }
        }

        /// On the event thread, lock held: a source was added, changed or removed.
        private func serverEvent(_ type: UInt32, index: UInt32) {
            guard !closed.load(ordering: .acquiring),
                type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue == PA_SUBSCRIPTION_EVENT_SOURCE.rawValue
            else { return }
            switch type & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue {
            case PA_SUBSCRIPTION_EVENT_NEW.rawValue:
                // Its description comes in a second answer; the callback must not wait for it.
                let op = pa_context_get_source_info_by_index(
                    connection.context, index,
                    { _, info, eol, userdata in
                        guard let userdata, eol == 0, let info = info?.pointee else { return }
                        Unmanaged<PulseSourceWatcher>.fromOpaque(userdata).takeUnretainedValue()
                            .appeared(PulseSource(info, defaultName: nil))
                    }, Unmanaged.passUnretained(self).toOpaque())
                if let op { pa_operation_unref(op) }
            case PA_SUBSCRIPTION_EVENT_REMOVE.rawValue:
                if let gone = state.withLock({ $0.known.removeValue(forKey: index) }) { report(.removed(gone)) }
            default:
                break
            }
        }

        private func appeared(_ source: PulseSource) {
            guard !closed.load(ordering: .acquiring) else { return }
            let isNew = state.withLock { s in
                defer { s.known[source.index] = source }
                return s.known[source.index] == nil
            }
            if isNew { report(.added(source)) }
        }

        private func report(_ change: PulseSourceChange) {
            switch change {
            case .added(let s), .removed(let s): if s.isMonitor && !includeMonitors { return }
            }
            if let onChange { return onChange(change) }
            state.withLock { s in
                if let continuation = s.continuation {
                    continuation.yield(change)
                    return
                }
                if s.pending.count >= Self.pendingLimit { s.pending.removeFirst() }
                s.pending.append(change)
            }
        }
    }
#endif

#if canImport(MicCheckPulse)
    public import MicCheckCall
    public import MicCheckLive
    public import MicCheckPulse
    import Synchronization

    extension MicrophoneDevice {
        /// A PulseAudio source as the models see it: its name and its description.
        public init(_ source: PulseSource) { self.init(id: source.name, name: source.description) }
    }

    /// The microphones of a PulseAudio server around one `PulseMicrophone` in use: new ones, ones
    /// that went, the switches asked for and the fallback when the one in use goes, as
    /// `MicrophoneDeviceChange` values for a screen or a read loop to take.
    ///
    /// It watches the server with a `PulseSourceWatcher` and hears the microphone's own notices through
    /// ``noticed(_:)``, which the app calls from the microphone's notice handler:
    ///
    /// ```swift
    /// let devices = try MicrophoneDevices(server: nil)
    /// let mic = try PulseMicrophone { notice in devices.noticed(notice) }
    /// devices.noticed(inUse: mic.source)
    /// // each frame: for change in devices.take() { … }; to switch: mic.switchSource(to: device.id)
    /// ```
    /// When the server comes back after going away, it watches the new server.
    public final class MicrophoneDevices: Sendable {
        private struct State {
            var watcher: PulseSourceWatcher?
            var inUse: PulseSource?
            /// Sources the microphone lost before the watcher saw them go: their removal is no news.
            var lost: Set<String> = []
            var pending: [MicrophoneDeviceChange] = []
        }

        /// The PulseAudio server it watches (nil: the default).
        public let server: String?
        private let state = Mutex(State())
        /// At most this many changes wait for ``take()``; older ones are dropped first.
        static let pendingLimit = 256

        /// Starts watching `server` (nil: `PULSE_SERVER`, then the user's own server).
        public init(server: String? = nil) throws(PulseError) {
            self.server = server
            let watcher = try makeWatcher()
            state.withLock { $0.watcher = watcher }
        }

        deinit { close() }

        /// The microphone in use, as far as this knows.
        public var inUse: MicrophoneDevice? { state.withLock { $0.inUse.map(MicrophoneDevice.init) } }

        /// The server's microphones now (outputs' monitors left out).
        public var microphones: [MicrophoneDevice] {
            (state.withLock { $0.watcher }?.sources ?? []).map(MicrophoneDevice.init)
        }

        /// Says which source the microphone captures (when it opens).
        public func noticed(inUse source: PulseSource?) { state.withLock { $0.inUse = source } }

        /// A notice of the microphone in use (call it from its notice handler, on any thread).
        public func noticed(_ notice: PulseMicrophone.Notice) {
            switch notice {
            case .serverLost:
                break
            case .reconnected(let source, _):
                state.withLock { $0.inUse = source }
                // The old watcher's connection died with the server.
                let fresh = try? makeWatcher()
                state.withLock { $0.watcher }?.close()
                state.withLock { $0.watcher = fresh }
            case .switched(let source):
                state.withLock { s in
                    s.inUse = source
                    s.pending.append(.switched(to: MicrophoneDevice(source)))
                }
            case .switchFailed(let name, let reason):
                let device = device(named: name)
                state.withLock { $0.pending.append(.switchFailed(device, reason: reason)) }
            case .sourceLost(let lostName, let fallback):
                state.withLock { s in
                    let lost =
                        s.inUse.flatMap { $0.name == lostName ? MicrophoneDevice($0) : nil }
                        ?? MicrophoneDevice(id: lostName, name: lostName)
                    if s.watcher?.sources.contains(where: { $0.name == lostName }) == true { s.lost.insert(lostName) }
                    s.inUse = fallback
                    s.pending.append(.fellBack(lost: lost, to: MicrophoneDevice(fallback)))
                }
            }
        }

        /// What changed since the last call, oldest first.
        public func take() -> [MicrophoneDeviceChange] {
            state.withLock { s in
                defer { s.pending.removeAll(keepingCapacity: true) }
                return s.pending
            }
        }

        /// Stops watching. Safe to call more than once.
        public func close() {
            let watcher = state.withLock { s in
                defer { s.watcher = nil }
                return s.watcher
            }
            watcher?.close()
        }

        private func device(named name: String) -> MicrophoneDevice {
            microphones.first { $0.id == name } ?? MicrophoneDevice(id: name, name: name)
        }

        private func makeWatcher() throws(PulseError) -> PulseSourceWatcher {
            try PulseSourceWatcher(server: server) { [weak self] change in self?.watched(change) }
        }

        /// On the watcher's event thread.
        private func watched(_ change: PulseSourceChange) {
            state.withLock { s in
                if s.pending.count >= Self.pendingLimit { s.pending.removeFirst() }
                switch change {
                case .added(let source) where source.name != s.inUse?.name:
                    s.pending.append(.appeared(MicrophoneDevice(source)))
                case .removed(let source) where source.name != s.inUse?.name:
                    if s.lost.remove(source.name) == nil { s.pending.append(.removed(MicrophoneDevice(source))) }
                case .added, .removed:
                    break  // the one in use: its loss is the microphone's own notice
                }
            }
        }
    }
#endif

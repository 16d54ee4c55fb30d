#if canImport(MicCheckPulse)
    public import Logging
    public import MicCheck
    public import MicCheckLive
    public import MicCheckPulse
    #if canImport(MicCheckVoiceProcessing)
        import MicCheckVoiceProcessing
    #endif

    extension AudioSourceError {
        /// A PulseAudio failure as a source error.
        public init(_ error: PulseError) {
            let kind: Kind =
                switch error.kind {
                case .noServer: .noServer
                case .accessDenied: .accessDenied
                case .noSuchSource: .noSuchSource
                case .connectionLost: .connectionLost
                case .failed: .failed
                }
            self.init(kind, error.message)
        }
    }

    /// A PulseAudio (or PipeWire-Pulse) source as an audio source: reconnects when the server comes back
    /// and falls back to the default source when its own disappears (`PulseMicrophone`).
    public final class PulseAudioSource: AudioSource, @unchecked Sendable {
        // @unchecked Sendable: the wrapped `PulseMicrophone` is itself Sendable under the same contract
        // (one reading thread; `stop()` from anywhere); this class adds no state of its own.
        /// The PulseAudio microphone it reads (its notices, its switches to another source).
        public let microphone: PulseMicrophone

        /// A source on a microphone the app opened itself.
        public init(microphone: PulseMicrophone) { self.microphone = microphone }

        /// Opens `source` (default: the server's default source) on `server` (default: PULSE_SERVER, then the
        /// user's own server); `notice` hears of reconnections and fallbacks, on the reading thread, and
        /// `logger` logs them (`PulseMicrophone.init(source:server:reconnectWindow:logger:notify:)`).
        public convenience init(
            source: String? = nil, server: String? = nil, reconnectWindow: Duration = .seconds(10),
            logger: Logger? = nil,
            notice: @escaping (PulseMicrophone.Notice) -> Void = { _ in }
        ) throws(AudioSourceError) {
            do {
                self.init(
                    microphone: try PulseMicrophone(
                        source: source, server: server, reconnectWindow: reconnectWindow, logger: logger,
                        notify: notice))
            } catch {
                throw AudioSourceError(error)
            }
        }

        /// Opens `source` on `server`, reconnecting for up to `reconnectWindow` seconds.
        @available(*, deprecated, message: "Pass a Duration: reconnectWindow: .seconds(10)")
        public convenience init(
            source: String? = nil, server: String? = nil, reconnectWindow: Double, logger: Logger? = nil,
            notice: @escaping (PulseMicrophone.Notice) -> Void = { _ in }
        ) throws(AudioSourceError) {
            try self.init(
                source: source, server: server, reconnectWindow: .wait(seconds: reconnectWindow), logger: logger,
                notice: notice)
        }

        /// The source being captured, as "Description (name)" ("no source" when there is none).
        public var label: String {
            guard let s = microphone.source else { return "no source" }
            return "\(s.description) (\(s.name))"
        }
        /// The source, named as in `label`, when it is an output's monitor rather than a microphone.
        public var monitorSource: String? { microphone.monitorSource }
        /// The rate of the samples the microphone delivers now, in Hz.
        public var sampleRate: Int { microphone.sampleRate }
        /// Samples the microphone dropped because the reader fell behind, over all its streams.
        public var droppedSamples: Int { microphone.droppedSamples }
        /// Stops the microphone from any thread: the current or next read returns `AudioRead.stopped`.
        public func stop() { microphone.stop() }

        /// Waits up to `timeout` for the microphone's samples and copies them into `buffer`, reconnecting or
        /// falling back to the default source on the way.
        public func read(
            into buffer: UnsafeMutableBufferPointer<Float>, timeout: Duration
        ) throws(AudioSourceError) -> AudioRead {
            let read: PulseMicrophone.Read
            do { read = try microphone.read(into: buffer, timeout: timeout) } catch { throw AudioSourceError(error) }
            return switch read {
            case .samples(let n): .samples(n)
            case .idle: .idle
            case .restarted: .restarted
            case .stopped: .stopped
            }
        }
    }

    #if canImport(MicCheckVoiceProcessing)
        /// A PulseAudio microphone through voice processing, with the default output's monitor (what the
        /// loudspeakers play) as the echo reference. Delivers processed audio at 16 kHz.
        public final class VoiceProcessedSource: AudioSource, @unchecked Sendable {
            // @unchecked Sendable: `microphone` is Sendable under its own contract (one reading thread,
            // `stop()` from anywhere). Everything else (`far`, `stream`, buffers, counters) is used only by
            // `read(into:timeout:)`, on the one reading thread.
            /// The PulseAudio microphone under the processing.
            public let microphone: PulseMicrophone
            private let server: String?
            private let configuration: VoiceProcessingConfiguration
            private var far: PulseSinkMonitor?
            private var stream: VoiceProcessingStream
            private var nearBlock = [Float](repeating: 0, count: 2_048)
            private var farBlock = [Float](repeating: 0, count: 4_096)
            /// Samples each capture had dropped when last looked at (a stalled reader overflows its ring).
            private var nearDropped = 0
            private var farDropped = 0
            /// What to say about the echo reference, taken by the caller.
            public private(set) var notices: [String] = []

            /// A near-end frame waits at most this long for the far end (late under load, or suspended);
            /// the far-end audio that arrives after that is skipped, so the two stay aligned.
            static let farWait = 0.1

            /// Starts voice processing on `microphone`, with the default output's monitor of `server` as the echo reference.
            public init(
                microphone: PulseMicrophone, server: String?, configuration: VoiceProcessingConfiguration
            ) throws(AudioSourceError) {
                self.microphone = microphone
                self.server = server
                self.configuration = configuration
                do {
                    (far, stream) = try Self.connect(
                        microphone: microphone, server: server, configuration: configuration)
                } catch {
                    throw AudioSourceError(.failed, "voice processing could not start: \(error)")
                }
                nearDropped = microphone.droppedSamples
                if far == nil { notices.append(Self.noReference) }
            }

            /// Said once when the default output has no monitor: nothing to cancel.
            public static let noReference =
                "miccheck: no echo reference (the default output has no monitor); echo cancellation has nothing to cancel."

            private static func connect(
                microphone: PulseMicrophone, server: String?, configuration: VoiceProcessingConfiguration
            )
                throws -> (PulseSinkMonitor?, VoiceProcessingStream)
            {
                let far = try? PulseSinkMonitor(server: server)
                // Start both from the same instant: the microphone has been capturing since it opened, and
                // pairing its backlog with the far end's first frames would put the echo that much later than
                // its reference (seconds under load, beyond what the canceller can find).
                microphone.discardBuffered()
                far?.discardBuffered()
                let stream = try VoiceProcessingStream(
                    configuration: configuration, nearRate: microphone.sampleRate,
                    farRate: far?.sampleRate ?? microphone.sampleRate, maximumFarWait: farWait)
                return (far, stream)
            }

            /// The microphone's source, as "Description (name)", when it is an output's monitor.
            public var monitorSource: String? { microphone.monitorSource }
            /// The source, as "Description (name) through voice processing", and the echo reference's sink if any.
            public var label: String {
                guard let s = microphone.source else { return "no source" }
                return "\(s.description) (\(s.name)) through voice processing"
                    + (far.map { ", echo reference \($0.sinkName)" } ?? "")
            }
            /// The processing rate, in Hz: the rate of the processed audio delivered.
            public var sampleRate: Int { configuration.sampleRate }
            /// Samples the microphone dropped because the reader fell behind.
            public var droppedSamples: Int { microphone.droppedSamples }
            /// Stops the microphone from any thread: the current or next read returns `AudioRead.stopped`.
            public func stop() { microphone.stop() }

            /// The notices since the last call (a missing echo reference), for the app to show once.
            public func takeNotices() -> [String] {
                defer { notices = [] }
                return notices
            }

            /// What the echo canceller measured: the echo delay, how much echo it removed, and how often
            /// the echo reference was missing or late. Read on the reading thread, after the last read.
            public var closingNote: String? {
                guard far != nil else { return nil }
                let m = stream.processor.metrics
                var parts: [String] = []
                parts.append(stream.echoDelayMilliseconds.map { "echo delay \($0) ms" } ?? "no echo delay found")
                if let e = m.averageEchoReturnLossEnhancementDB {
                    parts.append("echo removed \(fixed(Double(e), 1)) dB on average")
                }
                parts.append("\(stream.framesWithoutFar) frames without the echo reference")
                if stream.farSamplesDropped > 0 {
                    parts.append("\(stream.farSamplesDropped) reference samples dropped")
                }
                return "miccheck: voice processing: " + parts.joined(separator: ", ") + "."
            }

            /// Waits up to `timeout` for microphone audio, processes it against the echo reference and copies the
            /// processed samples into `buffer` (`idle` when no whole 10 ms frame came out).
            public func read(
                into buffer: UnsafeMutableBufferPointer<Float>, timeout: Duration
            ) throws(AudioSourceError) -> AudioRead {
                do { return try process(into: buffer, timeout: timeout) } catch let error as PulseError {
                    throw AudioSourceError(error)
                } catch {
                    throw AudioSourceError(.failed, "voice processing failed: \(error)")
                }
            }

            private func process(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Duration) throws -> AudioRead
            {
                // Processed audio is at most 16/8 of the near-end samples plus a frame: keep within `buffer`.
                let limit = min(nearBlock.count, max(1, (buffer.count - configuration.frameLength) / 2))
                let read = try nearBlock.withUnsafeMutableBufferPointer {
                    try microphone.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<limit]), timeout: timeout)
                }
                switch read {
                case .samples(let n):
                    // Dropped blocks are gaps in time: keep the two captures paired across them.
                    let nearLost = microphone.droppedSamples - nearDropped
                    nearDropped += nearLost
                    stream.nearSamplesLost(nearLost)
                    drainFar()
                    var made = 0
                    try nearBlock.withUnsafeBufferPointer { near in
                        try stream.pushNear(UnsafeBufferPointer(rebasing: near[0..<n])) { processed in
                            for (i, x) in processed.enumerated() where made + i < buffer.count { buffer[made + i] = x }
                            made += processed.count
                        }
                    }
                    return made > 0 ? .samples(min(made, buffer.count)) : .idle
                case .idle:
                    drainFar()
                    return .idle
                case .restarted:
                    // A new stream, perhaps at another rate, perhaps on a new server: start again.
                    far?.close()
                    (far, stream) = try Self.connect(
                        microphone: microphone, server: server, configuration: configuration)
                    (nearDropped, farDropped) = (microphone.droppedSamples, 0)
                    if far == nil { notices.append(Self.noReference) }
                    return .restarted
                case .stopped:
                    far?.close()
                    return .stopped
                }
            }

            private func drainFar() {
                guard let far else { return }
                let farLost = far.stream.ring.droppedSamples - farDropped
                farDropped += farLost
                stream.farSamplesLost(farLost)
                while true {
                    let m = farBlock.withUnsafeMutableBufferPointer { far.read(into: $0) }
                    if m == 0 { break }
                    farBlock.withUnsafeBufferPointer { stream.pushFar(UnsafeBufferPointer(rebasing: $0[0..<m])) }
                }
            }
        }
    #endif

    extension PulseMicrophone {
        /// The source, as "Description (name)", when it is an output's monitor rather than a microphone.
        public var monitorSource: String? { source.flatMap { $0.isMonitor ? "\($0.description) (\($0.name))" : nil } }
    }
#endif

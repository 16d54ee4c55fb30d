#if os(Linux)
    import CPulseAudio
    import Dispatch

    /// What an output (a sink) plays, captured from its monitor source: the far-end reference for echo
    /// cancellation, i.e. what the loudspeakers play.
    ///
    /// Reads never block: the monitor is polled each time the microphone delivers.
    public final class PulseSinkMonitor: @unchecked Sendable {
        // @unchecked Sendable: `connection` and `stream` are set in `init` and closed once in `close()`
        // (both are Sendable under their own contracts); `read(into:)` is the ring's single consumer.
        /// The monitor's own connection to the server.
        public let connection: PulseConnection
        /// The record stream on the sink's monitor source.
        public let stream: PulseRecordStream
        /// The sink whose output is captured.
        public let sinkName: String
        private let dataReady = DispatchSemaphore(value: 0)

        /// Captures the monitor of `sink` (nil: the server's default sink).
        public init(sink: String? = nil, server: String? = nil) throws(PulseError) {
            connection = try PulseConnection(applicationName: "miccheck echo reference", server: server)
            do throws(PulseError) {
                let defaults = try connection.serverDefaults()
                guard let name = sink ?? defaults.defaultSink else {
                    throw PulseError(
                        .noSuchSource, "the PulseAudio server has no output whose sound could be cancelled")
                }
                sinkName = name
                let all = try connection.sources(given: defaults)
                guard let monitor = all.first(where: { $0.name == name + ".monitor" }) else {
                    throw PulseError(
                        .noSuchSource, "the output \(name) has no monitor source to take the echo reference from")
                }
                stream = try PulseRecordStream(
                    connection: connection, source: monitor, ringSeconds: 2, dataReady: dataReady)
            } catch {
                connection.close()
                throw error
            }
        }

        deinit { close() }

        /// The rate of the captured samples, in Hz.
        public var sampleRate: Int { stream.sampleRate }

        /// Whether the monitor stopped (its sink went away or the server dropped us).
        public var hasEnded: Bool { stream.hasEnded || connection.isLost }

        /// Takes what has arrived, up to `buffer.count` samples (mono); 0 when nothing has.
        public func read(into buffer: UnsafeMutableBufferPointer<Float>) -> Int { stream.ring.read(into: buffer) }

        /// Forgets what was captured and not yet read, to start in step with the microphone.
        public func discardBuffered() { stream.ring.discardAll() }

        /// Stops capturing. Safe to call more than once.
        public func close() {
            stream.close()
            connection.close()
        }
    }
#endif

import CPulseAudio
public import Dispatch
import MicCheck
import Synchronization

/// A record stream from one source: libpulse delivers 10 ms blocks of 32-bit float samples at the
/// source's native rate and channel count on the event thread; they are averaged to mono and handed to a
/// ``SampleRing``, which the consumer drains at its own pace.
///
/// The event thread never waits for the consumer: when the ring is full a block is dropped and counted.
/// The stream does not follow its source elsewhere: when the source disappears the stream ends
/// (``hasEnded``) so that the owner can say so and choose another.
public final class PulseRecordStream: @unchecked Sendable {
    // @unchecked Sendable: `stream` is used only with the connection's main-loop lock held or from
    // libpulse callbacks, which run on the event thread with that lock held. `scratch` is touched only by
    // the read callback (one thread, the event thread). The ring is a single-producer single-consumer
    // structure whose producer is that callback. The flags are `Atomic`s; `dataReady` is a semaphore.
    /// The connection the stream runs on.
    public let connection: PulseConnection
    /// The source being captured.
    public let source: PulseSource
    /// The rate of the samples the ring receives (the source's native rate when MicCheck supports it).
    public let sampleRate: Int
    /// Mono samples, written by the event thread.
    public let ring: SampleRing
    private let channels: Int
    private let stream: OpaquePointer
    private let scratch: UnsafeMutablePointer<Float>
    private let scratchFrames = 4096
    private let ended = Atomic<Bool>(false)
    private let holes = Atomic<Int>(0)
    private let dataReady: DispatchSemaphore

    /// Opens a record stream on `source` and waits until it runs.
    /// - Parameters:
    ///   - ringSeconds: how much audio the ring holds before blocks are dropped.
    ///   - dataReady: signalled (never waited on by the event thread) whenever samples arrive or the
    ///     stream ends.
    public init(
        connection: PulseConnection, source: PulseSource, ringSeconds: Double = 2,
        dataReady: DispatchSemaphore
    ) throws(PulseError) {
        self.connection = connection
        self.source = source
        self.dataReady = dataReady
        let rate = AudioFormat.supportedSampleRates.contains(source.sampleRate) ? source.sampleRate : 48_000
        let channels = AudioFormat.supportedChannels.contains(source.channels) ? source.channels : 2
        sampleRate = rate
        self.channels = channels
        ring = SampleRing(capacity: max(rate / 10, Int(Double(rate) * ringSeconds)))
        scratch = .allocate(capacity: scratchFrames)
        scratch.initialize(repeating: 0, count: scratchFrames)

        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(rate), channels: UInt8(channels))
        var map = pa_channel_map()
        pa_channel_map_init_extend(&map, UInt32(channels), PA_CHANNEL_MAP_DEFAULT)
        let made: OpaquePointer? = try connection.locked { () throws(PulseError) in
            pa_stream_new(connection.context, "miccheck microphone", &spec, &map)
        }
        guard let made else {
            scratch.deallocate()
            throw PulseError(.failed, "libpulse could not create a record stream for \(source.name)")
        }
        stream = made
        let me = Unmanaged.passUnretained(self).toOpaque()
        try connection.locked { () throws(PulseError) in
            pa_stream_set_state_callback(
                stream,
                { _, userdata in
                    guard let userdata else { return }
                    Unmanaged<PulseRecordStream>.fromOpaque(userdata).takeUnretainedValue().stateChanged()
                }, me)
            pa_stream_set_read_callback(
                stream,
                { _, _, userdata in
                    guard let userdata else { return }
                    Unmanaged<PulseRecordStream>.fromOpaque(userdata).takeUnretainedValue().readable()
                }, me)
            // 10 ms fragments: the server hands over each block as soon as it is captured.
            let bytesPerFrame = UInt32(channels * MemoryLayout<Float>.size)
            var attr = pa_buffer_attr(
                maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                minreq: UInt32.max, fragsize: UInt32(rate / 100) * bytesPerFrame)
            let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_MOVE.rawValue)
            let refused = {
                PulseError.from(
                    code: pa_context_errno(connection.context),
                    doing: "opening a record stream on \(source.name)", server: connection.server)
            }
            if pa_stream_connect_record(stream, source.name, &attr, flags) < 0 { throw refused() }
            try connection.waitUntilReady(stream, place: source.name, refused: refused)
        }
    }

    deinit {
        close()
        scratch.deallocate()
    }

    private let closed = Atomic<Bool>(false)

    /// Disconnects the stream. Safe to call more than once; no callback of this stream runs afterwards.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try? connection.locked { () throws(PulseError) in
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_read_callback(stream, nil, nil)
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_READY || state == PA_STREAM_CREATING { pa_stream_disconnect(stream) }
            pa_stream_unref(stream)
        }
    }

    /// Whether the stream has ended: its source disappeared, or the server dropped it.
    public var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Bytes the server reported as lost before they reached this client (holes in the stream).
    public var holeBytes: Int { holes.load(ordering: .relaxed) }

    // MARK: event thread

    private func stateChanged() {
        let state = pa_stream_get_state(stream)
        if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
            ended.store(true, ordering: .releasing)
            dataReady.signal()
        }
        pa_threaded_mainloop_signal(connection.mainloop, 0)
    }

    /// Drains what the server has delivered: averages it to mono and hands it to the ring.
    private func readable() {
        var gotSamples = false
        while pa_stream_readable_size(stream) > 0 {
            var data: UnsafeRawPointer?
            var bytes = 0
            guard pa_stream_peek(stream, &data, &bytes) == 0, bytes > 0 else { break }
            if let data {
                let frames = bytes / (channels * MemoryLayout<Float>.size)
                let samples = data.assumingMemoryBound(to: Float.self)
                var done = 0
                while done < frames {
                    let n = min(scratchFrames, frames - done)
                    downmix(samples + done * channels, frames: n)
                    ring.write(UnsafeBufferPointer(start: scratch, count: n))
                    done += n
                }
                gotSamples = gotSamples || frames > 0
            } else {
                holes.add(bytes, ordering: .relaxed)
            }
            pa_stream_drop(stream)
        }
        if gotSamples { dataReady.signal() }
    }

    @inline(__always)
    private func downmix(_ interleaved: UnsafePointer<Float>, frames: Int) {
        if channels == 1 {
            scratch.update(from: interleaved, count: frames)
            return
        }
        let scale = 1 / Float(channels)
        for i in 0..<frames {
            var sum: Float = 0
            for c in 0..<channels { sum += interleaved[i * channels + c] }
            scratch[i] = sum * scale
        }
    }
}

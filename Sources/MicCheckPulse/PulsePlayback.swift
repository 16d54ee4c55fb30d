import CPulseAudio
import Foundation
import Synchronization

/// Plays mono samples through one output (a sink) and waits until they have been heard: the microphone
/// test's playback of the user's own recording.
///
/// ``play(_:)`` blocks the calling thread (never the connection's event thread) while libpulse asks for
/// audio, then drains the stream so that the last sample has left the speaker when it returns. ``stop()``
/// from any thread cuts it short.
public final class PulsePlayback: @unchecked Sendable {
    // @unchecked Sendable: `stream` is used only with the connection's main-loop lock held (in `init`,
    // `play` and `close`) or from libpulse callbacks, which run on the event thread with that lock held.
    // `stopped`, `closed` and `drained` are `Atomic`s. The drain's callback holds `self` unretained: `play`
    // waits, with `self` alive, until the operation completed or was cancelled.
    /// The connection the stream plays through.
    public let connection: PulseConnection
    /// The output played to (nil: the server's default).
    public let sink: String?
    /// The rate of the samples `play(_:)` takes, in Hz.
    public let sampleRate: Int
    private let stream: OpaquePointer
    private let stopped = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    /// Set by the drain's callback (event thread) once the server has played everything written.
    private let drained = Atomic<Bool>(false)

    /// Opens a playback stream of mono 32-bit float samples at `sampleRate` on `sink` and waits until it runs.
    public init(connection: PulseConnection, sink: String? = nil, sampleRate: Int) throws(PulseError) {
        guard (1_000...384_000).contains(sampleRate) else {
            throw PulseError(.failed, "cannot play audio at \(sampleRate) Hz")
        }
        self.connection = connection
        self.sink = sink
        self.sampleRate = sampleRate
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: 1)
        let place = sink ?? "the default output"
        let made: OpaquePointer? = try connection.locked { () throws(PulseError) in
            pa_stream_new(connection.context, "miccheck microphone test", &spec, nil)
        }
        guard let made else { throw PulseError(.failed, "libpulse could not create a playback stream for \(place)") }
        stream = made
        let me = Unmanaged.passUnretained(self).toOpaque()
        do throws(PulseError) {
            try connection.locked { () throws(PulseError) in
                let wake: pa_stream_notify_cb_t = { _, userdata in
                    guard let userdata else { return }
                    let playback = Unmanaged<PulsePlayback>.fromOpaque(userdata).takeUnretainedValue()
                    pa_threaded_mainloop_signal(playback.connection.mainloop, 0)
                }
                pa_stream_set_state_callback(stream, wake, me)
                pa_stream_set_write_callback(
                    stream,
                    { _, _, userdata in
                        guard let userdata else { return }
                        let playback = Unmanaged<PulsePlayback>.fromOpaque(userdata).takeUnretainedValue()
                        pa_threaded_mainloop_signal(playback.connection.mainloop, 0)
                    }, me)
                let refused = {
                    PulseError.from(
                        code: pa_context_errno(connection.context), doing: "opening a playback stream on \(place)",
                        server: connection.server)
                }
                if pa_stream_connect_playback(stream, sink, nil, pa_stream_flags_t(rawValue: 0), nil, nil) < 0 {
                    throw refused()
                }
                try connection.waitUntilReady(stream, place: place, refused: refused)
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Plays `samples` and returns once they have been played (or ``stop()`` was called). Returns whether
    /// every sample was played.
    @discardableResult
    public func play(_ samples: [Float]) throws(PulseError) -> Bool {
        let total = samples.count * MemoryLayout<Float>.size
        return try connection.locked { () throws(PulseError) -> Bool in
            var offset = 0
            while offset < total {
                try check()
                if stopped.load(ordering: .acquiring) { return false }
                let writable = pa_stream_writable_size(stream)
                if writable == 0 || writable == Int.max {
                    pa_threaded_mainloop_wait(connection.mainloop)
                    continue
                }
                // Whole samples only.
                let n = min(writable, total - offset) / 4 * 4
                guard n > 0 else { break }
                let written = samples.withUnsafeBytes { bytes -> Int32 in
                    guard let base = bytes.baseAddress else { return -1 }
                    return pa_stream_write(stream, base + offset, n, nil, 0, PA_SEEK_RELATIVE)
                }
                if written < 0 {
                    throw PulseError.from(
                        code: pa_context_errno(connection.context), doing: "playing to \(sink ?? "the default output")",
                        server: connection.server)
                }
                offset += n
            }
            // Waits until the server has played everything written.
            drained.store(false, ordering: .releasing)
            let op = pa_stream_drain(
                stream,
                { _, _, userdata in
                    guard let userdata else { return }
                    let playback = Unmanaged<PulsePlayback>.fromOpaque(userdata).takeUnretainedValue()
                    playback.drained.store(true, ordering: .releasing)
                    pa_threaded_mainloop_signal(playback.connection.mainloop, 0)
                }, Unmanaged.passUnretained(self).toOpaque())
            guard let op else {
                try check()
                return false
            }
            defer { pa_operation_unref(op) }
            while pa_operation_get_state(op) == PA_OPERATION_RUNNING {
                if stopped.load(ordering: .acquiring) {
                    pa_operation_cancel(op)
                    return false
                }
                try check()
                pa_threaded_mainloop_wait(connection.mainloop)
            }
            return drained.load(ordering: .acquiring)
        }
    }

    /// Cuts a ``play(_:)`` short, from any thread.
    public func stop() {
        stopped.store(true, ordering: .releasing)
        try? connection.locked { () throws(PulseError) in
            pa_threaded_mainloop_signal(connection.mainloop, 0)
        }
    }

    /// Disconnects the stream. Safe to call more than once; no callback of this stream runs afterwards.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try? connection.locked { () throws(PulseError) in
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_write_callback(stream, nil, nil)
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_READY || state == PA_STREAM_CREATING { pa_stream_disconnect(stream) }
            pa_stream_unref(stream)
        }
    }

    /// With the lock held: throws when the stream or the connection has failed.
    private func check() throws(PulseError) {
        let state = pa_stream_get_state(stream)
        if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED || connection.isLost {
            throw PulseError(.connectionLost, "the playback to \(sink ?? "the default output") ended before its end")
        }
    }
}

extension PulsePlayback {
    /// Plays `samples` on a thread of its own, through a connection of its own to `server` (nil: the
    /// default lookup), on `sink` (nil: the default output). `done` is called once, on that thread, with
    /// nil when everything was played or stopped, or the error. Returns a function that stops the
    /// playback from any thread.
    public static func start(
        _ samples: [Float], sampleRate: Int, sink: String? = nil, server: String? = nil,
        done: @escaping @Sendable (PulseError?) -> Void
    ) -> @Sendable () -> Void {
        let state = Mutex<(stopped: Bool, playback: PulsePlayback?)>((false, nil))
        let thread = Thread {
            do throws(PulseError) {
                let connection = try PulseConnection(applicationName: "miccheck playback", server: server)
                defer { connection.close() }
                let playback = try PulsePlayback(connection: connection, sink: sink, sampleRate: sampleRate)
                defer { playback.close() }
                let stopped = state.withLock { s in
                    s.playback = playback
                    return s.stopped
                }
                if !stopped { try playback.play(samples) }
                state.withLock { $0.playback = nil }
                done(nil)
            } catch {
                done(error)
            }
        }
        thread.name = "miccheck playback"
        thread.start()
        return {
            state.withLock { s in
                s.stopped = true
                s.playback?.stop()
            }
        }
    }
}

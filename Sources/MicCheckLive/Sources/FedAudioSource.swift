import Dispatch
import Synchronization

/// A source fed with blocks from outside: what a network connection (a browser's WebSocket) or an
/// app's own capture hands to a ``LiveAnalysis``.
///
/// The feeder calls ``feed(_:)-(UnsafeBufferPointer<Float>)`` from any thread; the analysis reads on
/// its own. Up to `capacity` samples wait; what a full buffer cannot take is dropped and counted in
/// ``droppedSamples``, so a stalled reader never makes the feeder wait or grow memory.
public final class FedAudioSource: AudioSource, Sendable {
    private struct State {
        var storage: [Float]
        var head = 0
        var count = 0
        var rate: Int
        /// Rates to switch to once the samples fed before each switch are read.
        var pendingRates: [(rate: Int, after: Int)] = []
        var fedTotal = 0
        var readTotal = 0
        var dropped = 0
        var ended = false
        var stopped = false
    }

    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)
    public let label: String

    /// - Parameters:
    ///   - sampleRate: the rate of the blocks to come (one of `AudioFormat.supportedSampleRates`).
    ///   - capacity: how many samples may wait for the reader (default: 2 s at `sampleRate`).
    public init(sampleRate: Int, label: String, capacity: Int? = nil) {
        self.label = label
        state = Mutex(
            State(storage: [Float](repeating: 0, count: max(1, capacity ?? 2 * sampleRate)), rate: sampleRate))
    }

    public var sampleRate: Int { state.withLock { $0.rate } }
    public var droppedSamples: Int { state.withLock { $0.dropped } }

    /// Appends samples at the current rate. Returns how many were taken (fewer when the buffer is
    /// full, none after ``end()`` or ``stop()``); the rest count as dropped, unless the feeder hands
    /// them in again.
    @discardableResult
    public func feed(_ samples: UnsafeBufferPointer<Float>) -> Int {
        let taken = state.withLock { s -> Int in
            guard !s.ended, !s.stopped else { return 0 }
            let capacity = s.storage.count
            let n = min(samples.count, capacity - s.count)
            for i in 0..<n { s.storage[(s.head + s.count + i) % capacity] = samples[i] }
            s.count += n
            s.fedTotal += n
            s.dropped += samples.count - n
            return n
        }
        wake.signal()
        return taken
    }

    /// Appends samples at the current rate (see ``feed(_:)-(UnsafeBufferPointer<Float>)``).
    @discardableResult
    public func feed(_ samples: [Float]) -> Int { samples.withUnsafeBufferPointer { feed($0) } }

    /// The blocks fed from now on are at `rate`: the reader gets ``AudioRead/restarted`` once it has read
    /// what was fed before.
    public func changeRate(to rate: Int) {
        state.withLock { s in s.pendingRates.append((rate, s.fedTotal)) }
        wake.signal()
    }

    /// No more blocks: the reader gets ``AudioRead/ended`` once it has read what was fed.
    public func end() {
        state.withLock { $0.ended = true }
        wake.signal()
    }

    public func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }

    public func read(
        into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double
    ) throws(AudioSourceError) -> AudioRead {
        let deadline = DispatchTime.now() + timeout
        while true {
            let result = state.withLock { s -> AudioRead? in
                if s.stopped { return .stopped }
                if let next = s.pendingRates.first, next.after == s.readTotal {
                    s.pendingRates.removeFirst()
                    s.rate = next.rate
                    return .restarted
                }
                if s.count > 0 {
                    // Read up to the next rate change only.
                    let limit = s.pendingRates.first.map { $0.after - s.readTotal } ?? Int.max
                    let n = min(s.count, buffer.count, limit)
                    let capacity = s.storage.count
                    for i in 0..<n { buffer[i] = s.storage[(s.head + i) % capacity] }
                    s.head = (s.head + n) % capacity
                    s.count -= n
                    s.readTotal += n
                    return .samples(n)
                }
                return s.ended ? .ended : nil
            }
            if let result { return result }
            if wake.wait(timeout: deadline) == .timedOut { return .idle }
        }
    }
}

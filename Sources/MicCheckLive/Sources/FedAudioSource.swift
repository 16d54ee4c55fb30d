import Dispatch
public import MicCheck
import Synchronization

/// A source fed with blocks from outside: what a network connection (a browser's WebSocket) or an
/// app's own capture hands to a ``LiveAnalysis``.
///
/// The feeder hands blocks in from any thread; the analysis reads on its own. Up to `capacity` samples
/// wait. What happens when the reader falls behind and the buffer is full is the feeder's choice:
/// - ``feed(_:)-(UnsafeBufferPointer<Float>)`` takes what fits and drops the rest, counted in
///   ``droppedSamples``: a live capture that must never wait or grow memory (a network connection);
/// - ``feedWaitingForRoom(_:)`` waits until the reader has made room (backpressure): a file or a
///   recording fed faster than real time reaches the analysis whole (one feeder at a time: two would
///   interleave their blocks). The records of a session are delivered as they come; a consumer of
///   ``LiveAnalysis/records(bufferingNewest:)`` that falls more than its limit behind loses the oldest,
///   where ``LiveAnalysis/run(onRecord:)`` makes the analysis wait for it;
/// - ``feedAll(_:)`` takes the whole block or none of it and throws ``Overflow`` when it does not fit: a
///   feeder that must know at once.
///
/// ```swift
/// let fed = FedAudioSource(sampleRate: 16_000, label: "upload.wav")
/// let session = LiveAnalysis(source: fed)
/// Task {
///     for block in blocks { await fed.feedWaitingForRoom(block) }
///     fed.end()
/// }
/// for await record in session.records() { print(record) }
/// ```
public final class FedAudioSource: AudioSource, Sendable {
    /// A block that did not fit: the reader is behind by the whole capacity.
    public struct Overflow: MicCheckError, Sendable, Equatable {
        /// The source's label.
        public var label: String
        /// Samples in the block that was refused.
        public var refused: Int
        /// Samples the buffer had room for (none was taken). A block larger than the source's capacity
        /// never fits.
        public var room: Int

        /// A refusal of a block of `refused` samples where `room` were free.
        public init(label: String, refused: Int, room: Int) {
            (self.label, self.refused, self.room) = (label, refused, room)
        }

        /// The refusal as one sentence, naming the source.
        public var description: String {
            "\(label): a block of \(refused) samples was refused: the analysis is behind and has room for \(room)"
        }
    }

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
        /// Feeders waiting for room, by ticket.
        var roomWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextTicket = 0

        /// The waiting feeders, removed, to be resumed outside the lock.
        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { roomWaiters.removeAll() }
            return Array(roomWaiters.values)
        }
    }

    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)
    /// What the user is listening to ("browser microphone").
    public let label: String

    /// - Parameters:
    ///   - sampleRate: the rate of the blocks to come (one of `AudioFormat.supportedSampleRates`).
    ///   - capacity: how many samples may wait for the reader (default: 2 s at `sampleRate`).
    public init(sampleRate: Int, label: String, capacity: Int? = nil) {
        self.label = label
        state = Mutex(
            State(storage: [Float](repeating: 0, count: max(1, capacity ?? 2 * sampleRate)), rate: sampleRate))
    }

    /// The rate of the samples the reader gets now, in Hz; it changes at the `restarted` after `changeRate(to:)`.
    public var sampleRate: Int { state.withLock { $0.rate } }
    /// Samples `feed(_:)` could not take because the buffer was full.
    public var droppedSamples: Int { state.withLock { $0.dropped } }
    /// Samples fed and not yet read: how far the analysis is behind the feeder.
    public var bufferedSamples: Int { state.withLock { $0.count } }

    /// Appends samples at the current rate. Returns how many were taken (fewer when the buffer is
    /// full, none after ``end()`` or ``stop()``); the rest count as dropped, unless the feeder hands
    /// them in again.
    @discardableResult
    public func feed(_ samples: UnsafeBufferPointer<Float>) -> Int {
        let taken = state.withLock { s -> Int in
            let n = Self.append(samples, to: &s)
            if !s.ended, !s.stopped { s.dropped += samples.count - n }
            return n
        }
        wake.signal()
        return taken
    }

    /// Appends all of `samples`, waiting while the buffer is full until the reader has made room
    /// (backpressure): nothing is dropped. Returns how many were taken: all of them, or fewer when the
    /// source is ended or stopped, or the calling task is cancelled, while it waits.
    @discardableResult
    public func feedWaitingForRoom(_ samples: [Float]) async -> Int {
        var offset = 0
        while offset < samples.count {
            let (n, closed) = samples.withUnsafeBufferPointer { all in
                state.withLock { s in
                    (Self.append(UnsafeBufferPointer(rebasing: all[offset...]), to: &s), s.ended || s.stopped)
                }
            }
            offset += n
            if n > 0 { wake.signal() }
            if closed || offset == samples.count || Task.isCancelled { break }
            await waitForRoom()
        }
        return offset
    }

    /// Appends all of `samples`, or none of them: when they do not fit, nothing is taken and ``Overflow``
    /// says so (the samples are not counted in ``droppedSamples``; the feeder decides). Returns false,
    /// taking nothing, after ``end()`` or ``stop()``.
    @discardableResult
    public func feedAll(_ samples: [Float]) throws(Overflow) -> Bool {
        enum Outcome {
            case taken, closed
            case noRoom(Int)
        }
        let outcome = samples.withUnsafeBufferPointer { all in
            state.withLock { s -> Outcome in
                guard !s.ended, !s.stopped else { return .closed }
                let room = s.storage.count - s.count
                guard all.count <= room else { return .noRoom(room) }
                _ = Self.append(all, to: &s)
                return .taken
            }
        }
        switch outcome {
        case .taken:
            wake.signal()
            return true
        case .closed: return false
        case .noRoom(let room): throw Overflow(label: label, refused: samples.count, room: room)
        }
    }

    /// Copies what fits of `samples` into the ring; returns how many (none once ended or stopped).
    private static func append(_ samples: UnsafeBufferPointer<Float>, to s: inout State) -> Int {
        guard !s.ended, !s.stopped else { return 0 }
        let capacity = s.storage.count
        let n = min(samples.count, capacity - s.count)
        for i in 0..<n { s.storage[(s.head + s.count + i) % capacity] = samples[i] }
        s.count += n
        s.fedTotal += n
        return n
    }

    /// Returns once the buffer has room, the source is ended or stopped, or the task is cancelled.
    private func waitForRoom() async {
        let ticket = state.withLock { s in
            defer { s.nextTicket += 1 }
            return s.nextTicket
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if s.count < s.storage.count || s.ended || s.stopped || Task.isCancelled { return true }
                    s.roomWaiters[ticket] = waiter
                    return false
                }
                if now { waiter.resume() }
            }
        } onCancel: {
            state.withLock { $0.roomWaiters.removeValue(forKey: ticket) }?.resume()
        }
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
        let waiters = state.withLock { s in
            s.ended = true
            return s.takeWaiters()
        }
        for waiter in waiters { waiter.resume() }
        wake.signal()
    }

    /// Stops the source from any thread: the next read returns `AudioRead.stopped`, feeds take nothing more,
    /// and feeders waiting for room return.
    public func stop() {
        let waiters = state.withLock { s in
            s.stopped = true
            return s.takeWaiters()
        }
        for waiter in waiters { waiter.resume() }
        wake.signal()
    }

    /// Waits up to `timeout` for fed samples and copies them into `buffer`, up to the next change of rate.
    public func read(
        into buffer: UnsafeMutableBufferPointer<Float>, timeout: Duration
    ) throws(AudioSourceError) -> AudioRead {
        let deadline = DispatchTime.now() + timeout.seconds
        while true {
            var waiters: [CheckedContinuation<Void, Never>] = []
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
                    waiters = s.takeWaiters()
                    return .samples(n)
                }
                return s.ended ? .ended : nil
            }
            for waiter in waiters { waiter.resume() }
            if let result { return result }
            if wake.wait(timeout: deadline) == .timedOut { return .idle }
        }
    }
}

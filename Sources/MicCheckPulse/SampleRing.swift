import Synchronization

/// A bounded single-producer, single-consumer ring of mono samples: the hand-over between a capture
/// thread and the thread that analyses.
///
/// The producer never waits: a block that does not fit is dropped whole and counted in
/// ``droppedSamples``. The consumer reads whatever has arrived. Storage is allocated once.
///
/// - Important: exactly one thread may call ``write(_:)`` and exactly one (other) thread may call
///   ``read(into:)``; either may read the counters.
public final class SampleRing: @unchecked Sendable {
    // @unchecked Sendable: `storage` is written only by the single producer in the slots between `tail`
    // and `head + capacity`, and read only by the single consumer in the slots between `head` and
    // `tail`. The producer publishes slots by storing `tail` with release ordering after writing them,
    // and the consumer loads `tail` with acquire ordering before reading; the consumer frees slots by
    // storing `head` with release ordering after reading, and the producer loads `head` with acquire
    // ordering. So no slot is ever accessed by both threads at once. Everything else is an `Atomic`.
    /// The most samples the ring holds at once.
    public let capacity: Int
    private let storage: UnsafeMutablePointer<Float>
    private let head = Atomic<Int>(0)  // total samples read
    private let tail = Atomic<Int>(0)  // total samples written
    private let dropped = Atomic<Int>(0)
    private let droppedBlockCount = Atomic<Int>(0)

    /// An empty ring with room for `capacity` samples (more than 0).
    public init(capacity: Int) {
        precondition(capacity > 0, "a ring needs room")
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    /// Samples lost because the consumer fell behind.
    public var droppedSamples: Int { dropped.load(ordering: .relaxed) }
    /// Blocks lost because the consumer fell behind.
    public var droppedBlocks: Int { droppedBlockCount.load(ordering: .relaxed) }
    /// Samples waiting to be read.
    public var available: Int { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) }

    /// Producer side: appends `samples` whole, or drops them whole when they do not fit.
    /// - Returns: whether the block was kept.
    @discardableResult
    public func write(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        let n = samples.count
        guard n > 0, let base = samples.baseAddress else { return true }
        let t = tail.load(ordering: .relaxed)
        let h = head.load(ordering: .acquiring)
        guard capacity - (t - h) >= n else {
            dropped.add(n, ordering: .relaxed)
            droppedBlockCount.add(1, ordering: .relaxed)
            return false
        }
        let start = t % capacity
        let first = min(n, capacity - start)
        (storage + start).update(from: base, count: first)
        if first < n { storage.update(from: base + first, count: n - first) }
        tail.store(t + n, ordering: .releasing)
        return true
    }

    /// Consumer side: moves up to `buffer.count` samples into `buffer`.
    /// - Returns: how many were read (0 when the ring is empty).
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        guard let out = buffer.baseAddress else { return 0 }
        let h = head.load(ordering: .relaxed)
        let t = tail.load(ordering: .acquiring)
        let n = min(buffer.count, t - h)
        guard n > 0 else { return 0 }
        let start = h % capacity
        let first = min(n, capacity - start)
        out.update(from: storage + start, count: first)
        if first < n { (out + first).update(from: storage, count: n - first) }
        head.store(h + n, ordering: .releasing)
        return n
    }

    /// Consumer side: forgets everything unread (for a new stream).
    public func discardAll() {
        head.store(tail.load(ordering: .acquiring), ordering: .releasing)
    }
}

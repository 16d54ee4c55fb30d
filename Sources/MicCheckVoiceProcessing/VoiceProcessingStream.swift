#if os(Linux)
    public import MicCheck

    /// A ``VoiceProcessor`` over streams of any rate and block size: resamples near-end and far-end
    /// audio to the processing rate, cuts both into 10 ms frames, pairs each near-end frame with the
    /// far-end frame that arrived before it, and hands out processed near-end audio at the processing
    /// rate.
    ///
    /// Hand over far-end audio first (``pushFar(_:)``), then the near-end audio captured in the same
    /// span (``pushNear(_:emit:)``). A near-end frame waits for its far-end frame up to
    /// ``maximumFarWait`` samples; after that, or once ``endFar()`` is called, it is processed against
    /// silence and counted in ``framesWithoutFar``. Files wait without limit; live capture waits a
    /// few frames, so that a stalled far end never stalls the microphone.
    ///
    /// - Important: Not thread-safe. Queues are allocated at `init` and grow only if a caller hands
    ///   over more than they hold; nothing else is allocated per frame.
    public final class VoiceProcessingStream {
        /// The processor the paired frames go through (its `metrics` say what the canceller measured).
        public let processor: VoiceProcessor
        /// Processing (and output) rate in Hz.
        public let rate: Int
        /// Near-end samples (at ``rate``) held waiting for far-end audio; `Int.max` waits for ever.
        public let maximumFarWait: Int
        /// Near-end frames processed against silence because no far-end audio had arrived.
        public private(set) var framesWithoutFar = 0
        /// Far-end samples dropped because the near end fell behind by more than ``farHeld`` seconds.
        public private(set) var farSamplesDropped = 0
        /// The echo path's delay, between a far-end frame and the near-end frame it arrives with,
        /// measured from the two signals. The canceller's filter spans about 130 ms after the far end it
        /// is handed and nothing before it, and its own delay search moves that span only a few tens of
        /// ms; so the far end is handed over ``farLag`` frames late, 30 ms until the delay is known (a
        /// desktop's echo comes 40-150 ms late), then so that the echo lands 10-60 ms after it. Each
        /// change of lag makes the canceller converge again, so a lag that already fits is kept.
        public private(set) var delayEstimator = EchoDelayEstimator()
        /// The echo delay in ms, once found (nil before, or without echo cancellation).
        public var echoDelayMilliseconds: Int? { delayEstimator.delayMilliseconds }
        private let cancelsEcho: Bool
        /// The last ``EchoDelayEstimator/maximumLag`` + 1 far-end frames, the newest at `historyNewest`.
        private var farHistory: [Float]
        private var historyNewest = 0
        /// How many frames late the canceller is handed the far end.
        public private(set) var farLag = 3
        private var delayedFar: [Float]

        private var nearResampler: Resampler?
        private var farResampler: Resampler?
        private var near: SampleQueue
        private var far: SampleQueue
        private var scratch: [Float]
        private var frame: [Float]
        private var farFrame: [Float]
        private var farEnded = false
        private let farLimit: Int
        /// Seconds of far end kept waiting for the near end. A capture server can hold the microphone
        /// back for a second or two and then deliver it all at once (seen with a null sink's monitor);
        /// the far end of that time must still be there when it comes.
        public static let farHeld = 4
        private let nearRate: Int
        private let farRate: Int
        /// Far-end samples owed: near-end frames went ahead without them, so when they arrive late
        /// they are skipped, keeping each near-end frame paired with the far end of its own time.
        private var farDebt = 0

        /// - Parameters:
        ///   - nearRate: rate of the near-end (microphone) audio handed over.
        ///   - farRate: rate of the far-end (loudspeaker) audio handed over.
        ///   - maximumFarWait: seconds a near-end frame waits for far-end audio (nil: until ``endFar()``).
        public init(
            configuration: VoiceProcessingConfiguration, nearRate: Int, farRate: Int,
            maximumFarWait: Double? = nil
        ) throws(VoiceProcessingError) {
            guard nearRate > 0, farRate > 0 else { throw .invalidSetting("sample rates must be positive") }
            processor = try VoiceProcessor(configuration: configuration)
            let rate = configuration.sampleRate
            self.rate = rate
            self.maximumFarWait = maximumFarWait.map { Int($0 * Double(rate)) } ?? Int.max
            nearResampler = nearRate == rate ? nil : Resampler(inputRate: nearRate, outputRate: rate)
            farResampler = farRate == rate ? nil : Resampler(inputRate: farRate, outputRate: rate)
            farLimit = Self.farHeld * rate
            self.nearRate = nearRate
            self.farRate = farRate
            let block = Resampler.maxInputBlock * (rate / min(nearRate, farRate) + 2)
            near = SampleQueue(capacity: 2 * block)
            far = SampleQueue(capacity: 2 * block + farLimit)
            scratch = [Float](repeating: 0, count: block)
            frame = [Float](repeating: 0, count: processor.frameLength)
            farFrame = [Float](repeating: 0, count: processor.frameLength)
            cancelsEcho = configuration.echoCancellation != nil
            farHistory = [Float](
                repeating: 0, count: cancelsEcho ? (EchoDelayEstimator.maximumLag + 1) * processor.frameLength : 0)
            delayedFar = [Float](repeating: 0, count: processor.frameLength)
        }

        /// Far-end samples queued and not yet paired with a near-end frame.
        public var farBacklog: Int { far.count }

        /// Hands over far-end (loudspeaker) audio.
        public func pushFar(_ samples: UnsafeBufferPointer<Float>) {
            feed(samples, through: &farResampler) { far.append($0) }
            if farDebt > 0 {
                let paid = min(farDebt, far.count)
                far.removeFirst(paid)
                farDebt -= paid
            }
            if far.count > farLimit + frame.count {
                let drop = far.count - farLimit
                far.removeFirst(drop)
                farSamplesDropped += drop
            }
        }

        /// Says that `count` far-end samples (at the far-end rate) were lost before they were handed
        /// over: silence takes their place, so that later far-end audio keeps its time.
        public func farSamplesLost(_ count: Int) {
            guard count > 0 else { return }
            let n = count * rate / farRate
            let paid = min(farDebt, n)
            farDebt -= paid
            far.appendZeros(n - paid)
        }

        /// Says that `count` near-end samples (at the near-end rate) were lost before they were handed
        /// over: the far-end audio of that span is skipped, so that the two stay paired in time.
        public func nearSamplesLost(_ count: Int) {
            guard count > 0 else { return }
            var owed = count * rate / nearRate
            let now = min(owed, far.count)
            far.removeFirst(now)
            owed -= now
            farDebt = min(farLimit, farDebt + owed)
        }

        /// Hands over near-end (microphone) audio; `emit` receives processed audio at ``rate``, in
        /// whole 10 ms frames.
        public func pushNear(
            _ samples: UnsafeBufferPointer<Float>, emit: (UnsafeBufferPointer<Float>) -> Void
        )
            throws(VoiceProcessingError)
        {
            feed(samples, through: &nearResampler) { near.append($0) }
            try drain(emit: emit)
        }

        /// No more far-end audio will come: waiting near-end frames are processed against silence.
        public func endFar() {
            farEnded = true
            if var resampler = farResampler {
                let made = scratch.withUnsafeMutableBufferPointer { resampler.flush(output: $0) }
                farResampler = resampler
                scratch.withUnsafeBufferPointer { far.append(UnsafeBufferPointer(rebasing: $0[0..<made])) }
            }
        }

        /// Ends the near end: processes what is left, the last frame padded with silence, and emits only
        /// the samples that were handed over.
        public func finish(emit: (UnsafeBufferPointer<Float>) -> Void) throws(VoiceProcessingError) {
            if !farEnded { endFar() }
            if var resampler = nearResampler {
                let made = scratch.withUnsafeMutableBufferPointer { resampler.flush(output: $0) }
                nearResampler = resampler
                scratch.withUnsafeBufferPointer { near.append(UnsafeBufferPointer(rebasing: $0[0..<made])) }
            }
            try drain(emit: emit)
            let rest = near.count
            guard rest > 0 else { return }
            near.appendZeros(frame.count - rest)
            try drain { emit(UnsafeBufferPointer(rebasing: $0[0..<rest])) }
        }

        /// Measures the delay on this pair of frames, keeps `farFrame` in the history, and puts in
        /// `delayedFar` the far-end frame to hand the canceller with this near-end frame.
        private func delayFar() {
            frame.withUnsafeBufferPointer { n in
                farFrame.withUnsafeBufferPointer { f in delayEstimator.add(far: f, near: n) }
            }
            let n = frame.count
            let slots = EchoDelayEstimator.maximumLag + 1
            historyNewest = (historyNewest + 1) % slots
            if let delay = delayEstimator.delayMilliseconds, !(10...60).contains(delay - 10 * farLag) {
                farLag = max(0, delay / 10 - 2)
            }
            let from = (historyNewest - farLag + slots) % slots
            farHistory.withUnsafeMutableBufferPointer { h in
                for i in 0..<n { h[historyNewest * n + i] = farFrame[i] }
                for i in 0..<n { delayedFar[i] = h[from * n + i] }
            }
        }

        private func feed(
            _ samples: UnsafeBufferPointer<Float>, through resampler: inout Resampler?,
            into append: (UnsafeBufferPointer<Float>) -> Void
        ) {
            guard var converter = resampler else { return append(samples) }
            var start = 0
            while start < samples.count {
                let end = min(samples.count, start + Resampler.maxInputBlock)
                let made = scratch.withUnsafeMutableBufferPointer {
                    converter.process(UnsafeBufferPointer(rebasing: samples[start..<end]), output: $0)
                }
                scratch.withUnsafeBufferPointer { append(UnsafeBufferPointer(rebasing: $0[0..<made])) }
                start = end
            }
            resampler = converter
        }

        private func drain(emit: (UnsafeBufferPointer<Float>) -> Void) throws(VoiceProcessingError) {
            let n = frame.count
            while near.count >= n {
                if far.count >= n {
                    far.pop(into: &farFrame)
                } else if farEnded || near.count - n >= maximumFarWait {
                    // Whatever far end there is, then silence; the rest is owed.
                    if far.count == 0 { framesWithoutFar += 1 }
                    if !farEnded { farDebt = min(farLimit, farDebt + n - far.count) }
                    far.pop(into: &farFrame, padding: true)
                } else {
                    return
                }
                near.pop(into: &frame)
                if cancelsEcho { delayFar() }
                try (cancelsEcho ? delayedFar : farFrame).withUnsafeBufferPointer { (f) throws(VoiceProcessingError) in
                    try processor.analyzeFar(f)
                }
                try frame.withUnsafeMutableBufferPointer { (f) throws(VoiceProcessingError) in
                    try processor.processNear(f)
                }
                frame.withUnsafeBufferPointer { emit($0) }
            }
        }
    }

    /// A first-in first-out queue of samples in one array, compacted in place.
    struct SampleQueue {
        private var storage: [Float]
        private var start = 0
        private(set) var count = 0

        init(capacity: Int) { storage = [Float](repeating: 0, count: capacity) }

        mutating func append(_ samples: UnsafeBufferPointer<Float>) {
            makeRoom(for: samples.count)
            storage.withUnsafeMutableBufferPointer { s in
                for (i, x) in samples.enumerated() { s[start + count + i] = x }
            }
            count += samples.count
        }

        mutating func appendZeros(_ n: Int) {
            guard n > 0 else { return }
            makeRoom(for: n)
            for i in 0..<n { storage[start + count + i] = 0 }
            count += n
        }

        /// Fills `frame` from the front; with `padding`, zeros follow when fewer samples are queued.
        mutating func pop(into frame: inout [Float], padding: Bool = false) {
            let n = min(frame.count, count)
            for i in 0..<n { frame[i] = storage[start + i] }
            if padding { for i in n..<frame.count { frame[i] = 0 } }
            start += n
            count -= n
            if count == 0 { start = 0 }
        }

        mutating func removeFirst(_ n: Int) {
            let n = min(n, count)
            start += n
            count -= n
        }

        private mutating func makeRoom(for n: Int) {
            if start + count + n <= storage.count { return }
            if start > 0 {
                storage.withUnsafeMutableBufferPointer { s in
                    for i in 0..<count { s[i] = s[start + i] }
                }
                start = 0
            }
            if count + n > storage.count {
                storage += [Float](repeating: 0, count: count + n - storage.count)
            }
        }
    }
#endif

public import MicCheck
public import MicCheckLive
import Synchronization

/// A scripted `AudioSource` for tests: generated audio in blocks, quiet spells, restarts at other
/// rates, failures and an end, with a clock that moves by the audio's duration (and by the timeout for
/// each quiet read) instead of the wall clock. Never waits.
public final class FakeAudioSource: AudioSource, Sendable {
    /// One part of the script; the source plays them in order.
    public enum Step: Sendable {
        /// These samples, delivered in reads of at most `block` samples.
        case audio([Float])
        /// `count` reads that bring nothing (each moves the clock by the read's timeout).
        case quiet(count: Int)
        /// A new stream at `rate`, after `gap` seconds.
        case restart(rate: Int, gap: Double)
        /// The read fails.
        case fail(AudioSourceError)
    }

    private struct State {
        var steps: [Step]
        var offset = 0
        var rate: Int
        var now = 0.0
        var stopped = false
        var dropped = 0
    }

    private let state: Mutex<State>
    private let block: Int
    /// What the source is called in messages (default "a fake source").
    public let label: String
    /// The output's monitor the source stands for (for `AnalysisEvent.wrongSource`), or nil for a microphone.
    public let monitorSource: String?

    /// - Parameters:
    ///   - block: the most samples one read delivers (default: 10 ms).
    ///   - monitorSource: set to play an output's monitor (`AnalysisEvent.wrongSource`).
    public init(
        sampleRate: Int, steps: [Step], block: Int? = nil, label: String = "a fake source", monitorSource: String? = nil
    ) {
        state = Mutex(State(steps: steps, rate: sampleRate))
        self.block = block ?? max(1, sampleRate / 100)
        self.label = label
        self.monitorSource = monitorSource
    }

    /// The source's clock, in seconds: audio delivered, quiet reads and restart gaps so far.
    public var now: Double { state.withLock { $0.now } }
    /// For `LiveAnalysis.init(source:configuration:clock:)`: the source's own time as a `Clock`.
    public var clock: SourceClock { SourceClock(source: self) }

    /// A clock that reads the source's time (``now``): it moves only as the source delivers, idles and
    /// restarts, so a test's session sees exactly the gaps the test scripted.
    public struct SourceClock: Clock {
        /// A reading of the source's clock: the time since the source began.
        public typealias Instant = OffsetInstant

        let source: FakeAudioSource
        /// The source's time now (the source's `now`).
        public var now: Instant { Instant(offset: .seconds(source.now)) }
        /// One nanosecond.
        public var minimumResolution: Duration { .nanoseconds(1) }

        /// Sleeps in real time for the scripted gap (nothing in a session sleeps on it).
        public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
            try await Task.sleep(for: now.duration(to: deadline))
        }
    }
    /// The rate of the current stream (Hz): the one given, until a `restart` step changes it.
    public var sampleRate: Int { state.withLock { $0.rate } }
    /// Samples lost: always 0, as a script never falls behind.
    public var droppedSamples: Int { state.withLock { $0.dropped } }
    /// Stops the source: every later read returns `stopped`.
    public func stop() { state.withLock { $0.stopped = true } }

    /// Plays the next step of the script (`timeout` is what a quiet read adds to the clock); `ended` once
    /// the steps run out.
    public func read(
        into buffer: UnsafeMutableBufferPointer<Float>, timeout: Duration
    ) throws(AudioSourceError) -> AudioRead {
        let result: Result<AudioRead, AudioSourceError> = state.withLock { s in
            if s.stopped { return .success(.stopped) }
            guard let step = s.steps.first else { return .success(.ended) }
            switch step {
            case .audio(let samples):
                let n = min(block, buffer.count, samples.count - s.offset)
                for i in 0..<n { buffer[i] = samples[s.offset + i] }
                s.offset += n
                s.now += Double(n) / Double(s.rate)
                if s.offset == samples.count {
                    s.steps.removeFirst()
                    s.offset = 0
                }
                return .success(n > 0 ? .samples(n) : .idle)
            case .quiet(let count):
                s.now += timeout.seconds
                s.steps[0] = .quiet(count: count - 1)
                if count <= 1 { s.steps.removeFirst() }
                return .success(.idle)
            case .restart(let rate, let gap):
                s.steps.removeFirst()
                s.rate = rate
                s.now += gap
                return .success(.restarted)
            case .fail(let error):
                s.steps.removeFirst()
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// Runs a whole live session over a ``FakeAudioSource`` on the calling thread: what an app's consumer
/// would see, in order, with the source's clock.
public enum LiveHarness {
    /// Runs `source` to its end; returns every record in order and how the session ended.
    public static func run(
        _ source: FakeAudioSource, configuration: LiveAnalysis.Configuration = .init()
    )
        -> (records: [LiveRecord], ending: LiveEnding)
    {
        let session = LiveAnalysis(source: source, configuration: configuration, clock: source.clock)
        var records: [LiveRecord] = []
        let ending = session.run { records.append($0) }
        return (records, ending)
    }
}

extension [LiveRecord] {
    /// The analysis frames among the records.
    public var frames: [AnalysisFrame] { compactMap { if case .analysis(.frame(let f)) = $0 { f } else { nil } } }
    /// The analysis events among the records.
    public var events: [AnalysisEvent] { compactMap { if case .analysis(.event(let e)) = $0 { e } else { nil } } }
}

import Dispatch
import Foundation
public import MicCheck
import Synchronization

/// One record of a live analysis.
public enum LiveRecord: Sendable, Equatable {
    /// A frame or an event of the analysis (DESIGN.md's contract), in time order.
    case analysis(AnalysisOutput)
    /// The first samples arrived from the source.
    case audioStarted
    /// Nothing arrived for a read's timeout (0.1 s by default): a meter may redraw.
    case idle
    /// The source began a new stream (a reconnected server, a source that came back); the analysis
    /// resumes at `time`, so `t` keeps counting across the gap.
    case restarted(time: Double)
}

/// Why a live analysis ended.
public enum LiveEnding: Sendable, Equatable {
    /// The source has nothing more (a file is over, a fed source was ended).
    case ended
    /// ``LiveAnalysis/stop()`` was called (a signal, a closed window, a consumer).
    case stopped
    /// ``LiveAnalysis/Configuration/duration`` of audio was analysed.
    case durationReached(Duration)
    /// The source failed; the records up to the failure were delivered.
    case failed(AudioSourceError)
}

/// A live analysis session: reads an ``AudioSource`` on one thread, analyses it, and delivers the
/// records in time order, to a synchronous callback (real-time consumers: a meter, the muted notice,
/// the ducker) or as an `AsyncSequence`.
///
/// It owns what every live consumer needs the same way:
/// - the read loop, with an ``LiveRecord/idle`` record when the source is quiet;
/// - one restart policy: when the source restarts, the open analysis is finished and a new one
///   resumes at a 10 ms frame boundary at or after both the audio so far and the wall clock, so `t` counts
///   on across reconnections;
/// - the analysis itself (MicCheck's `StreamingAnalysis`, which delivers its records in time order);
/// - `wrong_source` at the start when the source is an output's monitor;
/// - an optional duration.
///
/// The source's own reconnect policy (how long to wait for a server) stays with the source.
public final class LiveAnalysis: Sendable {
    /// How a session analyses its source: the analysis's settings, the voice model, how long, and a tap on the raw samples.
    public struct Configuration: Sendable {
        /// The analysis's settings (speech events, detectors).
        public var analysis: AnalysisConfiguration
        /// The voice activity model (the bundled one unless an app brings its own).
        public var model: VoiceActivityModel
        /// Stop after this much audio (nil: until the source ends or ``LiveAnalysis/stop()``).
        public var duration: Duration?
        /// How long one read waits for samples before an ``LiveRecord/idle`` record.
        public var readTimeout: Duration
        /// Called on the analysis thread with each block of samples as read, and their rate, before they
        /// are analysed (``LiveMicrophoneTest/tap`` records from it). The read loop waits for it: it must
        /// return quickly.
        public var sampleTap: (@Sendable (UnsafeBufferPointer<Float>, Int) -> Void)?

        /// A configuration; by default the default analysis, the bundled model, no duration limit and 100 ms reads.
        public init(
            analysis: AnalysisConfiguration = AnalysisConfiguration(), model: VoiceActivityModel = .bundled,
            duration: Duration? = nil, readTimeout: Duration = .milliseconds(100),
            sampleTap: (@Sendable (UnsafeBufferPointer<Float>, Int) -> Void)? = nil
        ) {
            self.analysis = analysis
            self.model = model
            self.duration = duration
            self.readTimeout = readTimeout
            self.sampleTap = sampleTap
        }

        /// The same in seconds.
        @available(*, deprecated, message: "Pass Durations: duration: .seconds(5), readTimeout: .milliseconds(100)")
        @_disfavoredOverload
        public init(
            analysis: AnalysisConfiguration = AnalysisConfiguration(), model: VoiceActivityModel = .bundled,
            duration: Double?, readTimeout: Double = 0.1,
            sampleTap: (@Sendable (UnsafeBufferPointer<Float>, Int) -> Void)? = nil
        ) {
            self.init(
                analysis: analysis, model: model, duration: duration.map { .wait(seconds: $0) },
                readTimeout: .wait(seconds: readTimeout), sampleTap: sampleTap)
        }
    }

    private struct State {
        var started = false
        var ending: LiveEnding?
    }

    /// The source the session reads; no one else may read it.
    public let source: any AudioSource
    /// How the session analyses it.
    public let configuration: Configuration
    /// Seconds since the session was made, on its clock.
    private let clock: @Sendable () -> Double
    private let state = Mutex(State())

    /// - Parameter clock: the monotonic clock of the restart policy, which resumes `t` at the wall clock
    ///   after a gap (default: `SuspendingClock`, the system's uptime; tests pass one they move by hand).
    public init<C: Clock>(
        source: any AudioSource, configuration: Configuration = Configuration(), clock: C = SuspendingClock()
    ) where C.Duration == Duration {
        self.source = source
        self.configuration = configuration
        let start = clock.now
        self.clock = { start.duration(to: clock.now).seconds }
    }

    /// With a clock read as seconds.
    @available(*, deprecated, message: "Pass a Clock: LiveAnalysis(source:configuration:clock:)")
    @_disfavoredOverload
    public init(
        source: any AudioSource, configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Double
    ) {
        self.source = source
        self.configuration = configuration
        self.clock = clock
    }

    /// Why the session ended, once it has.
    public var ending: LiveEnding? { state.withLock { $0.ending } }

    /// Ends the session from any thread: the source stops, the analysis finishes, the last records go out.
    public func stop() { source.stop() }

    /// Runs the session on the calling thread until it ends, calling `onRecord` with every record as it
    /// is decided. A session runs once; a second call returns ``LiveEnding/stopped`` at once.
    @discardableResult
    public func run(onRecord: (LiveRecord) -> Void) -> LiveEnding {
        let first = state.withLock { s in
            defer { s.started = true }
            return !s.started
        }
        guard first else { return .stopped }
        let ending = withoutActuallyEscaping(onRecord) { onRecord in loop(onRecord) }
        state.withLock { $0.ending = ending }
        return ending
    }

    /// Runs the session on a thread of its own: `onRecord` with every record, then `onEnd` once.
    public func start(
        onRecord: @escaping @Sendable (LiveRecord) -> Void, onEnd: @escaping @Sendable (LiveEnding) -> Void = { _ in }
    ) {
        let thread = Thread { [self] in onEnd(run(onRecord: onRecord)) }
        thread.name = "miccheck live analysis"
        thread.start()
    }

    /// Starts the session on a thread of its own and delivers its records as an asynchronous sequence,
    /// which finishes when the session ends. Leaving the loop early (`break`, `return`, a thrown error) or
    /// cancelling the iterating task stops the session.
    /// - Parameter limit: records kept for a consumer that falls behind (the newest are kept; 10 ms
    ///   frames make 100 records a second).
    public func records(bufferingNewest limit: Int = 4_096) -> AsyncStream<LiveRecord> {
        AsyncStream(bufferingPolicy: .bufferingNewest(limit)) { continuation in
            continuation.onTermination = { [source] _ in source.stop() }
            start(onRecord: { continuation.yield($0) }, onEnd: { _ in continuation.finish() })
        }
    }

    private func loop(_ onRecord: @escaping (LiveRecord) -> Void) -> LiveEnding {
        let c = configuration
        var stream: StreamingAnalysis
        do {
            stream = try StreamingAnalysis(sampleRate: source.sampleRate, configuration: c.analysis, model: c.model)
        } catch {
            return .failed(AudioSourceError(error, label: source.label))
        }
        let deliver: (AnalysisOutput) -> Void = { onRecord(.analysis($0)) }
        if let monitor = source.monitorSource { deliver(.event(.wrongSource(time: 0, source: monitor))) }
        let startClock = clock()
        var samplesInStream = 0
        var buffer = [Float](repeating: 0, count: 8_192)
        var audioStarted = false
        var ending = LiveEnding.ended
        loop: while true {
            let read: AudioRead
            do {
                read = try buffer.withUnsafeMutableBufferPointer { b throws(AudioSourceError) in
                    try source.read(into: b, timeout: c.readTimeout)
                }
            } catch {
                ending = .failed(error)
                break loop
            }
            switch read {
            case .samples(var n):
                if !audioStarted {
                    audioStarted = true
                    onRecord(.audioStarted)
                }
                // The samples that complete the duration; `finish` then analyses what the resampler holds.
                let wanted =
                    c.duration.map { Int((($0.seconds - stream.startTime) * Double(stream.sampleRate)).rounded()) }
                    ?? Int.max
                n = max(0, min(n, wanted - samplesInStream))
                buffer.withUnsafeBufferPointer {
                    let block = UnsafeBufferPointer(rebasing: $0[0..<n])
                    c.sampleTap?(block, stream.sampleRate)
                    stream.process(block, emit: deliver)
                }
                samplesInStream += n
                if let duration = c.duration, samplesInStream >= wanted {
                    ending = .durationReached(duration)
                    break loop
                }
            case .idle:
                onRecord(.idle)
            case .restarted:
                // A frame boundary at or after both the audio so far and the wall clock: `t` keeps counting.
                let resume: Double
                do {
                    resume = try stream.restart(
                        sampleRate: source.sampleRate, notBefore: clock() - startClock, emit: deliver)
                } catch {
                    return .failed(AudioSourceError(error, label: source.label))
                }
                samplesInStream = 0
                onRecord(.restarted(time: resume))
                if let duration = c.duration, resume >= duration.seconds {
                    ending = .durationReached(duration)
                    break loop
                }
            case .stopped:
                ending = .stopped
                break loop
            case .ended:
                break loop
            }
        }
        stream.finish(emit: deliver)
        return ending
    }
}

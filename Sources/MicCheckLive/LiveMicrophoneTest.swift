public import MicCheck
import Synchronization

/// A finished microphone test: the verdict, and the recording to play back (mono, at ``sampleRate``).
public struct MicrophoneTestResult: Sendable, Equatable {
    /// How the voice came through.
    public var verdict: MicrophoneTestVerdict
    /// The recording, mono, to play back to the user.
    public var recording: [Float]
    /// The recording's rate (Hz; 0 when nothing arrived).
    public var sampleRate: Int

    /// A result, as a test gives it.
    public init(verdict: MicrophoneTestVerdict, recording: [Float], sampleRate: Int) {
        self.verdict = verdict
        self.recording = recording
        self.sampleRate = sampleRate
    }
}

/// "Test your microphone" on a live source: records `MicrophoneTest.Configuration.seconds` of it and
/// judges them (`MicrophoneTest`).
///
/// Two ways to feed it:
/// - from a session that already reads the source (a lobby's meter): pass ``tap`` as the session's
///   ``LiveAnalysis/Configuration/sampleTap``, call ``start()``, and poll ``phase`` from the screen;
/// - from a source no one else reads: `record(from:configuration:model:timeout:)` reads it on the calling
///   thread and returns the result.
///
/// The recording lives in memory only, until ``discard()`` or the next ``start()``.
public final class LiveMicrophoneTest: Sendable {
    /// Where the test stands, for a screen that polls ``phase``.
    public enum Phase: Sendable, Equatable {
        /// No test, or the last one was discarded.
        case idle
        /// Recording; this many seconds so far.
        case recording(seconds: Double)
        /// Done: the verdict and the recording.
        case done(MicrophoneTestResult)
    }

    private enum State {
        case idle
        /// Started; the first samples choose the rate.
        case waiting
        case recording(MicrophoneTest)
        case done(MicrophoneTestResult)
    }

    /// How long it records.
    public let configuration: MicrophoneTest.Configuration
    private let model: VoiceActivityModel
    private let state = Mutex(State.idle)

    /// A test that records for `configuration.seconds` once started, judged with `model`.
    public init(configuration: MicrophoneTest.Configuration = .default, model: VoiceActivityModel = .bundled) {
        self.configuration = configuration
        self.model = model
    }

    /// Where the test stands.
    public var phase: Phase {
        state.withLock { s in
            switch s {
            case .idle: .idle
            case .waiting: .recording(seconds: 0)
            case .recording(let t): .recording(seconds: t.recordedSeconds)
            case .done(let r): .done(r)
            }
        }
    }

    /// Starts a test (dropping any earlier one): the next samples fed are recorded.
    public func start() { state.withLock { $0 = .waiting } }

    /// Ends a test cut short (the user leaves, or the source ended) with a verdict on what it recorded;
    /// nil when no test was recording.
    @discardableResult
    public func finishEarly() -> MicrophoneTestResult? {
        state.withLock { s in
            switch s {
            case .waiting:
                let r = MicrophoneTestResult(
                    verdict: MicrophoneTestVerdict(kind: .dead, recordedSeconds: 0), recording: [], sampleRate: 0)
                s = .done(r)
                return r
            case .recording(var t):
                let r = MicrophoneTestResult(verdict: t.finish(), recording: t.recording, sampleRate: t.sampleRate)
                s = .done(r)
                return r
            case .idle, .done: return nil
            }
        }
    }

    /// Forgets the test and its recording.
    public func discard() { state.withLock { $0 = .idle } }

    /// Records `samples` (at `sampleRate`) while a test runs; a change of rate ends it with what it has.
    public func feed(_ samples: UnsafeBufferPointer<Float>, sampleRate: Int) {
        state.withLock { s in
            switch s {
            case .waiting:
                guard var t = try? MicrophoneTest(sampleRate: sampleRate, configuration: configuration, model: model)
                else { return }
                t.append(samples)
                s = Self.settled(t)
            case .recording(var t):
                if t.sampleRate != sampleRate {
                    s = .done(
                        MicrophoneTestResult(verdict: t.finish(), recording: t.recording, sampleRate: t.sampleRate))
                    return
                }
                // Leaves the enum's payload before appending, so the recording is not copied.
                s = .idle
                t.append(samples)
                s = Self.settled(t)
            case .idle, .done: return
            }
        }
    }

    /// The tap for ``LiveAnalysis/Configuration/sampleTap``.
    public var tap: @Sendable (UnsafeBufferPointer<Float>, Int) -> Void {
        { [self] samples, rate in feed(samples, sampleRate: rate) }
    }

    private static func settled(_ test: MicrophoneTest) -> State {
        guard test.isComplete else { return .recording(test) }
        var t = test
        return .done(MicrophoneTestResult(verdict: t.finish(), recording: t.recording, sampleRate: t.sampleRate))
    }

    /// Records a test from `source`, which no one else reads, on the calling thread: returns once the test
    /// has its seconds, the source ends or stops, or `timeout` seconds of reads brought too little (the
    /// verdict then judges what arrived: nothing at all is a dead microphone).
    public static func record(
        from source: any AudioSource, configuration: MicrophoneTest.Configuration = .default,
        model: VoiceActivityModel = .bundled, timeout: Duration? = nil
    ) throws(AudioSourceError) -> MicrophoneTestResult {
        let test = LiveMicrophoneTest(configuration: configuration, model: model)
        test.start()
        let readTimeout = Duration.milliseconds(100)
        var waited = 0.0
        let limit = timeout.map(\.seconds) ?? configuration.seconds + 3
        var buffer = [Float](repeating: 0, count: 4_096)
        reading: while waited < limit {
            let read = try buffer.withUnsafeMutableBufferPointer { b throws(AudioSourceError) in
                try source.read(into: b, timeout: readTimeout)
            }
            switch read {
            case .samples(let n):
                let rate = source.sampleRate
                buffer.withUnsafeBufferPointer { test.feed(UnsafeBufferPointer(rebasing: $0[0..<n]), sampleRate: rate) }
                waited += Double(n) / Double(max(rate, 1))
                if case .done(let r) = test.phase { return r }
            case .idle: waited += readTimeout.seconds
            case .restarted: continue
            case .stopped, .ended: break reading
            }
        }
        return test.finishEarly() ?? test.phase.result
            ?? MicrophoneTestResult(
                verdict: MicrophoneTestVerdict(kind: .dead, recordedSeconds: 0), recording: [], sampleRate: 0)
    }
}

extension LiveMicrophoneTest {
    /// `record(from:configuration:model:timeout:)` with the timeout in seconds.
    @available(*, deprecated, message: "Pass a Duration: timeout: .seconds(8)")
    @_disfavoredOverload
    public static func record(
        from source: any AudioSource, configuration: MicrophoneTest.Configuration = .default,
        model: VoiceActivityModel = .bundled, timeout: Double
    ) throws(AudioSourceError) -> MicrophoneTestResult {
        try record(from: source, configuration: configuration, model: model, timeout: .wait(seconds: timeout))
    }
}

extension LiveMicrophoneTest.Phase {
    /// The result, once the test is done.
    public var result: MicrophoneTestResult? {
        if case .done(let r) = self { r } else { nil }
    }
}

public import MicCheck

/// The lobby's "Test your microphone": record a few seconds, hear them back through the chosen speaker,
/// and read MicCheck's verdict on them (`MicrophoneTestVerdict`).
///
/// The model only follows the steps; the app records (MicCheckLive's `LiveMicrophoneTest`, or a page's
/// server), plays back, and reports each step. The recording never enters the model.
public struct MicrophoneTestFlow: Sendable, Hashable {
    /// Where the test is.
    public enum Step: Sendable, Hashable {
        /// No test yet (or the last one was cancelled).
        case idle
        /// Recording since `since`, for `seconds`.
        case recording(since: Double, seconds: Double)
        /// The recording plays back; the verdict shows beside it.
        case playingBack(MicrophoneTestVerdict)
        /// Played back (or the speaker is off): the verdict stays until the next test.
        case done(MicrophoneTestVerdict)
    }

    /// The lobby's action that starts a test.
    public static let offer = "Test your microphone"
    /// Shown while the test records.
    public static let recordingMessage = "Recording: say a sentence or two as you would in the call."
    /// Shown while the recording plays back.
    public static let playingMessage = "Playing back your recording…"
    /// Why a test is refused while the microphone is off.
    public static let microphoneOffMessage = "Turn your microphone on to test it."

    /// The test's step now (`idle` at first).
    public private(set) var step: Step = .idle

    /// A flow with no test yet.
    public init() {}

    /// Whether a test records or plays back now (another cannot start).
    public var isBusy: Bool {
        switch step {
        case .recording, .playingBack: true
        case .idle, .done: false
        }
    }

    /// The verdict of the last test, while it shows.
    public var verdict: MicrophoneTestVerdict? {
        switch step {
        case .playingBack(let v), .done(let v): v
        case .idle, .recording: nil
        }
    }

    /// Starts recording at `time` for `seconds`; false while a test records or plays back.
    public mutating func start(at time: Double, seconds: Double) -> Bool {
        guard !isBusy else { return false }
        step = .recording(since: time, seconds: seconds)
        return true
    }

    /// The recording is judged: it plays back now (`playsBack`), or the verdict shows at once.
    public mutating func recorded(_ verdict: MicrophoneTestVerdict, playsBack: Bool) {
        guard case .recording = step else { return }
        step = playsBack ? .playingBack(verdict) : .done(verdict)
    }

    /// The playback is over.
    public mutating func playedBack() {
        if case .playingBack(let v) = step { step = .done(v) }
    }

    /// Stops a test that records or plays back (the user joined or left); returns whether one did.
    @discardableResult
    public mutating func cancel() -> Bool {
        switch step {
        case .recording:
            step = .idle
            return true
        case .playingBack(let v):
            step = .done(v)
            return true
        case .idle, .done:
            return false
        }
    }

    /// Seconds left to record at `time`, while recording.
    public func secondsLeft(at time: Double) -> Double? {
        guard case .recording(let since, let seconds) = step else { return nil }
        return max(0, since + seconds - time)
    }
}

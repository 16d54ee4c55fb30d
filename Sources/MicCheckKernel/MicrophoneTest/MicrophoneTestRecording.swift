/// "Test your microphone" as a protocol speaks it (`microphone_test` messages): started for a number of
/// seconds, fed the audio as it comes, ended by its length, by a cancel, by audio that stopped (a deadline on
/// the owner's clock) or by the stream's end, with the verdict's fields. The page's WebAssembly and the
/// server's endpoints (`/v1/call`, `/v1/vad`) run this one value.
public struct MicrophoneTestRecording: Sendable {
    /// Seconds past the test's length after which it ends with what it has (the audio stopped).
    public static let stallTimeout = 3.0

    // No observer on it: an observed property is copied in and out around each mutation, and a test holds
    // buffers. The test is changed in place (optional chaining) and taken out (`take()`), never copied.
    private var test: MicrophoneTest?
    private var deadline = 0.0

    /// A recorder with no test running.
    public init() {}

    /// Whether a test is recording. Stored beside the test and set with it: asking the optional (`test != nil`)
    /// copied the whole test, 7 KB more of WebAssembly.
    public private(set) var isRecording = false

    /// Starts a test of `seconds` (1 to 10) of audio at `sampleRate`; returns why not, or nil once it records
    /// (and `emit` has the `recording` message).
    public mutating func start(seconds: Double, sampleRate: Int, now: Double, emit: (String) -> Void) -> String? {
        guard (1...10).contains(seconds) else { return "a microphone test's \"seconds\" must be from 1 to 10" }
        do throws(AnalysisError) {
            test = try MicrophoneTest(
                sampleRate: sampleRate, configuration: .init(seconds: seconds), keepsRecording: false)
            isRecording = true
        } catch {
            return "the microphone test: \(error.description)"
        }
        deadline = now + seconds + Self.stallTimeout
        emit(Self.message([("state", .string("recording")), ("seconds", .number(seconds, decimals: 1))]))
        return nil
    }

    /// Stops a test that is recording: it ends `cancelled`.
    public mutating func cancel(emit: (String) -> Void) {
        guard isRecording else { return }
        test = nil
        isRecording = false
        emit(Self.message([("state", .string("cancelled"))]))
    }

    /// Audio for the test (mono, at the test's rate); the verdict comes when its length is recorded.
    public mutating func feed(_ samples: UnsafeBufferPointer<Float>, emit: (String) -> Void) {
        guard isRecording else { return }
        test?.append(samples)
        if test?.isComplete == true { finish(emit: emit) }
    }

    /// The owner's clock: a test whose audio stopped ends at its deadline with what it has.
    public mutating func tick(now: Double, emit: (String) -> Void) {
        if isRecording, now >= deadline { finish(emit: emit) }
    }

    /// Ends a test that is recording with what it has (the stream ended).
    public mutating func finish(emit: (String) -> Void) {
        guard isRecording, var t = test.take() else { return }
        isRecording = false
        emit(Self.done(&t))
    }

    private static func done(_ test: inout MicrophoneTest) -> String {
        message([("state", .string("done"))] + test.finish().jsonFields())
    }

    private static func message(_ fields: [(String, JSONValue)]) -> String {
        JSONValue.object([("type", .string("microphone_test"))] + fields).encoded
    }
}

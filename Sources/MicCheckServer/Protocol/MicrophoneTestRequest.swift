import MicCheck

/// A page's "Test your microphone", judged on the server from the audio the page already sends: the
/// page records and plays back its own copy; the server records nothing beyond the test's seconds, keeps
/// no samples (``MicrophoneTest`` with `keepsRecording: false`), and forgets the test once it has answered.
///
/// In: `{"type": "microphone_test", "action": "start"}` (optional `"seconds"`, 1 to 10; default 5) and
/// `{"type": "microphone_test", "action": "cancel"}`.
/// Out: `{"type": "microphone_test", "state": "recording", "seconds": 5}` at the start;
/// `{"type": "microphone_test", "state": "done", "verdict": ..., "sentence": ..., ...}` (the fields of
/// ``MicrophoneTestVerdict/jsonFields(source:)``) once the seconds of audio have arrived, or when the
/// audio stops arriving (``stallTimeout`` past the test's end on the connection's clock, or the stream
/// closes) with a verdict on what came; `{"type": "microphone_test", "state": "cancelled"}` after a cancel.
struct MicrophoneTestRequest: Sendable {
    /// Seconds past a test's length, without its audio having arrived, after which it is judged on what came.
    static let stallTimeout = 3.0

    private var test: MicrophoneTest?
    private var deadline = 0.0

    /// Whether a test is recording.
    var isRecording: Bool { test != nil }

    /// A `microphone_test` message.
    mutating func handle(
        _ m: ClientMessage, sampleRate: Int, now: Double, emit: (Connection.Message) -> Void
    ) throws(ProtocolError) {
        try m.only(["type", "action", "seconds"], in: "microphone_test")
        switch try m.string("action") {
        case "start":
            let seconds = try m.number("seconds") ?? MicrophoneTest.Configuration.default.seconds
            guard (1...10).contains(seconds) else {
                throw ProtocolError("a microphone test's \"seconds\" must be from 1 to 10")
            }
            do {
                test = try MicrophoneTest(
                    sampleRate: sampleRate, configuration: .init(seconds: seconds), keepsRecording: false)
            } catch {
                throw ProtocolError("the microphone test: \(error)")
            }
            deadline = now + seconds + Self.stallTimeout
            emit(Self.message([("state", .string("recording")), ("seconds", .number(seconds, decimals: 1))]))
        case "cancel":
            guard test != nil else { return }
            test = nil
            emit(Self.message([("state", .string("cancelled"))]))
        default:
            throw ProtocolError("a microphone test's \"action\" must be start or cancel")
        }
    }

    /// The page's audio, while a test records.
    mutating func feed(_ samples: UnsafeBufferPointer<Float>, emit: (Connection.Message) -> Void) {
        guard var t = test else { return }
        test = nil
        t.append(samples)
        if t.isComplete {
            emit(Self.done(&t))
        } else {
            test = t
        }
    }

    /// The clock moved: a test whose audio stopped coming is judged on what came.
    mutating func tick(now: Double, emit: (Connection.Message) -> Void) {
        if now >= deadline { finish(emit: emit) }
    }

    /// The stream ends: a test still recording is judged on what came.
    mutating func finish(emit: (Connection.Message) -> Void) {
        guard var t = test else { return }
        test = nil
        emit(Self.done(&t))
    }

    private static func done(_ test: inout MicrophoneTest) -> Connection.Message {
        message([("state", .string("done"))] + test.finish().jsonFields())
    }

    private static func message(_ fields: [(String, JSONValue)]) -> Connection.Message {
        Connection.Message(
            text: JSONValue.object([("type", .string("microphone_test"))] + fields).encoded, isLevel: false)
    }
}

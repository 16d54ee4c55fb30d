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
    private var recording = MicrophoneTestRecording()

    var isRecording: Bool { recording.isRecording }

    /// What a `microphone_test` message asks.
    enum Action: Equatable {
        case start(seconds: Double)
        case cancel
    }

    /// Reads a `microphone_test` message (`/v1/call` and `/v1/vad` alike).
    static func action(of m: ClientMessage) throws(ProtocolError) -> Action {
        try m.only(["type", "action", "seconds"], in: "microphone_test")
        switch try m.string("action") {
        case "start": return .start(seconds: try m.number("seconds") ?? MicrophoneTest.Configuration.default.seconds)
        case "cancel": return .cancel
        default: throw ProtocolError("a microphone test's \"action\" must be start or cancel")
        }
    }

    mutating func handle(
        _ m: ClientMessage, sampleRate: Int, now: Double, emit: (ServerMessage) -> Void
    ) throws(ProtocolError) {
        switch try Self.action(of: m) {
        case .start(let seconds):
            if let refusal = recording.start(
                seconds: seconds, sampleRate: sampleRate, now: now, emit: { emit(Self.message($0)) })
            {
                throw ProtocolError(refusal)
            }
        case .cancel:
            recording.cancel { emit(Self.message($0)) }
        }
    }

    mutating func feed(_ samples: UnsafeBufferPointer<Float>, emit: (ServerMessage) -> Void) {
        recording.feed(samples) { emit(Self.message($0)) }
    }

    mutating func tick(now: Double, emit: (ServerMessage) -> Void) {
        recording.tick(now: now) { emit(Self.message($0)) }
    }

    mutating func finish(emit: (ServerMessage) -> Void) {
        recording.finish { emit(Self.message($0)) }
    }

    private static func message(_ text: String) -> ServerMessage { ServerMessage(text: text, isLevel: false) }
}

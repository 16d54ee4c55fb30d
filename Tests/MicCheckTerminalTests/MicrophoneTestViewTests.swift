import MicCheck
import MicCheckCall
import MicCheckTerminal
import MicCheckTesting
import Testing

/// The lobby's "Test your microphone": the session's steps and what the terminal shows at each.
@Suite struct MicrophoneTestViewTests {
    static let clear = MicrophoneTestVerdict(
        kind: .clear, recordedSeconds: 5, speechSeconds: 3.2, speechLevelDB: -22.4, noiseLevelDB: -61)
    static let quiet = MicrophoneTestVerdict(
        kind: .tooQuiet, recordedSeconds: 5, speechSeconds: 3, speechLevelDB: -51.2, noiseLevelDB: -75)

    static func session() -> CallSession { MicrophoneChangesViewTests.session() }

    static func step(_ s: CallSession) -> MicrophoneTestFlow.Step? {
        if case .lobby(let lobby) = s.phase { return lobby.microphoneTest.step }
        return nil
    }

    @Test(arguments: [100, 60])
    func recordThenPlayBackThenTheVerdict(width: Int) {
        var s = Self.session()
        var text = MicrophoneChangesViewTests.shown(s, width: width)
        #expect(text.contains("[t] Test your microphone") && text.contains("t test mic"), "\(text)")
        #expect(s.handle(.character("t"), at: 1) == [.microphoneTestStarted(seconds: 5)])
        #expect(s.handle(.character("t"), at: 1.5) == [], "a second t while recording does nothing")
        _ = s.advance(to: 2.2)
        text = MicrophoneChangesViewTests.shown(s, width: width)
        #expect(text.contains("Recording: say a sentence or two as you would in the call. 4 s left."), "\(text)")
        #expect(s.microphoneTestRecorded(Self.clear, at: 6.1) == [.microphoneTestRecorded(Self.clear, playsBack: true)])
        text = MicrophoneChangesViewTests.shown(s, width: width)
        #expect(text.contains("Playing back your recording…"))
        #expect(
            text.contains(
                "Your voice came through clearly: -22.4 dBFS while you spoke, 38.6 dB above the room's noise."),
            "\(text)")
        #expect(s.microphoneTestPlayedBack(at: 11) == [.microphoneTestPlayedBack])
        text = MicrophoneChangesViewTests.shown(s, width: width)
        #expect(
            !text.contains("Playing back") && text.contains("came through clearly") && text.contains("[t] Test again"))
        #expect(s.handle(.character("t"), at: 12) == [.microphoneTestStarted(seconds: 5)], "t tests again")
    }

    @Test func aQuietVerdictNamesTheMicrophoneToTurnUp() {
        var s = Self.session()
        _ = s.handle(.testMicrophone, at: 1)
        _ = s.microphoneTestRecorded(Self.quiet, at: 6)
        let text = MicrophoneChangesViewTests.shown(s)
        #expect(text.contains("Raise the input volume of VirtualMic (virtmic)"), "\(text)")
    }

    @Test func withTheSpeakerOffTheVerdictShowsWithoutPlayback() {
        var s = Self.session()
        _ = s.handle(.toggle(.speaker), at: 0.5)
        _ = s.handle(.testMicrophone, at: 1)
        #expect(s.microphoneTestRecorded(Self.clear, at: 6) == [.microphoneTestRecorded(Self.clear, playsBack: false)])
        #expect(Self.step(s) == .done(Self.clear))
        #expect(s.microphoneTestPlayedBack(at: 7) == [], "nothing plays")
    }

    @Test func withTheMicrophoneOffTheTestIsRefused() {
        var s = Self.session()
        _ = s.handle(.toggle(.microphone), at: 0.5)
        #expect(!MicrophoneChangesViewTests.shown(s).contains("[t] Test your microphone"))
        #expect(s.handle(.testMicrophone, at: 1) == [.microphoneTestRefused])
        #expect(Self.step(s) == .idle)
    }

    @Test func joiningOrClosingMidTestCancelsIt() {
        var s = Self.session()
        _ = s.handle(.testMicrophone, at: 1)
        let joined = s.handle(.join, at: 2)
        #expect(joined.first == .microphoneTestCancelled && joined.contains { $0.name == "joined" }, "\(joined)")
        #expect(s.microphoneTestRecorded(Self.clear, at: 6) == [], "a verdict after joining goes nowhere")
        #expect(s.handle(.testMicrophone, at: 7) == [], "no test in the call")

        var closing = Self.session()
        _ = closing.handle(.testMicrophone, at: 1)
        _ = closing.microphoneTestRecorded(Self.clear, at: 6)
        #expect(closing.handle(.close, at: 7) == [.microphoneTestCancelled, .closed], "playing back, then closed")
    }
}

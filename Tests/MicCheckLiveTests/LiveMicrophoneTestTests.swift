import MicCheck
import MicCheckLive
import MicCheckTesting
import Testing

@Suite("LiveMicrophoneTest: a microphone test on a live source")
struct LiveMicrophoneTestTests {
    let rate = 48_000

    /// A person's test at 48 kHz: the room, a voice, the room.
    func voiceInRoom(seconds: Double = 6) -> [Float] {
        var x = Signals.pinkNoise(rmsDB: -62, seconds: seconds, sampleRate: rate)
        let v = Signals.voice(rmsDB: -24, seconds: 3.5, sampleRate: rate)
        for (i, s) in v.enumerated() { x[rate / 2 + i] += s }
        return x
    }

    @Test("recorded from a source no one else reads: 5 s kept for playback, at the source's rate, and judged")
    func recordFromSource() throws {
        let source = FakeAudioSource(sampleRate: rate, steps: [.audio(voiceInRoom())])
        let result = try LiveMicrophoneTest.record(from: source)
        #expect(result.verdict.kind == .clear, "\(result.verdict)")
        #expect(result.sampleRate == rate && result.recording.count == 5 * rate)
    }

    @Test(
        "a source that delivers nothing is a dead microphone after the timeout; one that ends early is judged on what came"
    )
    func nothingAndEarlyEnd() throws {
        let silent = FakeAudioSource(sampleRate: rate, steps: [.quiet(count: 1_000)])
        let none = try LiveMicrophoneTest.record(from: silent, timeout: .seconds(1))
        #expect(none.verdict.kind == .dead && none.verdict.recordedSeconds == 0)
        #expect(none.verdict.sentence().hasPrefix("No audio arrived"))

        let short = FakeAudioSource(sampleRate: rate, steps: [.audio(Array(voiceInRoom()[0..<(3 * rate)]))])
        let cut = try LiveMicrophoneTest.record(from: short)
        #expect(abs(cut.verdict.recordedSeconds - 3) < 0.01 && cut.verdict.kind == .clear, "\(cut.verdict)")
    }

    @Test(
        "fed by a running session's sample tap: idle until started, recording, then done; discard forgets the recording"
    )
    func tapOfARunningSession() throws {
        let test = LiveMicrophoneTest()
        let x = voiceInRoom(seconds: 8)
        let source = FakeAudioSource(sampleRate: rate, steps: [.audio(Array(x[0..<rate])), .audio(Array(x[rate...]))])
        // Nothing is recorded before start: the first second goes by untouched.
        test.start()
        #expect(test.phase == .recording(seconds: 0))
        _ = LiveHarness.run(source, configuration: .init(sampleTap: test.tap))
        let result = try #require(test.phase.result)
        #expect(result.verdict.kind == .clear && result.recording == Array(x[0..<(5 * rate)]))
        test.discard()
        #expect(test.phase == .idle)
        #expect(test.finishEarly() == nil, "nothing to finish")
    }

    @Test("a source that restarts at another rate mid-test ends the test with what it had")
    func rateChange() throws {
        let test = LiveMicrophoneTest()
        test.start()
        let first = Array(voiceInRoom()[0..<(2 * rate)])
        first.withUnsafeBufferPointer { test.feed($0, sampleRate: rate) }
        [Float](repeating: 0.1, count: 160).withUnsafeBufferPointer { test.feed($0, sampleRate: 16_000) }
        let result = try #require(test.phase.result)
        #expect(result.sampleRate == rate && abs(result.verdict.recordedSeconds - 2) < 0.001)
    }
}

import MicCheck
import Testing

@Suite("MutedSpeechNotice: \"You are muted.\" on speech while muted")
struct MutedSpeechNoticeTests {
    /// Speech starts at these times; which of them show the notice (display 2 s, cooldown 5 s).
    @Test(
        "shown for 2 s, once per utterance, then quiet for the cooldown",
        arguments: [
            ([1.0], [true]),
            ([1.0, 2.5], [true, false]),  // still showing
            ([1.0, 6.0], [true, false]),  // inside the cooldown (ends at 8.0)
            ([1.0, 8.0], [true, true]),  // cooldown over
            ([1.0, 8.0, 9.0, 15.5], [true, true, false, true]),
        ] as [([Double], [Bool])])
    func schedule(_ starts: [Double], _ shown: [Bool]) {
        var notice = MutedSpeechNotice(isMuted: true)
        var result: [Bool] = []
        for t in starts { result.append(notice.speechStarted(at: t)) }
        #expect(result == shown)
        #expect(notice.count == shown.filter { $0 }.count)
    }

    @Test("visible from the start for exactly the display duration")
    func visibility() {
        var notice = MutedSpeechNotice(isMuted: true)
        #expect(!notice.isVisible(at: 0.5))
        let shown1 = notice.speechStarted(at: 1)
        #expect(shown1)
        #expect(notice.isVisible(at: 1) && notice.isVisible(at: 2.99))
        #expect(!notice.isVisible(at: 3) && !notice.isVisible(at: 0.9))
    }

    @Test("never while unmuted; unmuting hides it and resets the cooldown")
    func unmuted() {
        var notice = MutedSpeechNotice(isMuted: false)
        let shown1 = notice.speechStarted(at: 1)
        #expect(!shown1)
        notice.isMuted = true
        let shown2 = notice.speechStarted(at: 2)
        #expect(shown2)
        notice.isMuted = false
        #expect(!notice.isVisible(at: 2.5))
        notice.isMuted = true
        let shown3 = notice.speechStarted(at: 3)
        #expect(shown3)
    }
}

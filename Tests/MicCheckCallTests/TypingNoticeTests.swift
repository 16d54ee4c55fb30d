import MicCheck
import MicCheckCall
import MicCheckTesting
import Testing

@Suite struct TypingNoticeTests {
    static let granted: Permission = {
        var p = Permission()
        p.resolve(granted: true)
        return p
    }()

    static func notice(audioOn: Bool = true, at time: Double = 0) -> TypingNotice {
        var n = TypingNotice()
        n.update(settings: CallSettings(audioOn: audioOn), capabilities: [.sendAudio], microphone: granted, at: time)
        return n
    }

    @Test func textAndAction() {
        #expect(TypingNotice.text == "Your typing can be heard.")
        #expect(TypingNotice.action == "Mute")
    }

    @Test(
        arguments: [
            (true, Set<OwnCapability>([.sendAudio, .sendVideo]), granted, true),
            (false, [.sendAudio, .sendVideo], granted, false),
            (true, [.sendVideo], granted, false),
            (true, [.sendAudio], Permission(), false),
        ] as [(Bool, Set<OwnCapability>, Permission, Bool)])
    func activeOnlyWhenUnmutedAllowedAndGranted(
        audioOn: Bool, capabilities: Set<OwnCapability>, permission: Permission, active: Bool
    ) {
        var n = TypingNotice()
        n.update(settings: CallSettings(audioOn: audioOn), capabilities: capabilities, microphone: permission, at: 0)
        #expect(n.isActive == active)
        do {
            let shown = n.keyboardNoise(at: 1)
            #expect(shown == active)
        }
        #expect(n.isVisible(at: 2) == active)
    }

    @Test func showsForFiveSecondsThenAtMostOnceEveryTwoMinutes() {
        let clock = ManualClock(now: .seconds(30))
        let time = CallTimeline(clock: clock, start: .zero)
        var n = Self.notice()
        do {
            let shown = n.keyboardNoise(at: time.now)
            #expect(shown)
        }
        clock.advance(by: .seconds(4.99))
        #expect(n.isVisible(at: time.now))
        clock.advance(by: .seconds(0.02))
        #expect(!n.isVisible(at: time.now), "gone after 5 s")
        // The detector repeats its event every 10 s of typing: the notice stays quiet for 2 minutes.
        for _ in 0..<11 {
            clock.advance(by: .seconds(10))
            let shown = n.keyboardNoise(at: time.now)
            #expect(!shown, "at \(time.now)")
        }
        clock.advance(by: .seconds(120 - (time.now - 30) - 0.01))
        do {
            let shown = n.keyboardNoise(at: time.now)
            #expect(!shown, "still inside the two minutes at \(time.now)")
        }
        clock.advance(by: .seconds(0.02))
        do {
            let shown = n.keyboardNoise(at: time.now)
            #expect(shown, "two minutes after the last notice")
        }
        #expect(n.count == 2)
    }

    @Test func neverWhileSpeaking() {
        let clock = ManualClock(now: .seconds(5))
        let time = CallTimeline(clock: clock, start: .zero)
        var n = Self.notice()
        n.speechStarted(at: time.now)
        clock.advance(by: .seconds(1))
        do {
            let shown = n.keyboardNoise(at: time.now)
            #expect(!shown, "the user speaks")
        }
        clock.advance(by: .seconds(1))
        n.speechEnded(at: time.now)
        clock.advance(by: .seconds(1.5))
        do {
            let shown = n.keyboardNoise(at: time.now)
            #expect(shown, "typing in the pause after speaking")
        }
        clock.advance(by: .seconds(1))
        do {
            let hidden = n.speechStarted(at: time.now)
            #expect(hidden, "speaking takes the notice down")
        }
        #expect(!n.isVisible(at: time.now + 0.1))
    }

    @Test func mutingHidesItAndUnmutingDoesNotRearmIt() {
        let clock = ManualClock()
        let time = CallTimeline(clock: clock)
        var n = Self.notice()
        do {
            let shown = n.keyboardNoise(at: time.now)
            #expect(shown)
        }
        clock.advance(by: .seconds(1))
        do {
            let hidden = n.update(
                settings: CallSettings(audioOn: false), capabilities: [.sendAudio], microphone: Self.granted,
                at: time.now)
            #expect(hidden, "the user took the action: muted")
        }
        #expect(!n.isVisible(at: time.now))
        clock.advance(by: .seconds(1))
        do {
            let shown = n.keyboardNoise(at: time.now)
            #expect(!shown, "muted: the call hears no typing")
        }
        clock.advance(by: .seconds(20))
        n.update(
            settings: CallSettings(audioOn: true), capabilities: [.sendAudio], microphone: Self.granted, at: time.now)
        do {
            let shown = n.keyboardNoise(at: time.now)
            #expect(!shown, "unmuting does not re-arm it (Jitsi's does): still within the two minutes")
        }
        clock.advance(by: .seconds(100))
        do {
            let shown = n.keyboardNoise(at: time.now)
            #expect(shown)
        }
    }
}

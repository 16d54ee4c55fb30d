import MicCheck
import MicCheckCall
import MicCheckTerminal
import MicCheckTesting
import Testing

/// The call screen with push-to-talk and a host's mute (issue 47).
@Suite struct MuteCauseViewTests {
    static func inCall() -> CallSession {
        var s = LobbyViewTests.session(camera: LobbyViewTests.granted)
        _ = s.handle(.join, at: 0)
        return s
    }

    @Test func pushToTalkSaysHowToTalkAndWhenTalking() {
        var s = Self.inCall()
        #expect(MicrophoneChangesViewTests.shown(s).contains("p push-to-talk"))
        _ = s.handle(.character("p"), at: 1)
        var text = MicrophoneChangesViewTests.shown(s)
        #expect(text.contains("Push-to-talk: press space to talk") && text.contains("space talk"), "\(text)")
        _ = s.handle(.character(" "), at: 2)
        text = MicrophoneChangesViewTests.shown(s)
        #expect(text.contains("● Talking") && !text.contains("press space"), "\(text)")
        _ = s.microphoneEvent(.speechStarted(time: 2.2, audioStart: 2), at: 2.3)
        _ = s.microphoneEvent(.speechEnded(time: 4), at: 4.1)
        _ = s.microphoneEvent(.speechStarted(time: 5, audioStart: 4.8), at: 5.1)
        text = MicrophoneChangesViewTests.shown(s)
        #expect(text.contains("press space to talk") && !text.contains("You are muted"), "\(text)")
    }

    @Test func aHostsMuteNamesTheHostAndTheNoticeOffersUnmute() {
        var s = Self.inCall()
        _ = s.mutedByHost(name: "Grace Hopper", at: 1)
        var text = MicrophoneChangesViewTests.shown(s)
        #expect(text.contains("Grace Hopper muted you."), "\(text)")
        _ = s.microphoneEvent(.speechStarted(time: 2, audioStart: 1.8), at: 2)
        text = MicrophoneChangesViewTests.shown(s)
        #expect(text.contains("You are muted. Unmute (m)"), "\(text)")
        #expect(!text.contains("don't show again"), "a host's mute cannot be silenced")
        _ = s.handle(.character("m"), at: 3)
        #expect(!MicrophoneChangesViewTests.shown(s).contains("muted you"))
    }
}

/// A headset plugged in mid-call, on the call screen.
@Suite struct InCallMicrophoneViewTests {
    @Test(arguments: [100, 60])
    func theCallScreenOffersANewMicrophoneWithItsKeys(width: Int) {
        var s = MuteCauseViewTests.inCall()
        let headset = MicrophoneDevice(id: "bluez_input.headset", name: "Headset")
        _ = s.microphoneAppeared(headset, at: 1)
        let text = MicrophoneChangesViewTests.shown(s, width: width)
        #expect(text.contains("A new microphone is available: Headset. Switch (w)?"), "\(text)")
        #expect(text.contains("[w] Switch  [i] Ignore") && text.contains("w switch · i ignore"), "\(text)")
        #expect(s.handle(.character("w"), at: 2) == [.microphoneSwitchRequested(headset)])
        #expect(!MicrophoneChangesViewTests.shown(s, width: width).contains("A new microphone"))
    }
}

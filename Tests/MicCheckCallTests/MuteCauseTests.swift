import MicCheck
import MicCheckCall
import Testing

/// Who muted: the user, a host, or push-to-talk (issue 47), from the notice's model to the session.
@Suite struct MuteCauseTests {
    @Test("MutedSpeechNotice: no notice while muted by push-to-talk; the user's own and a host's mute show it")
    func noticeByCause() {
        var notice = MutedSpeechNotice(isMuted: true)
        notice.cause = .pushToTalk
        let whilePushing = notice.speechStarted(at: 1)
        #expect(!whilePushing && notice.count == 0)
        notice.cause = .host(name: "Grace")
        let byHost = notice.speechStarted(at: 2)
        #expect(byHost)
        notice.cause = .selfMuted
        let inCooldown = notice.speechStarted(at: 3)
        let after = notice.speechStarted(at: 9.5)
        #expect(!inCooldown, "the cooldown still holds")
        #expect(after)
        #expect(MuteCause.host(name: "Grace").announcement == "Grace muted you.")
        #expect([MuteCause.selfMuted, .host(name: "G"), .pushToTalk].map(\.name) == ["self", "host", "push-to-talk"])
    }

    static func call() -> ActiveCall {
        var granted = Permission()
        granted.resolve(granted: true)
        return ActiveCall(
            callID: "c", localUser: Participant(id: "me", name: "Me"), others: [], settings: CallSettings(),
            capabilities: [.sendAudio, .sendVideo], permissions: Permissions(microphone: granted, camera: granted))
    }

    @Test("muted by a host: the microphone goes off, 'NAME muted you.', and the notice applies after don't-show-again")
    func hostMute() {
        var call = Self.call()
        call.silenceMutedNotice()
        call.mutedByHost(name: "Grace Hopper")
        #expect(!call.settings.audioOn && call.mutedIndicator.cause == .host(name: "Grace Hopper"))
        #expect(call.mutedIndicator.announcement == "Grace Hopper muted you.")
        let shown = call.localSpeechStarted(at: 1)
        #expect(shown, "the notice shows though the user had silenced it")
        call.silenceMutedNotice()
        #expect(call.mutedIndicator.isActive, "don't-show-again does not silence a host's mute")
        let unmuted = call.toggle(.microphone)
        #expect(unmuted && call.settings.audioOn, "the user may unmute")
        #expect(call.mutedIndicator.announcement == nil && call.mutedIndicator.cause == .selfMuted)
        _ = call.toggle(.microphone)
        #expect(!call.mutedIndicator.isActive, "muted by themselves again: their don't-show-again holds")
    }

    @Test("push-to-talk: muted between presses with no notice; talking opens the microphone; m ends it")
    func pushToTalk() {
        var call = Self.call()
        let on = call.setPushToTalk(true)
        #expect(on && !call.settings.audioOn && call.mutedIndicator.cause == .pushToTalk)
        let pushing = call.localSpeechStarted(at: 1)
        #expect(!pushing, "no notice for someone who knows they are muted")
        let opened = call.talk(true)
        #expect(opened && call.settings.audioOn)
        let again = call.talk(true)
        #expect(!again, "already talking")
        let closed = call.talk(false)
        #expect(closed && !call.settings.audioOn && call.mutedIndicator.cause == .pushToTalk)
        let released = call.localSpeechStarted(at: 9)
        #expect(!released, "released: still no notice")
        _ = call.toggle(.microphone)
        #expect(!call.isPushToTalk && call.settings.audioOn)
        _ = call.toggle(.microphone)
        let selfMuted = call.localSpeechStarted(at: 20)
        #expect(selfMuted, "muted by the user: the notice again")
        var listener = ActiveCall(
            callID: "c", localUser: Participant(id: "me", name: "Me"), others: [], settings: CallSettings(),
            capabilities: [], permissions: Permissions())
        let refused = listener.setPushToTalk(true)
        #expect(!refused, "a call without audio has no push-to-talk")
    }

    static func session() -> CallSession {
        var granted = Permission()
        granted.resolve(granted: true)
        var s = CallSession(
            call: .demo, localUser: Participant(id: "me", name: "Me", isLocalUser: true),
            permissions: Permissions(microphone: granted, camera: granted), microphoneName: "mic", at: 0)
        _ = s.handle(.join, at: 0)
        return s
    }

    @Test("the session: a talk press opens the microphone for one utterance, or 4 s without speech")
    func talkPress() {
        var s = Self.session()
        #expect(s.handle(.talk, at: 0.5) == [], "no push-to-talk yet: space does nothing")
        #expect(s.handle(.pushToTalk, at: 1) == [.pushToTalkChanged(on: true)])
        #expect(s.handle(.talk, at: 2) == [.talking(true)])
        #expect(s.microphoneEvent(.speechStarted(time: 2.5, audioStart: 2.2), at: 2.6) == [])
        #expect(s.advance(to: 7) == [], "speech started: open until the utterance ends")
        #expect(s.microphoneEvent(.speechEnded(time: 7.5), at: 7.6) == [.talking(false)])
        #expect(s.microphoneEvent(.speechStarted(time: 8, audioStart: 7.7), at: 8.1) == [], "no notice")
        #expect(!s.showsMutedNotice)
        #expect(s.handle(.talk, at: 10) == [.talking(true)])
        #expect(s.advance(to: 13.9) == [])
        #expect(s.advance(to: 14) == [.talking(false)], "nothing said within 4 s: closed")
        #expect(s.handle(.pushToTalk, at: 15) == [.pushToTalkChanged(on: false)])
    }

    @Test("the session: muted by a host mid-talk, with the event and the notice on the next speech")
    func sessionHostMute() {
        var s = Self.session()
        #expect(s.mutedByHost(name: "Grace", at: 1) == [.mutedByHost("Grace")])
        #expect(s.microphoneEvent(.speechStarted(time: 2, audioStart: 1.7), at: 2) == [.mutedNoticeShown])
        var lobby = CallSession(
            call: .demo, localUser: Participant(id: "me", name: "Me", isLocalUser: true), permissions: Permissions(),
            microphoneName: "mic", at: 0)
        #expect(lobby.mutedByHost(name: "Grace", at: 1) == [], "in the lobby there is no host")
    }
}

/// "Your typing can be heard." in the call (issue 47), from the session's events.
@Suite struct TypingInCallTests {
    static let typing = KeyboardNoiseDetector.Typing(keystrokes: 8, perSecond: 4, levelDB: -30, since: 1)

    @Test("typing while unmuted shows the notice for 5 s, once in two minutes; muting hides it; not while speaking")
    func typingNotice() {
        var s = MuteCauseTests.session()
        #expect(s.microphoneEvent(.keyboardNoise(time: 2, typing: Self.typing), at: 2) == [.typingNoticeShown])
        #expect(s.showsTypingNotice)
        #expect(s.advance(to: 6.9) == [])
        #expect(s.advance(to: 7) == [.typingNoticeHidden])
        #expect(s.microphoneEvent(.keyboardNoise(time: 60, typing: Self.typing), at: 60) == [], "once in 2 minutes")
        #expect(s.microphoneEvent(.speechStarted(time: 125, audioStart: 124.8), at: 125) == [])
        #expect(s.microphoneEvent(.keyboardNoise(time: 126, typing: Self.typing), at: 126) == [], "speaking")
        _ = s.microphoneEvent(.speechEnded(time: 127), at: 127)
        #expect(s.microphoneEvent(.keyboardNoise(time: 128, typing: Self.typing), at: 128) == [.typingNoticeShown])
        #expect(s.handle(.toggle(.microphone), at: 129) == [.toggled(.microphone, on: false), .typingNoticeHidden])
        #expect(s.microphoneEvent(.keyboardNoise(time: 300, typing: Self.typing), at: 300) == [], "muted: nobody hears")
    }
}

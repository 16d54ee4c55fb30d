import MicCheckCall
import MicCheckTesting
import Testing

@Suite struct MicrophoneChoiceTests {
    static let virtmic = MicrophoneDevice(id: "virtmic", name: "VirtualMic")
    static let usb = MicrophoneDevice(id: "alsa_input.usb", name: "USB Microphone")
    static let headset = MicrophoneDevice(id: "bluez_input.headset", name: "Headset")

    @Test func aNewMicrophoneIsOfferedUntilItTimesOut() {
        var choice = MicrophoneChoice(inUse: Self.virtmic)
        let offered = choice.appeared(Self.usb, at: 5)
        #expect(offered)
        #expect(choice.offer?.device == Self.usb)
        #expect(choice.offer?.message == "A new microphone is available: USB Microphone.")
        #expect(choice.advance(to: 24.9).isEmpty && choice.offer != nil)
        #expect(choice.advance(to: 25) == [.offer(Self.usb)])
        #expect(choice.offer == nil)
        #expect(choice.inUse == Self.virtmic, "an offer nobody answered changes nothing")
    }

    @Test func theTimingsAreDurations() {
        let configuration = MicrophoneChoice.Configuration(
            offerTimeout: .milliseconds(2500), noticeDuration: .seconds(4))
        var choice = MicrophoneChoice(inUse: Self.virtmic, configuration: configuration)
        choice.appeared(Self.usb, at: 10)
        #expect(choice.offer?.until == 12.5)
        #expect(choice.advance(to: 12.49).isEmpty)
        #expect(choice.advance(to: 12.5) == [.offer(Self.usb)])
        choice.fellBack(lost: Self.usb, to: Self.virtmic, at: 20)
        #expect(choice.notice?.until == 24)
    }

    @Test func theMicrophoneInUseIsNeverNew() {
        var choice = MicrophoneChoice(inUse: Self.virtmic)
        let offered = choice.appeared(Self.virtmic, at: 1)
        #expect(!offered)
        #expect(choice.offer == nil)
    }

    @Test func ignoringTakesTheOfferDownAndKeepsTheMicrophone() {
        var choice = MicrophoneChoice(inUse: Self.virtmic)
        choice.appeared(Self.usb, at: 1)
        #expect(choice.ignore() == Self.usb)
        #expect(choice.offer == nil && choice.inUse == Self.virtmic)
        #expect(choice.ignore() == nil, "nothing left to ignore")
        #expect(choice.accept() == nil, "nor to accept")
    }

    @Test func acceptingNamesTheMicrophoneAndTheSwitchMakesItTheOneInUse() {
        var choice = MicrophoneChoice(inUse: Self.virtmic)
        choice.appeared(Self.usb, at: 1)
        #expect(choice.accept() == Self.usb)
        #expect(choice.offer == nil)
        #expect(choice.inUse == Self.virtmic, "in use only once the system says so")
        choice.switched(to: Self.usb)
        #expect(choice.inUse == Self.usb)
        let offeredAgain = choice.appeared(Self.usb, at: 3)
        #expect(!offeredAgain, "now in use: not new")
    }

    @Test func aNewerMicrophoneReplacesTheOfferAndARemovedOneWithdrawsIt() {
        var choice = MicrophoneChoice(inUse: Self.virtmic)
        choice.appeared(Self.usb, at: 1)
        choice.appeared(Self.headset, at: 2)
        #expect(choice.offer?.device == Self.headset)
        let withdrawnWrong = choice.removed(id: Self.usb.id)
        #expect(!withdrawnWrong, "not the one offered")
        #expect(choice.offer?.device == Self.headset)
        let withdrawn = choice.removed(id: Self.headset.id)
        #expect(withdrawn)
        #expect(choice.offer == nil)
    }

    @Test func losingTheMicrophoneInUseFallsBackAndSaysSoForAWhile() {
        var choice = MicrophoneChoice(inUse: Self.usb)
        choice.appeared(Self.headset, at: 1)
        choice.fellBack(lost: Self.usb, to: Self.virtmic, at: 10)
        #expect(choice.inUse == Self.virtmic)
        #expect(choice.notice?.message == "The microphone USB Microphone was disconnected: using VirtualMic.")
        #expect(choice.offer?.device == Self.headset, "another microphone's offer stands")
        #expect(choice.advance(to: 19.9) == [])
        #expect(choice.advance(to: 21) == [.offer(Self.headset), .notice])
        #expect(choice.notice == nil)
    }

    @Test func theFallbackIsNotOfferedAgain() {
        var choice = MicrophoneChoice(inUse: Self.usb)
        choice.appeared(Self.virtmic, at: 1)
        choice.fellBack(lost: Self.usb, to: Self.virtmic, at: 2)
        #expect(choice.offer == nil)
    }
}

@Suite struct CallSessionMicrophoneTests {
    static func session() -> CallSession {
        var granted = Permission()
        granted.resolve(granted: true)
        var s = CallSession(
            call: .demo, localUser: Participant(id: "me", name: "Me", isLocalUser: true),
            permissions: Permissions(microphone: granted, camera: granted), microphoneName: "?", at: 0)
        s.setMicrophoneInUse(MicrophoneChoiceTests.virtmic)
        return s
    }

    static func choice(_ s: CallSession) -> MicrophoneChoice? {
        if case .lobby(let lobby) = s.phase { return lobby.microphoneChoice }
        return nil
    }

    @Test func offerSwitchAndTheNewNameInTheLobby() {
        var s = Self.session()
        #expect(s.microphoneName == "VirtualMic (virtmic)")
        let usb = MicrophoneChoiceTests.usb
        #expect(s.microphoneAppeared(usb, at: 1) == [.microphoneOffered(usb)])
        #expect(Self.choice(s)?.offer?.device == usb)
        #expect(s.handle(.switchMicrophone, at: 2) == [.microphoneSwitchRequested(usb)])
        #expect(Self.choice(s)?.offer == nil)
        #expect(s.microphoneName == "VirtualMic (virtmic)", "the name changes when the switch is done")
        #expect(s.microphoneSwitched(to: usb, at: 2.1) == [.microphoneSwitched(usb)])
        #expect(s.microphoneName == "USB Microphone (alsa_input.usb)")
        #expect(s.handle(.switchMicrophone, at: 3) == [], "no offer: w does nothing")
    }

    @Test func ignoredExpiredAndWithdrawnOffers() {
        var s = Self.session()
        let usb = MicrophoneChoiceTests.usb
        _ = s.microphoneAppeared(usb, at: 1)
        #expect(s.handle(.ignoreMicrophoneOffer, at: 2) == [.microphoneOfferIgnored(usb)])
        _ = s.microphoneAppeared(usb, at: 3)
        #expect(s.advance(to: 22.9) == [])
        #expect(s.advance(to: 23) == [.microphoneOfferExpired(usb)])
        _ = s.microphoneAppeared(usb, at: 30)
        #expect(s.microphoneRemoved(usb, at: 31) == [.microphoneOfferWithdrawn(usb)])
        #expect(s.microphoneAppeared(MicrophoneChoiceTests.virtmic, at: 32) == [], "the one in use")
    }

    @Test func theFallbackIsSaidInTheLobbyAndRenamesTheMicrophone() {
        var s = Self.session()
        let virtmic = MicrophoneChoiceTests.virtmic
        let fallback = MicrophoneDevice(id: "micsink.monitor", name: "Monitor of MicFeed")
        #expect(
            s.microphoneFellBack(lost: virtmic, to: fallback, at: 4) == [
                .microphoneDisconnected(lost: virtmic, fallback: fallback)
            ])
        #expect(s.microphoneName == "Monitor of MicFeed (micsink.monitor)")
        #expect(
            Self.choice(s)?.notice?.message
                == "The microphone VirtualMic was disconnected: using Monitor of MicFeed.")
        _ = s.advance(to: 14)
        #expect(Self.choice(s)?.notice == nil)
    }

    @Test func inTheCallAHeadsetPluggedInIsOfferedAndAnOfferGoesOnFromTheLobby() {
        var s = Self.session()
        let usb = MicrophoneChoiceTests.usb
        _ = s.microphoneAppeared(usb, at: 0.5)
        _ = s.handle(.join, at: 1)
        guard case .inCall(let joined) = s.phase else {
            Issue.record("not in the call")
            return
        }
        #expect(joined.microphoneChoice.offer?.device == usb, "the lobby's offer goes on into the call")
        #expect(s.handle(.ignoreMicrophoneOffer, at: 2) == [.microphoneOfferIgnored(usb)])
        let headset = MicrophoneDevice(id: "bluez_input.headset", name: "Headset")
        #expect(s.microphoneAppeared(headset, at: 3) == [.microphoneOffered(headset)])
        #expect(s.handle(.switchMicrophone, at: 4) == [.microphoneSwitchRequested(headset)])
        #expect(s.microphoneSwitched(to: headset, at: 4.2) == [.microphoneSwitched(headset)])
        #expect(s.microphoneName == headset.label)
        _ = s.microphoneFellBack(lost: headset, to: usb, at: 5)
        #expect(s.microphoneName == usb.label)
        guard case .inCall(let call) = s.phase else { return }
        #expect(
            call.microphoneChoice.notice?.message == "The microphone Headset was disconnected: using USB Microphone.")
        _ = s.microphoneAppeared(headset, at: 6)
        #expect(s.advance(to: 26) == [.microphoneOfferExpired(headset)], "an unanswered offer goes after 20 s")
        _ = s.handle(.close, at: 27)
        #expect(s.microphoneAppeared(headset, at: 28) == [], "nothing once the call is left")
    }
}

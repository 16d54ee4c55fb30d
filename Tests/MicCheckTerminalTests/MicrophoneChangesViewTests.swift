import MicCheckCall
import MicCheckTerminal
import MicCheckTesting
import Testing

@Suite struct MicrophoneChangesViewTests {
    static let usb = MicrophoneDevice(id: "alsa_input.usb", name: "USB Microphone")
    static let virtmic = MicrophoneDevice(id: "virtmic", name: "VirtualMic")

    static func session() -> CallSession {
        var s = LobbyViewTests.session(camera: LobbyViewTests.granted)
        s.setMicrophoneInUse(virtmic)
        return s
    }

    /// The screen's rows, trimmed and joined, so that wrapped sentences read whole.
    static func shown(
        _ s: CallSession, factory: any CallViewFactory = DefaultCallViewFactory(), width: Int = 100
    )
        -> String
    {
        render(s.view(factory: factory), width: width, height: 30).text
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    @Test(arguments: [100, 60])
    func theOfferAsksWithItsKeysAndWGoesToTheSwitch(width: Int) {
        var s = Self.session()
        #expect(!Self.shown(s, width: width).contains("A new microphone"))
        _ = s.microphoneAppeared(Self.usb, at: 1)
        let text = Self.shown(s, width: width)
        #expect(text.contains("A new microphone is available: USB Microphone. Switch (w)?"), "\(text)")
        #expect(text.contains("[w] Switch  [i] Ignore"))
        #expect(text.contains("w switch · i ignore"))
        #expect(s.handle(.character("w"), at: 2) == [.microphoneSwitchRequested(Self.usb)])
        #expect(!Self.shown(s, width: width).contains("A new microphone"))
        _ = s.microphoneSwitched(to: Self.usb, at: 2.2)
        #expect(Self.shown(s, width: width).contains("USB Microphone (alsa_input.usb)"))
    }

    @Test func iIgnoresTheOffer() {
        var s = Self.session()
        _ = s.microphoneAppeared(Self.usb, at: 1)
        #expect(s.handle(.character("i"), at: 2) == [.microphoneOfferIgnored(Self.usb)])
        let text = Self.shown(s)
        #expect(!text.contains("A new microphone") && !text.contains("w switch"))
        #expect(text.contains("VirtualMic (virtmic)"))
    }

    @Test func theDisconnectionIsSaid() {
        var s = Self.session()
        _ = s.microphoneFellBack(lost: Self.virtmic, to: Self.usb, at: 1)
        let text = Self.shown(s)
        #expect(text.contains("The microphone VirtualMic was disconnected: using USB Microphone."), "\(text)")
        #expect(text.contains("USB Microphone (alsa_input.usb)"))
        _ = s.advance(to: 12)
        #expect(!Self.shown(s).contains("was disconnected"))
    }

    /// An app's own offer, from the model the screen carries.
    struct PlainOffer: CallViewFactory {
        func microphoneChanges(_ screen: LobbyScreen) -> any TerminalView {
            Text(screen.lobby.microphoneChoice.offer.map { "new mic: \($0.device.id)" } ?? "")
        }
    }

    @Test func aCustomFactoryDrawsTheOfferItsOwnWay() {
        var s = Self.session()
        _ = s.microphoneAppeared(Self.usb, at: 1)
        let text = Self.shown(s, factory: PlainOffer())
        #expect(text.contains("new mic: alsa_input.usb") && !text.contains("A new microphone"))
        #expect(text.contains("Join Call"))
    }
}

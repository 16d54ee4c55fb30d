import Foundation
import MicCheck
import MicCheckCall
import MicCheckTerminal
import MicCheckTesting
import Testing

@Suite struct CanvasTests {
    @Test func writesAreClippedAndControlCharactersBlanked() {
        var c = Canvas(width: 10, height: 2, glyphs: .ascii)
        #expect(c.write("hello world", x: 2, y: 0) == 8)
        c.write("a\tb", x: 0, y: 1)
        c.write("off screen", x: 0, y: 5)
        c.write("left", x: -2, y: 1)
        #expect(c.text == "  hello wo\nftb", "\"left\" at -2 leaves \"ft\" over \"a \"")
    }

    @Test func wideCharactersTakeTwoCells() {
        var c = Canvas(width: 6, height: 1)
        #expect(c.write("李小龍", x: 0, y: 0) == 6)
        #expect(c[1, 0].isContinuation && !c[2, 0].isContinuation)
        #expect(c.line(0) == "李小龍")
        var d = Canvas(width: 5, height: 1)
        #expect(d.write("李小龍", x: 0, y: 0) == 4, "a wide character that does not fit is left out whole")
    }

    @Test func boxesWithTitles() {
        var c = Canvas(width: 12, height: 3, glyphs: .ascii)
        c.box(c.bounds, title: "Hi")
        #expect(c.text == "+- Hi -----+\n|          |\n+----------+")
        c.box(c.bounds, heavy: true)
        #expect(c.line(0).hasPrefix("#=") && c.line(1).hasPrefix("#"))
    }

    @Test func wrapping() {
        var c = Canvas(width: 12, height: 4)
        Text("the quick brown fox jumps", wraps: true).draw(in: c.bounds, on: &c)
        #expect(c.text == "the quick\nbrown fox\njumps")
    }
}

@Suite struct LobbyViewTests {
    static let granted: Permission = {
        var p = Permission()
        p.resolve(granted: true)
        return p
    }()
    static let denied: Permission = {
        var p = Permission()
        p.resolve(granted: false, reason: "no camera was found")
        return p
    }()

    static func session(camera: Permission = denied, at start: Double = 0) -> CallSession {
        CallSession(
            call: .demo, localUser: Participant(id: "me", name: "Jo Doe", isLocalUser: true),
            permissions: Permissions(microphone: granted, camera: camera), microphoneName: "test mic", at: start)
    }

    @Test(arguments: [(100, 30), (80, 24), (60, 40), (76, 26), (200, 60)])
    func theLobbyShowsEverythingItPromises(width: Int, height: Int) {
        var s = Self.session(camera: Self.granted)
        s.microphoneFrame(levelDB: -20, isSpeech: false, at: 0.1)
        let text = render(s.view(factory: DefaultCallViewFactory()), width: width, height: height).text
        for promised in [
            "Before Joining", "Setup your audio and video", "You are about to join a call.",
            "There are 3 more people in the call.", "Join Call", "Microphone: on", "Camera: on", "Speaker: on",
            "Ada Lovelace", "Alan Turing", "Grace Hopper", "Jo Doe (you)", "-20 dBFS", "q close",
        ] {
            #expect(text.contains(promised), "\(promised) at \(width)×\(height)")
        }
        #expect(!text.contains("access required"))
    }

    @Test(arguments: [(39, 30), (100, 13), (10, 3), (0, 0)])
    func aTinyTerminalAsksForRoom(width: Int, height: Int) {
        let canvas = render(Self.session().view(factory: DefaultCallViewFactory()), width: width, height: height)
        #expect(canvas.width == width && canvas.height == height)
        if width >= 20 && height >= 2 { #expect(canvas.text.contains("Make the terminal at least 40×14")) }
        #expect(!canvas.text.contains("Before Joining"))
    }

    @Test func thePromptOffersSettingsAndDismissAndShowsTheSteps() {
        var s = Self.session()
        #expect(s.advance(to: 0) == [.promptShown(.camera)])
        var text = render(s.view(factory: DefaultCallViewFactory()), width: 100, height: 30).text
        #expect(text.contains("Camera access required"))
        #expect(text.contains("[o] Open Settings") && text.contains("[d] Dismiss"))
        #expect(!text.contains("usermod"))
        #expect(s.handle(.character("o"), at: 1) == [.settingsStepsShown])
        text = render(s.view(factory: DefaultCallViewFactory()), width: 100, height: 40).text
        #expect(text.contains("sudo usermod -aG video $USER"))
        #expect(text.contains("Camera: no camera was found."))
        #expect(s.handle(.character("d"), at: 2) == [.promptDismissed(.camera)])
        text = render(s.view(factory: DefaultCallViewFactory()), width: 100, height: 30).text
        #expect(!text.contains("Camera access required"))
    }

    @Test func theSilentWarningAppearsAfterTheGracePeriodWithoutAudio() {
        let clock = ManualClock()
        let time = CallTimeline(clock: clock)
        var s = Self.session(at: time.now)
        clock.advance(by: .seconds(2.5))
        _ = s.advance(to: time.now)
        #expect(
            !render(s.view(factory: DefaultCallViewFactory()), width: 100, height: 40).text.contains("doesn't seem"))
        clock.advance(by: .seconds(1))
        _ = s.advance(to: time.now)
        // Narrow, so that the warning's column is the whole width and its wrapped lines join up.
        let text = render(s.view(factory: DefaultCallViewFactory()), width: 60, height: 40).text
        let joined = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(joined.contains(MicrophoneCheck.silentWarning))
    }
}

@Suite struct CallSessionTests {
    /// The whole flow as a person goes through it, on a manual clock.
    @Test func lobbyMuteJoinSpeakAndLeave() {
        let clock = ManualClock()
        let time = CallTimeline(clock: clock)
        var s = LobbyViewTests.session(at: time.now)
        #expect(s.advance(to: time.now) == [.promptShown(.camera)])
        clock.advance(by: .seconds(1))
        #expect(s.handle(.character("m"), at: time.now) == [.toggled(.microphone, on: false)])
        let lobbyText = render(s.view(factory: DefaultCallViewFactory()), width: 100, height: 30).text
        #expect(lobbyText.contains("Microphone: off") && lobbyText.contains("Microphone off: press m"))
        clock.advance(by: .seconds(1))
        #expect(
            s.handle(.enter, at: time.now) == [.joined(CallSettings(audioOn: false, videoOn: false, speakerOn: true))])
        guard case .inCall = s.phase else {
            Issue.record("not in the call")
            return
        }

        clock.advance(by: .seconds(1))
        let speech = AnalysisEvent.speechStarted(time: 3, audioStart: 2.8)
        #expect(s.microphoneEvent(speech, at: time.now) == [.mutedNoticeShown])
        var text = render(s.view(factory: DefaultCallViewFactory()), width: 100, height: 30).text
        #expect(text.contains("You are muted."))
        #expect(text.contains("In the call · 4 participants"))
        clock.advance(by: .seconds(1.9))
        #expect(s.advance(to: time.now).isEmpty)
        clock.advance(by: .seconds(0.2))
        #expect(s.advance(to: time.now) == [.mutedNoticeHidden])
        text = render(s.view(factory: DefaultCallViewFactory()), width: 100, height: 30).text
        #expect(!text.contains("You are muted."))

        // After the cooldown the next utterance shows it again; "n" silences it for the call.
        clock.advance(by: .seconds(6))
        #expect(s.microphoneEvent(.speechStarted(time: 12, audioStart: 11.8), at: time.now) == [.mutedNoticeShown])
        #expect(s.handle(.character("n"), at: time.now) == [.mutedNoticeSilenced, .mutedNoticeHidden])
        clock.advance(by: .seconds(10))
        #expect(s.microphoneEvent(.speechStarted(time: 22, audioStart: 21.8), at: time.now).isEmpty)

        #expect(s.handle(.character("q"), at: time.now) == [.left])
        #expect(s.isFinished)
        #expect(s.handle(.enter, at: time.now).isEmpty)
    }

    @Test(arguments: [TerminalKey.character("q"), .escape])
    func closingTheLobby(key: TerminalKey) {
        var s = LobbyViewTests.session()
        #expect(s.handle(key, at: 1).contains(.closed))
        guard case .finished(joined: false) = s.phase else {
            Issue.record("not closed")
            return
        }
    }

    @Test func speakingWhileUnmutedShowsNoNoticeButLightsTheOwnTile() {
        var s = LobbyViewTests.session()
        _ = s.handle(.enter, at: 1)
        #expect(s.microphoneEvent(.speechStarted(time: 2, audioStart: 1.8), at: 2).isEmpty)
        s.microphoneFrame(levelDB: -20, isSpeech: true, at: 2.01)
        guard case .inCall(let call) = s.phase else {
            Issue.record("not in the call")
            return
        }
        #expect(call.tiles[0].showsSpeakingBorder)
    }

    @Test func theCallScriptMovesTheSpeakingBorder() {
        var s = LobbyViewTests.session(camera: LobbyViewTests.granted)
        _ = s.handle(.enter, at: 0)
        _ = s.advance(to: 1.0)  // Ada speaks from 0.5 s to 3.2 s in the demo script
        var c = render(s.view(factory: DefaultCallViewFactory()), width: 100, height: 30)
        #expect(c.text.contains("┏━ Ada Lovelace"))
        #expect(!c.text.contains("┏━ Alan Turing"))
        #expect(c.text.contains("video paused"), "Alan's track is paused: his tile falls back")
        _ = s.advance(to: 4.0)  // now Alan
        c = render(s.view(factory: DefaultCallViewFactory()), width: 100, height: 30)
        #expect(c.text.contains("┏━ Alan Turing") && !c.text.contains("┏━ Ada Lovelace"))
        #expect(c.text.contains("( AT )") && c.text.contains("video"))
    }
}

@Suite struct ViewFactoryTests {
    /// Replaces the tile only.
    struct StarTiles: CallViewFactory {
        func participantTile(_ tile: ParticipantTile) -> any TerminalView {
            Text("*** \(tile.participant.name) ***")
        }
    }

    @Test func replacingOnePieceKeepsTheRest() {
        var s = LobbyViewTests.session()
        var text = render(s.view(factory: StarTiles()), width: 100, height: 30).text
        #expect(text.contains("*** Jo Doe ***"), "the lobby's self view uses the custom tile")
        #expect(text.contains("Before Joining") && text.contains("Join Call") && text.contains("Microphone: on"))
        _ = s.handle(.enter, at: 1)
        text = render(s.view(factory: StarTiles()), width: 100, height: 30).text
        for name in ["Jo Doe", "Ada Lovelace", "Alan Turing", "Grace Hopper"] {
            #expect(text.contains("*** \(name) ***"), "the call grid uses it too")
        }
        #expect(!text.contains("┌─ Ada Lovelace"))
    }

    struct QuietNotice: CallViewFactory {
        func mutedNotice(_ screen: CallScreen) -> any TerminalView { Text("(muted)") }
    }

    @Test func aCustomMutedNotice() {
        var s = LobbyViewTests.session()
        _ = s.handle(.character("m"), at: 0)
        _ = s.handle(.enter, at: 0)
        _ = s.microphoneEvent(.speechStarted(time: 1, audioStart: 1), at: 1)
        let text = render(s.view(factory: QuietNotice()), width: 100, height: 30).text
        #expect(text.contains("(muted)") && !text.contains("You are muted."))
        #expect(text.contains("Ada Lovelace"))
    }

    @Test func microphoneWarningsShowInTheCheckAndGo() {
        var s = LobbyViewTests.session(camera: LobbyViewTests.granted)
        s.microphoneFrame(levelDB: -50, isSpeech: false, at: 0.1)
        #expect(
            s.microphoneEvent(.speechTooQuiet(time: 1, levelDB: -52), at: 1) == [
                .microphoneWarningShown(.speechTooQuiet)
            ])
        func shown() -> String {
            render(s.view(factory: DefaultCallViewFactory()), width: 60, height: 40).text
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        }
        #expect(
            shown().contains(
                "Your voice is very quiet (-52.0 dBFS while you speak). Raise the input volume of test mic"))
        #expect(
            s.microphoneEvent(.speechLevelOK(time: 5, levelDB: -30), at: 5) == [
                .microphoneWarningCleared(.speechTooQuiet)
            ])
        #expect(!shown().contains("very quiet"))
    }
}

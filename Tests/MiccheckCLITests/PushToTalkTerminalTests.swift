#if os(Linux)
    import Foundation
    import MicCheckTesting
    import Testing

    /// Push-to-talk in the terminal call, as a person uses it (issue 47): muted with no "You are muted." while
    /// the demo sample talks, space opens the microphone for one utterance.
    @Suite("Push-to-talk in the terminal call", .serialized, .tags(.live))
    struct PushToTalkTerminalTests {
        @Test func noNoticeBetweenPressesAndSpaceTalksForOneUtterance() throws {
            let folder = tempDir()
            let pane = try TmuxPane(
                LobbyTerminalTests.lobbyCommand(folder), environment: ["XDG_STATE_HOME": tempDir().path])
            #expect(pane.wait(for: "Before Joining") != nil, "\(pane.screen())")
            try pane.press("Enter")
            #expect(pane.wait(for: "In the call · 4 participants", timeout: 3) != nil)
            try pane.press("p")
            #expect(pane.wait(for: "Push-to-talk: press space to talk", timeout: 3) != nil, "\(pane.screen())")
            // The sample speaks more than once in 14 s (it loops every 11.6 s): never the notice.
            #expect(pane.wait(for: "You are muted.", timeout: 14) == nil, "\(pane.screen())")
            DeviceChangesTests.capture(pane, as: "call-push-to-talk.txt")
            try pane.press("Space")
            #expect(pane.wait(for: "● Talking", timeout: 3) != nil, "\(pane.screen())")
            DeviceChangesTests.capture(pane, as: "call-push-to-talk-talking.txt")
            // One utterance (or 4 s without speech), then muted again.
            #expect(pane.wait(for: "press space to talk", timeout: 15) != nil, "\(pane.screen())")
            try pane.press("q")
            try LobbyTerminalTests.expectRestored(pane, folder)

            let events = LobbyTerminalTests.events(folder)
            let names = events.compactMap { $0["event"] as? String }
            #expect(!names.contains("muted_notice_shown"), "\(names)")
            #expect(names.contains("speech_started"), "the sample spoke while push-to-talk was on")
            let talk = names.filter { $0 == "push_to_talk" || $0.hasPrefix("talk_") }
            #expect(talk == ["push_to_talk", "talk_started", "talk_ended"], "\(talk)")
        }
    }
#endif

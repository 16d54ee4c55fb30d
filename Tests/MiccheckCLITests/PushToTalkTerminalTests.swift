#if os(Linux)
    import Foundation
    import MicCheckTesting
    import Testing

    /// Push-to-talk and the typing notice in the terminal call, as a person meets them (issue 47): muted with no
    /// "You are muted." while the demo sample talks, space opens the microphone for one utterance; unmuted, the
    /// sample's typing raises "Your typing can be heard." once.
    @Suite("Push-to-talk and typing in the terminal call", .serialized, .tags(.live))
    struct PushToTalkTerminalTests {
        /// `miccheck lobby --demo` in tmux, its event log in `folder`, joined to the demo call.
        static func inDemoCall(_ folder: URL) throws -> TmuxPane {
            let pane = try TmuxPane(
                LobbyTerminalTests.lobbyCommand(folder), environment: ["XDG_STATE_HOME": tempDir().path])
            #expect(pane.wait(for: "Before Joining") != nil, "\(pane.screen())")
            try pane.press("Enter")
            #expect(pane.wait(for: "In the call · 4 participants", timeout: 3) != nil)
            return pane
        }

        @Test func noNoticeBetweenPressesAndSpaceTalksForOneUtterance() throws {
            let folder = tempDir()
            let pane = try Self.inDemoCall(folder)
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

        @Test func typingWhileUnmutedRaisesTheNoticeOnce() throws {
            let folder = tempDir()
            let pane = try Self.inDemoCall(folder)
            // The demo sample types between its sentences (it loops every 11.6 s).
            #expect(pane.wait(for: "Your typing can be heard. Mute (m)", timeout: 14) != nil, "\(pane.screen())")
            DeviceChangesTests.capture(pane, as: "call-typing-notice.txt")
            #expect(pane.wait(for: "Your typing can be heard.", gone: true, timeout: 7) != nil)
            // Another loop of the sample, with its typing: no second notice within two minutes.
            #expect(pane.wait(for: "Your typing can be heard.", timeout: 13) == nil, "\(pane.screen())")
            try pane.press("q")
            try LobbyTerminalTests.expectRestored(pane, folder)
            let events = LobbyTerminalTests.events(folder)
            let names = events.compactMap { $0["event"] as? String }
            #expect(names.filter { $0 == "typing_notice_shown" }.count == 1, "\(names)")
            #expect(names.filter { $0 == "keyboard_noise" }.count >= 2, "the sample typed in both loops")
        }
    }
#endif

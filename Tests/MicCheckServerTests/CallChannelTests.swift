import Foundation
import MicCheck
import MicCheckCall
import MicCheckTesting
import Testing

@testable import MicCheckServer

@Suite("The /v1/call protocol")
struct CallChannelTests {
    /// Feeds audio in 20 ms messages on a clock that follows the audio; returns messages and actions.
    /// `afterEach`: called after each message with the channel, the message's time and what it said.
    @discardableResult
    private func feed(
        _ c: inout CallChannel, _ samples: [Float], from start: Double = 0,
        afterEach: (CallChannel, Double, [ServerMessage]) throws -> Void = { _, _, _ in }
    ) throws -> ([Received], [CallChannel.Action]) {
        var out: [ServerMessage] = []
        var actions: [CallChannel.Action] = []
        let bytes = pcm16(samples)
        var i = 0
        while i < bytes.count {
            let end = min(bytes.count, i + 640)
            let now = start + Double(i / 2) / 16_000
            var said: [ServerMessage] = []
            if let a = try bytes[i..<end].withUnsafeBytes({ b in try c.audio(b, now: now) { said.append($0) } }) {
                actions.append(a)
            }
            try afterEach(c, now, said)
            out += said
            i = end
        }
        return (try out.map { try Received($0.text) }, actions)
    }

    private func text(_ c: inout CallChannel, _ s: String, now: Double = 0) throws -> ([Received], [CallChannel.Action])
    {
        var out: [ServerMessage] = []
        let actions = try c.text(s, now: now) { out.append($0) }
        return (try out.map { try Received($0.text) }, actions)
    }

    @Test("the meter moves with the voice; a dead microphone shows the not-working sentence after the grace period")
    func microphoneCheck() throws {
        var c = try CallChannel(id: "me", now: 0)
        let (live, _) = try feed(&c, speechInRoom(onset: 0.2, speech: 2, seconds: 3))
        let reports = live.filter { $0.type == "microphone" }
        #expect(reports.count >= 25)
        #expect(reports.contains { ($0.double("display") ?? 0) > 0.3 })
        #expect(reports.allSatisfy { $0["not_working"] is NSNull })

        var dead = try CallChannel(id: "me", now: 0)
        let (out, _) = try feed(&dead, [Float](repeating: 0, count: 16_000 * 5))
        let last = try #require(out.last { $0.type == "microphone" })
        #expect(last.string("not_working") == MicrophoneCheck.silentWarning)
        let first = try #require(out.first { $0.type == "microphone" })
        #expect(first["not_working"] is NSNull, "never before the grace period")
    }

    @Test("no audio at all: the stall shows on the timer")
    func stall() throws {
        var c = try CallChannel(id: "me", now: 0)
        var out: [ServerMessage] = []
        _ = c.tick(now: 1) { out.append($0) }
        _ = c.tick(now: 4) { out.append($0) }
        let message = try #require(out.last)
        let last = try Received(message.text)
        #expect(last.string("not_working") == MicrophoneCheck.silentWarning)
        // The microphone turned off: the warning goes.
        let (off, _) = try text(&c, #"{"type": "devices", "audio": false}"#, now: 4.1)
        #expect(off.last { $0.type == "microphone" }?["not_working"] is NSNull)
    }

    @Test("joined and speaking: presence updates on speech start and end, never speaking with audio off")
    func speaking() throws {
        var c = try CallChannel(id: "me", now: 0)
        let (_, joined) = try text(&c, #"{"type": "join", "name": "  Ada Lovelace "}"#)
        #expect(joined == [.join(PresenceMember(id: "me", name: "Ada Lovelace", audio: true, video: true))])
        let (_, actions) = try feed(&c, speechInRoom(onset: 0.5, speech: 1.5, seconds: 3))
        let speaking: [Bool?] = actions.map { if case .update(let m) = $0 { m.speaking } else { nil } }
        // On and off in turn (the voice may pause long enough between words to end an utterance).
        #expect(!speaking.isEmpty && speaking.count % 2 == 0)
        #expect(speaking == (0..<speaking.count).map { $0 % 2 == 0 })

        let (_, mute) = try text(&c, #"{"type": "devices", "audio": false}"#)
        #expect(mute == [.update(PresenceMember(id: "me", name: "Ada Lovelace", audio: false, video: true))])
        let (out, mutedActions) = try feed(&c, speechInRoom(onset: 0.5, speech: 1.5, seconds: 3), from: 3)
        #expect(mutedActions.isEmpty, "speech while muted is not published")
        let notice = try #require(out.first { $0.type == "muted_notice" })
        #expect(
            notice.bool("show") == true && notice.string("text") == "You are muted."
                && notice.int("duration_ms") == 2_000)
    }

    @Test("speaking that starts or ends is in the page's microphone message at once, not with the next 100 ms")
    func speakingReportedAtOnce() throws {
        var c = try CallChannel(id: "me", now: 0)
        // Three utterances whose decisions fall at different places in the meter's 100 ms.
        let samples =
            speechInRoom(onset: 0.5, speech: 1.5, seconds: 3) + speechInRoom(onset: 0.37, speech: 1.2, seconds: 2.5)
            + speechInRoom(onset: 0.61, speech: 1.0, seconds: 2.5)
        var told: Bool?
        var changes = 0
        var late: [Double] = []
        var was = false
        try feed(&c, samples) { c, now, said in
            for m in said {
                let r = try Received(m.text)
                if r.type == "microphone" { told = r.bool("speaking") }
            }
            let speaking = c.rules.isSpeaking
            if speaking != was { changes += 1 }
            was = speaking
            if told != nil && told != speaking { late.append(now) }
        }
        #expect(changes >= 4, "the voice starts and ends speaking")
        #expect(late.isEmpty, "the page was told late, at \(late)")
    }

    @Test(
        "typing while unmuted: typing_notice with its text, action and duration, once in two minutes; speech hides it")
    func typingNotice() throws {
        var c = try CallChannel(id: "me", now: 0)
        var typing = Signals.pinkNoise(rmsDB: -60, seconds: 4, sampleRate: 16_000)
        Signals.addTyping(to: &typing, from: 0.5, seconds: 3.5)
        // In the lobby nothing shows a typing notice, and none is spent there.
        let (lobby, _) = try feed(&c, typing)
        #expect(!lobby.contains { $0.type == "typing_notice" })
        // A quiet room ends that stretch of typing; then the call.
        _ = try feed(&c, Signals.pinkNoise(rmsDB: -60, seconds: 5, sampleRate: 16_000), from: 4)
        _ = try text(&c, #"{"type": "join", "name": "Ada"}"#, now: 9)
        let (out, _) = try feed(&c, typing, from: 9)
        let notices = out.filter { $0.type == "typing_notice" }
        #expect(notices.count == 1)
        let notice = try #require(notices.first)
        #expect(notice.bool("show") == true && notice.string("text") == "Your typing can be heard.")
        #expect(notice.string("action") == "Mute" && notice.int("duration_ms") == 5_000)
        // Speech right after: the notice goes; more typing within two minutes shows nothing.
        let (spoken, _) = try feed(&c, speechInRoom(onset: 0, speech: 1.5, seconds: 2.5), from: 13)
        #expect(spoken.filter { $0.type == "typing_notice" }.map { $0.bool("show") } == [false])
        let (again, _) = try feed(&c, typing, from: 15.5)
        #expect(!again.contains { $0.type == "typing_notice" })
    }

    @Test("typing while muted never shows the typing notice; muting hides one on screen")
    func typingNoticeMuted() throws {
        var typing = Signals.pinkNoise(rmsDB: -60, seconds: 4, sampleRate: 16_000)
        Signals.addTyping(to: &typing, from: 0.5, seconds: 3.5)
        var muted = try CallChannel(id: "me", now: 0)
        _ = try text(&muted, #"{"type": "join", "name": "Ada"}"#)
        _ = try text(&muted, #"{"type": "devices", "audio": false}"#)
        let (out, _) = try feed(&muted, typing)
        #expect(!out.contains { $0.type == "typing_notice" })

        var c = try CallChannel(id: "me", now: 0)
        _ = try text(&c, #"{"type": "join", "name": "Ada"}"#)
        let (shown, _) = try feed(&c, typing)
        #expect(shown.filter { $0.type == "typing_notice" }.map { $0.bool("show") } == [true])
        let (mute, _) = try text(&c, #"{"type": "devices", "audio": false}"#, now: 4)
        #expect(mute.filter { $0.type == "typing_notice" }.map { $0.bool("show") } == [false])
    }

    @Test("audio that stops mid-utterance ends speaking after a second, on the timer; it comes back with the audio")
    func stalledSpeech() throws {
        var c = try CallChannel(id: "me", now: 0)
        _ = try text(&c, #"{"type": "join", "name": "Ada"}"#)
        // The page freezes as soon as its participant is heard speaking: nothing more arrives.
        let bytes = pcm16(speechInRoom(onset: 0.5, speech: 3, seconds: 3))
        var started = false
        for block in stride(from: 0, to: bytes.count, by: 640) where !started {
            let now = Double(block / 2) / 16_000
            let action = try bytes[block..<min(bytes.count, block + 640)].withUnsafeBytes { b in
                try c.audio(b, now: now) { _ in }
            }
            started = action == .update(PresenceMember(id: "me", name: "Ada", audio: true, video: true, speaking: true))
        }
        #expect(started)
        let last = try #require(c.check.lastAudioAt)
        var out: [ServerMessage] = []
        for now in stride(from: last + 0.25, to: last + CallChannel.speechStallTimeout - 0.01, by: 0.25) {
            #expect(c.tick(now: now) { out.append($0) } == nil, "still speaking \(now - last) s after the audio")
        }
        let ended = c.tick(now: last + CallChannel.speechStallTimeout) { out.append($0) }
        #expect(ended == .update(PresenceMember(id: "me", name: "Ada", audio: true, video: true, speaking: false)))
        #expect(try out.last.map { try Received($0.text).bool("speaking") } == false)
        #expect(c.tick(now: last + 1.5) { _ in } == nil, "said once")
        #expect(c.tick(now: last + 5) { _ in } == nil)

        // The audio comes back, the voice still going: speaking again, and it ends as the voice does.
        let (_, resumed) = try feed(&c, speechInRoom(onset: 0, speech: 1, seconds: 2.5), from: last + 5)
        let speaking: [Bool?] = resumed.map { if case .update(let m) = $0 { m.speaking } else { nil } }
        #expect(speaking.first == true && speaking.last == false)
    }

    @Test("the timer changes nobody's speaking while they are not speaking")
    func stallWhileQuiet() throws {
        var c = try CallChannel(id: "me", now: 0)
        _ = try text(&c, #"{"type": "join", "name": "Ada"}"#)
        let (_, actions) = try feed(&c, speechInRoom(onset: 0.5, speech: 1, seconds: 3.5))
        #expect(actions.last == .update(PresenceMember(id: "me", name: "Ada", audio: true, video: true)))
        for now in stride(from: 3.5, through: 8, by: 0.25) { #expect(c.tick(now: now) { _ in } == nil) }
    }

    @Test("don't show again for this call: no more notices")
    func silenced() throws {
        var c = try CallChannel(id: "me", now: 0)
        _ = try text(&c, #"{"type": "join", "name": "Ada"}"#)
        _ = try text(&c, #"{"type": "devices", "audio": false}"#)
        let (hidden, _) = try text(&c, #"{"type": "muted_notice_off"}"#)
        #expect(hidden.first?.bool("show") == false)
        let (out, _) = try feed(&c, speechInRoom(onset: 0.5, speech: 1.5, seconds: 3))
        #expect(!out.contains { $0.type == "muted_notice" })
    }

    @Test("a call without send-audio never says \"You are muted.\"")
    func noSendAudio() throws {
        var c = try CallChannel(id: "me", capabilities: [.sendVideo], now: 0)
        _ = try text(&c, #"{"type": "devices", "audio": false}"#)
        let (out, _) = try feed(&c, speechInRoom(onset: 0.5, speech: 1.5, seconds: 3))
        #expect(!out.contains { $0.type == "muted_notice" })
    }

    @Test("signals are checked, rebuilt and addressed")
    func signal() throws {
        var c = try CallChannel(id: "me", now: 0)
        #expect(throws: ProtocolError.self) {
            try text(&c, #"{"type": "signal", "to": "b", "data": {"candidate": {"candidate": "x"}}}"#)
        }
        _ = try text(&c, #"{"type": "join", "name": "Ada"}"#)
        let (_, actions) = try text(
            &c, #"{"type": "signal", "to": "b", "data": {"description": {"type": "offer", "sdp": "v=0"}}}"#)
        #expect(
            actions == [
                .signal(
                    to: "b",
                    payload: .object([("description", .object([("type", .string("offer")), ("sdp", .string("v=0"))]))]))
            ])
        let (_, ice) = try text(
            &c,
            #"{"type": "signal", "to": "b", "data": {"candidate": {"candidate": "c", "sdpMid": "0", "sdpMLineIndex": 0}}}"#
        )
        #expect(ice.count == 1)
    }

    @Test(
        "broken or out-of-order messages are refused with a reason",
        arguments: [
            (#"{"type": "leave"}"#, "leave before join"),
            (#"{"type": "join"}"#, "join needs a \"name\""),
            (#"{"type": "join", "name": "   "}"#, "join needs a name that is not empty"),
            (#"{"type": "devices", "audio": "on"}"#, "\"audio\" must be true or false"),
            (#"{"type": "devices", "mic": true}"#, "devices has no field \"mic\""),
            (#"{"type": "signal", "to": "b", "data": {}}"#, "signal before join"),
            (#"{"type": "hello"}"#, "unknown message type \"hello\""),
        ])
    func refused(message: String, reason: String) throws {
        var c = try CallChannel(id: "me", now: 0)
        let error = try #require(throws: ProtocolError.self) { try text(&c, message) }
        #expect(error.reason == reason)
    }

    @Test(
        "bad signal data",
        arguments: [
            #"{"description": {"type": "bogus", "sdp": ""}}"#,
            #"{"candidate": {"sdpMid": "0"}}"#,
            #"{"candidate": {"candidate": "c", "sdpMLineIndex": -1}}"#,
            #"{"other": 1}"#,
            #"{}"#,
        ])
    func badSignal(data: String) throws {
        var c = try CallChannel(id: "me", now: 0)
        _ = try text(&c, #"{"type": "join", "name": "Ada"}"#)
        #expect(throws: ProtocolError.self) { try text(&c, #"{"type": "signal", "to": "b", "data": \#(data)}"#) }
    }

    @Test("a joined member joins once")
    func joinTwice() throws {
        var c = try CallChannel(id: "me", now: 0)
        _ = try text(&c, #"{"type": "join", "name": "Ada"}"#)
        #expect(throws: ProtocolError.self) { try text(&c, #"{"type": "join", "name": "Ada"}"#) }
    }

    @Test(
        "microphone_test: recording, then the verdict on the next 5 s of audio; a cancel and bad requests answered; nothing kept"
    )
    func microphoneTest() throws {
        var c = try CallChannel(id: "me", now: 0)
        let (started, _) = try text(&c, #"{"type": "microphone_test", "action": "start"}"#)
        #expect(started.map(\.type) == ["microphone_test"] && started.first?.string("state") == "recording")
        #expect(started.first?.double("seconds") == 5)
        let (out, _) = try feed(&c, speechInRoom(onset: 0.5, speech: 3.5, seconds: 6))
        let done = out.filter { $0.type == "microphone_test" }
        #expect(done.count == 1, "one verdict, after 5 s of audio")
        let verdict = try #require(done.first)
        #expect(verdict.string("state") == "done" && verdict.string("verdict") == "clear", "\(verdict.fields)")
        #expect(verdict.string("sentence")?.hasPrefix("Your voice came through clearly") == true)
        #expect(verdict.double("recorded_seconds") == 5)
        #expect((verdict.double("speech_level_db") ?? 0) > -30)

        // Cancelled: no verdict follows.
        _ = try text(&c, #"{"type": "microphone_test", "action": "start", "seconds": 2}"#, now: 6)
        let (cancelled, _) = try text(&c, #"{"type": "microphone_test", "action": "cancel"}"#, now: 6.5)
        #expect(cancelled.first?.string("state") == "cancelled")
        let (after, _) = try feed(&c, speechInRoom(onset: 0, speech: 2, seconds: 3), from: 7)
        #expect(!after.contains { $0.type == "microphone_test" })

        for bad in [
            #"{"type": "microphone_test", "action": "start", "seconds": 60}"#,
            #"{"type": "microphone_test", "action": "record"}"#,
            #"{"type": "microphone_test", "action": "start", "file": "/etc/passwd"}"#,
        ] {
            #expect(throws: ProtocolError.self, "\(bad)") { try text(&c, bad) }
        }
    }

    @Test("microphone_test whose audio stops (the page stopped capturing): judged on what came, 3 s after its end")
    func microphoneTestStall() throws {
        var c = try CallChannel(id: "me", now: 0)
        _ = try text(&c, #"{"type": "microphone_test", "action": "start"}"#)
        let (out, _) = try feed(&c, speechInRoom(onset: 0.2, speech: 1.5, seconds: 2))
        #expect(!out.contains { $0.type == "microphone_test" })
        var ticks: [ServerMessage] = []
        _ = c.tick(now: 7.9) { ticks.append($0) }
        #expect(try !ticks.map { try Received($0.text) }.contains { $0.type == "microphone_test" })
        _ = c.tick(now: 8.1) { ticks.append($0) }
        let verdict = try #require(try ticks.map { try Received($0.text) }.first { $0.type == "microphone_test" })
        #expect(verdict.string("state") == "done" && verdict.double("recorded_seconds") == 2, "\(verdict.fields)")
    }

    @Test(
        "mute: a host's mute becomes a signal to the participant; a non-host, a self-mute and a mute before join are refused"
    )
    func hostMuteRequest() throws {
        var host = try CallChannel(id: "h", capabilities: [.sendAudio, .sendVideo, .muteUsers], now: 0)
        #expect(throws: ProtocolError.self) { try text(&host, #"{"type": "mute", "id": "p"}"#) }
        _ = try text(&host, #"{"type": "join", "name": "Grace Hopper"}"#)
        let (none, muted) = try text(&host, #"{"type": "mute", "id": "p"}"#)
        #expect(none.isEmpty && muted == [.signal(to: "p", payload: Signal.mute(by: "Grace Hopper"))])
        #expect(Signal.mutedBy(Signal.mute(by: "Grace Hopper")) == "Grace Hopper")
        let (selfMute, nothing) = try text(&host, #"{"type": "mute", "id": "h"}"#)
        #expect(nothing.isEmpty && selfMute.first?.string("message")?.contains("to mute yourself") == true)

        var speaker = try CallChannel(id: "s", now: 0)
        _ = try text(&speaker, #"{"type": "join", "name": "Ada"}"#)
        let (refused, actions) = try text(&speaker, #"{"type": "mute", "id": "h"}"#)
        #expect(actions.isEmpty)
        #expect(refused.first?.type == "error" && refused.first?.string("message")?.contains("only a host") == true)
        #expect(throws: ProtocolError.self) { try text(&speaker, #"{"type": "mute", "id": "h", "all": true}"#) }
        // A page cannot forge a mute as a signal: only presence carries one.
        #expect(throws: ProtocolError.self) {
            try text(&speaker, #"{"type": "signal", "to": "h", "data": {"mute": {"by": "Ada"}}}"#)
        }
        // From another node (no sender): a mute is read, checked, and nothing else rides with it.
        let relayed = ClientMessage(fields: ["mute": .object(["by": .string(" Ada ")])], type: "signal")
        #expect(try Signal.check(relayed) == Signal.mute(by: "Ada"))
        for bad: [String: JSONInput] in [
            ["mute": .object(["by": .string("Ada"), "x": .number(1)])], ["mute": .object([:])],
            ["mute": .object(["by": .string("Ada")]), "candidate": .object([:])],
        ] {
            #expect(throws: ProtocolError.self) { try Signal.check(ClientMessage(fields: bad, type: "signal")) }
        }
        // What a store passes on is checked again as from another node: a mute, and the signal rebuilt.
        #expect(Signal.recheck(Signal.mute(by: "Ada")) == Signal.mute(by: "Ada"))
        #expect(Signal.recheck(.string("x")) == nil)
        #expect(Signal.recheck(.object([("mute", .object([("by", .string("Ada")), ("x", .int(1))]))])) == nil)
        let candidate = JSONValue.object([
            ("candidate", .object([("sdpMLineIndex", .int(1)), ("sdpMid", .string("0")), ("candidate", .string("c"))]))
        ])
        #expect(
            Signal.recheck(candidate)?.encoded
                == #"{"candidate": {"candidate": "c", "sdpMid": "0", "sdpMLineIndex": 1}}"#)
    }

    @Test(
        "muted by a host: muted_by_host with who, the microphone off in presence, and the notice after don't-show-again"
    )
    func mutedByHost() throws {
        var c = try CallChannel(id: "me", now: 0)
        _ = try text(&c, #"{"type": "join", "name": "Ada"}"#)
        _ = try text(&c, #"{"type": "muted_notice_off"}"#)
        var out: [ServerMessage] = []
        let action = c.mutedByHost(name: "Grace Hopper", from: "h", now: 1) { out.append($0) }
        #expect(action == .update(PresenceMember(id: "me", name: "Ada", audio: false, video: true)))
        let told = try out.map { try Received($0.text) }
        let muted = try #require(told.first { $0.type == "muted_by_host" })
        #expect(muted.string("text") == "Grace Hopper muted you.")
        #expect(muted.object("by")?.string("name") == "Grace Hopper" && muted.object("by")?.string("id") == "h")
        #expect(told.contains { $0.type == "microphone" && $0.bool("on") == false })
        let (speech, _) = try feed(&c, speechInRoom(onset: 0.3, speech: 1.5, seconds: 2.5), from: 2)
        #expect(speech.contains { $0.type == "muted_notice" && $0.bool("show") == true }, "the host's mute applies")
    }

    @Test(
        "devices with the cause push-to-talk: speech while the key is up brings no muted notice; a bad cause is refused"
    )
    func pushToTalkCause() throws {
        var c = try CallChannel(id: "me", now: 0)
        _ = try text(&c, #"{"type": "devices", "audio": false, "cause": "push-to-talk"}"#)
        let (speech, _) = try feed(&c, speechInRoom(onset: 0.3, speech: 1.5, seconds: 2.5))
        #expect(!speech.contains { $0.type == "muted_notice" && $0.bool("show") == true })
        _ = try text(&c, #"{"type": "devices", "audio": false, "cause": "self"}"#, now: 3)
        let (again, _) = try feed(&c, speechInRoom(onset: 0.3, speech: 1.5, seconds: 2.5), from: 3)
        #expect(again.contains { $0.type == "muted_notice" && $0.bool("show") == true }, "muted by the user: notice")
        #expect(throws: ProtocolError.self) { try text(&c, #"{"type": "devices", "audio": false, "cause": "host"}"#) }
    }

    @Test(
        "analysed on the device: the page states speaking, sends no audio and runs its own test; the server sends no meter"
    )
    func deviceAnalysis() throws {
        var c = try CallChannel(id: "me", analysis: .device, now: 0)
        #expect(c.welcome(call: "standup").text.contains(#""analysis": "device""#))
        let (_, joined) = try text(&c, #"{"type": "join", "name": "Ada"}"#)
        #expect(joined == [.join(PresenceMember(id: "me", name: "Ada", audio: true, video: true))])
        let (_, spoke) = try text(&c, #"{"type": "speaking", "speaking": true}"#)
        #expect(spoke == [.update(PresenceMember(id: "me", name: "Ada", audio: true, video: true, speaking: true))])
        // A page that speaks says so every half second; one that stops saying it (a closed lid) stops speaking.
        #expect(c.tick(now: 0.6) { _ in } == nil)
        #expect(c.tick(now: 1.1) { _ in } == .update(PresenceMember(id: "me", name: "Ada", audio: true, video: true)))
        _ = try text(&c, #"{"type": "speaking", "speaking": true}"#, now: 1.2)
        // Muted, the stated speaking is not published; unmuted again, it is.
        let (mutedOut, muted) = try text(&c, #"{"type": "devices", "audio": false}"#)
        #expect(muted == [.update(PresenceMember(id: "me", name: "Ada", audio: false, video: true))])
        #expect(!mutedOut.contains { $0.type == "microphone" || $0.type == "muted_notice" })
        #expect(throws: ProtocolError.self) { try feed(&c, speechInRoom(onset: 0.2, speech: 0.5, seconds: 1)) }
        #expect(throws: ProtocolError.self) { try text(&c, #"{"type": "microphone_test", "action": "start"}"#) }
        #expect(throws: ProtocolError.self) { try text(&c, #"{"type": "speaking"}"#) }
        var ticked: [ServerMessage] = []
        #expect(c.tick(now: 10) { ticked.append($0) } == nil && ticked.isEmpty)
        // A page whose microphone the server analyses may not state its speaking.
        var server = try CallChannel(id: "you", now: 0)
        #expect(throws: ProtocolError.self) { try text(&server, #"{"type": "speaking", "speaking": true}"#) }
    }
}

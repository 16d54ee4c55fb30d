import Foundation
import MicCheck
import MicCheckTesting
import Testing

@testable import MicCheckServer

@Suite("The /v1/vad protocol")
struct VADSessionTests {
    @Test("session.created carries the effective settings and the limits")
    func created() throws {
        var settings = VADSession.Settings()
        settings.prefixPaddingMs = 200
        let session = try VADSession(settings: settings, limits: [("idle_timeout_ms", .int(10_000))])
        let m = try Received(session.created().text)
        #expect(m.type == "session.created")
        let s = try #require(m.object("session"))
        #expect(s.int("sample_rate") == 16_000)
        #expect(s.string("encoding") == "pcm_s16le")
        #expect(s.int("prefix_padding_ms") == 200)
        #expect(s.int("silence_duration_ms") == 300)
        #expect(s.double("threshold") == 0.8)
        #expect(s.bool("muted") == false)
        #expect(s.int("level_interval_ms") == 100)
        #expect(s.int("idle_timeout_ms") == 10_000)
    }

    @Test("speech in: speech_started and speech_stopped in audio time, audio_start_ms with the prefix padding")
    func speechEvents() throws {
        var session = try VADSession()
        let out = try run(&session, speechInRoom(onset: 1, speech: 1.5, seconds: 4))
        let started = out.filter { $0.type == "speech_started" }
        let stopped = out.filter { $0.type == "speech_stopped" }
        // The voice may pause between its words long enough to end an utterance; starts and stops pair up.
        #expect(!started.isEmpty && started.count == stopped.count)
        let first = try #require(started.first)
        let last = try #require(stopped.last)
        let at = try #require(first.int("audio_ms"))
        #expect((1_000...1_350).contains(at), "decided \(at) ms after the start; the voice begins at 1000")
        for s in started { #expect(s.int("audio_ms").map { $0 - 300 } == s.int("audio_start_ms")) }
        let end = try #require(last.int("audio_end_ms"))
        #expect((2_400...3_000).contains(end), "speech stopped at \(end) ms; the voice ends at 2500")
        // Events come in time order, and a level (stamped at the end of its 100 ms) never after a later event.
        let events = out.filter { $0.type != "level" }.compactMap { $0.int("audio_ms") }
        #expect(events == events.sorted())
        let times = out.compactMap { m in m.int("audio_ms").map { m.type == "level" ? $0 - 10 : $0 } }
        #expect(times == times.sorted())
    }

    @Test(
        "microphone_test on /v1/vad: a dead stream is judged dead; one cut short by close_stream is judged on what came"
    )
    func microphoneTest() throws {
        var session = try VADSession()
        var out: [ServerMessage] = []
        _ = try session.text(#"{"type": "microphone_test", "action": "start", "seconds": 3}"#) { out.append($0) }
        var received = try out.map { try Received($0.text) }
        received += try run(&session, [Float](repeating: 0, count: 16_000 * 4))
        let verdict = try #require(received.first { $0.type == "microphone_test" && $0.string("state") == "done" })
        #expect(verdict.string("verdict") == "dead" && verdict.string("reason") == "digital_silence")

        var short = try VADSession()
        _ = try short.text(#"{"type": "microphone_test", "action": "start"}"#) { _ in }
        _ = try run(&short, speechInRoom(onset: 0.2, speech: 1.5, seconds: 2))
        var closing: [ServerMessage] = []
        _ = try short.text(#"{"type": "close_stream"}"#) { closing.append($0) }
        let cut = try #require(try closing.map { try Received($0.text) }.first { $0.type == "microphone_test" })
        #expect(cut.double("recorded_seconds") == 2 && cut.string("verdict") == "clear", "\(cut.fields)")
    }

    @Test("a level every 100 ms of audio: the loudest of the ten frames, whatever the message size")
    func levels() throws {
        for block in [160, 320, 1_600] {
            var session = try VADSession()
            let tone = Signals.sine(frequency: 440, rmsDB: -20, seconds: 2, sampleRate: 16_000)
            var out = try run(&session, tone, block: block)
            // The model's look-ahead holds the last frames until more audio comes, or the stream ends.
            var last: [ServerMessage] = []
            session.finish { last.append($0) }
            out += try last.map { try Received($0.text) }
            let levels = out.filter { $0.type == "level" }
            #expect(levels.count == 20)
            #expect(levels.map { $0.int("audio_ms") ?? 0 } == (1...20).map { $0 * 100 })
            let db = try #require(levels.last?.double("level_db"))
            #expect(abs(db - -20) < 0.5)
        }
    }

    @Test("muted: muted_speech_started with the notice once, then the cooldown; unmuted speech is plain again")
    func muted() throws {
        var settings = VADSession.Settings()
        settings.muted = true
        var session = try VADSession(settings: settings)
        // Two utterances 2 s apart: the second falls in the notice's 2 s + 5 s.
        var x = speechInRoom(onset: 0.5, speech: 1, seconds: 3)
        x += speechInRoom(onset: 0.5, speech: 1, seconds: 3)
        let out = try run(&session, x)
        let starts = out.filter { $0.type == "muted_speech_started" }
        #expect(starts.count == 2)
        #expect(starts.map { $0.bool("notice") } == [true, false])
        #expect(out.filter { $0.type == "muted_speech_stopped" }.count == 2)
        #expect(!out.contains { $0.type == "speech_started" })

        var updates: [ServerMessage] = []
        _ = try session.text(#"{"type": "session.update", "session": {"muted": false}}"#) { updates.append($0) }
        let update = try #require(updates.last)
        #expect(try Received(update.text).object("session")?.bool("muted") == false)
        let after = try run(&session, speechInRoom(onset: 0.5, speech: 1, seconds: 3))
        #expect(after.filter { $0.type == "speech_started" }.count == 1)
    }

    @Test("typing while not speaking: keyboard_noise with the JSON Lines fields, in audio time")
    func keyboardNoise() throws {
        var session = try VADSession()
        var x = Signals.pinkNoise(rmsDB: -60, seconds: 4, sampleRate: 16_000)
        let onsets = Signals.addTyping(to: &x, from: 0.5, seconds: 3.5)
        let out = try run(&session, x)
        let typing = out.filter { $0.type == "keyboard_noise" }
        #expect(typing.count == 1)
        let m = try #require(typing.first)
        let at = try #require(m.int("audio_ms"))
        #expect((1_500...2_500).contains(at), "decided at \(at) ms; typing from 500")
        #expect((m.int("keystrokes") ?? 0) >= 7)
        #expect(m.double("level_db").map { $0 > -30 && $0 < -14 } == true)
        #expect(m.double("since").map { abs($0 - onsets[0]) < 0.01 } == true)
        #expect(m.double("per_second") != nil)
        #expect(!out.contains { $0.type == "speech_started" })
    }

    @Test("session.update changes the padding from the next utterance on")
    func updatePadding() throws {
        var session = try VADSession()
        _ = try run(&session, speechInRoom(onset: 0.5, speech: 1, seconds: 2.5))
        var updated: [ServerMessage] = []
        let request = try session.text(
            #"{"type": "session.update", "session": {"prefix_padding_ms": 100, "silence_duration_ms": 500}}"#
        ) {
            updated.append($0)
        }
        #expect(request == .none)
        let last = try #require(updated.last)
        let s = try #require(try Received(last.text).object("session"))
        #expect(s.int("prefix_padding_ms") == 100 && s.int("silence_duration_ms") == 500)
        let out = try run(&session, speechInRoom(onset: 0.5, speech: 1, seconds: 2.5))
        let started = try #require(out.first { $0.type == "speech_started" })
        #expect(try #require(started.int("audio_ms")) - #require(started.int("audio_start_ms")) == 100)
        #expect(try #require(started.int("audio_ms")) > 2_500, "audio time counts on from the first utterance")
    }

    @Test("a new sample rate mid-stream: audio time keeps counting")
    func rateChange() throws {
        var session = try VADSession()
        _ = try run(&session, Signals.pinkNoise(rmsDB: -60, seconds: 1, sampleRate: 16_000))
        _ = try session.text(#"{"type": "session.update", "session": {"sample_rate": 48000}}"#) { _ in }
        let out = try run(&session, speechInRoom(onset: 0.5, speech: 1, seconds: 2, sampleRate: 48_000), block: 960)
        let started = try #require(out.first { $0.type == "speech_started" })
        #expect((1_500...1_850).contains(try #require(started.int("audio_ms"))))
        #expect(session.audioMs == 3_000)
    }

    @Test("close_stream: the open utterance ends, session.closed, and nothing after it")
    func closeStream() throws {
        var session = try VADSession()
        _ = try run(&session, speechInRoom(onset: 0.2, speech: 2, seconds: 1.5))
        var out: [ServerMessage] = []
        #expect(try session.text(#"{"type": "close_stream"}"#) { out.append($0) } == .close)
        let types = try out.map { try Received($0.text).type }
        #expect(types.suffix(2) == ["speech_stopped", "session.closed"])
        #expect(throws: ProtocolError.self) { try session.text(#"{"type": "keep_alive"}"#) { _ in } }
    }

    @Test(
        "broken messages are refused with a reason",
        arguments: [
            (#"not json"#, "a text message must be a JSON object"),
            (#"[1, 2]"#, "a text message must be a JSON object"),
            (#"{"kind": "keep_alive"}"#, "a message needs a \"type\" string"),
            (#"{"type": "dance"}"#, "unknown message type \"dance\""),
            (#"{"type": "session.update"}"#, "session.update needs a \"session\" object"),
            (#"{"type": "session.update", "session": {"treshold": 0.5}}"#, "the session has no field \"treshold\""),
            (#"{"type": "session.update", "session": {"threshold": 1.5}}"#, "threshold must be above 0 and at most 1"),
            (#"{"type": "session.update", "session": {"threshold": "high"}}"#, "\"threshold\" must be a number"),
            (#"{"type": "session.update", "session": {"muted": 1}}"#, "\"muted\" must be true or false"),
            (
                #"{"type": "session.update", "session": {"sample_rate": 7999}}"#,
                "sample_rate must be a whole number from 8000 to 96000"
            ),
            (
                #"{"type": "session.update", "session": {"sample_rate": 16000.5}}"#,
                "sample_rate must be a whole number from 8000 to 96000"
            ),
            (
                #"{"type": "session.update", "session": {"min_speech_ms": 2.5}}"#,
                "min_speech_ms must be a whole number from 10 to 5000"
            ),
        ])
    func refused(text: String, reason: String) throws {
        var session = try VADSession()
        let error = try #require(throws: ProtocolError.self) { try session.text(text) { _ in } }
        #expect(error.reason == reason)
        #expect(error.code == .policyViolation)
    }

    @Test("an odd number of bytes is not 16-bit PCM")
    func oddBytes() throws {
        var session = try VADSession()
        let bytes: [UInt8] = [1, 2, 3]
        let error = try #require(throws: ProtocolError.self) {
            try bytes.withUnsafeBytes { b in try session.audio(b) { _ in } }
        }
        #expect(error.reason.contains("even number of bytes"))
    }

    @Test("settings from the query string")
    func query() throws {
        let s = try VADSession.Settings(query: [("sample_rate", "8000"), ("muted", "true"), ("threshold", "0.5")])
        #expect(s.sampleRate == 8_000 && s.muted && s.threshold == 0.5)
        #expect(throws: ProtocolError.self) { try VADSession.Settings(query: [("muted", "yes")]) }
        #expect(throws: ProtocolError.self) { try VADSession.Settings(query: [("rate", "8000")]) }
    }

    @Test("a close reason fits a close frame")
    func reasonFits() {
        let long = ProtocolError(String(repeating: "é", count: 200))
        #expect(long.reason.utf8.count <= 123)
    }
}

import Foundation
import MicCheck
import MicCheckTesting
import Testing

@testable import MicCheckServer

/// What a browser, or anyone who reaches the server, may send: valid messages of both protocols mutated at
/// random (bytes flipped, cut, repeated, JSON tokens inserted), nested deeper than any parser should
/// follow, and audio of every length, in the order they come. Each is taken or refused with a
/// `ProtocolError`; nothing crashes, and everything the server sends back is a JSON object.
@Suite("Protocol messages, mutated")
struct ProtocolMutationTests {
    static let callMessages = [
        #"{"type": "devices", "audio": true, "video": false}"#,
        #"{"type": "join", "name": "Ada Lovelace"}"#,
        #"{"type": "signal", "to": "b", "data": {"description": {"type": "offer", "sdp": "v=0\r\n"}}}"#,
        #"{"type": "signal", "to": "b", "data": {"candidate": {"candidate": "c", "sdpMid": "0", "sdpMLineIndex": 0}}}"#,
        #"{"type": "muted_notice_off"}"#,
        #"{"type": "resync"}"#,
        #"{"type": "leave"}"#,
    ]
    static let vadMessages = [
        #"{"type": "keep_alive"}"#,
        #"{"type": "session.update", "session": {"threshold": 0.6, "muted": true, "sample_rate": 48000, "min_speech_ms": 100}}"#,
        #"{"type": "session.update", "session": {"prefix_padding_ms": 300, "silence_duration_ms": 500}}"#,
        #"{"type": "close_stream"}"#,
    ]
    static let tokens = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "null", "true", "1e308", "-1e400", "NaN", "0.5", "\"type\"",
        "\"\u{0}\"", "\u{FFFF}", "9223372036854775808", "\"data\":{}", "\"session\":[]",
    ]

    /// A valid message changed in a few random ways.
    static func mutate(_ message: String, _ g: inout SeededGenerator) -> String {
        var bytes = Array(message.utf8)
        for _ in 0..<Int.random(in: 1...4, using: &g) {
            let i = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &g)
            switch Int.random(in: 0..<5, using: &g) {
            case 0 where !bytes.isEmpty: bytes[i] = UInt8.random(in: 0...255, using: &g)
            case 1: bytes.insert(contentsOf: Array(tokens[Int.random(in: 0..<tokens.count, using: &g)].utf8), at: i)
            case 2: bytes = Array(bytes.prefix(i))
            case 3 where !bytes.isEmpty: bytes.insert(contentsOf: bytes[i...].prefix(40), at: i)
            default: if !bytes.isEmpty { bytes.remove(at: i) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Deeply nested values where an object or a string is expected, up to the server's message size.
    static let nested: [String] = [
        String(repeating: "[", count: 30_000),
        #"{"type": "join", "name": "# + String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)
            + "}",
        #"{"type": "signal", "to": "b", "data": "# + String(repeating: #"{"a":"#, count: 10_000) + "1"
            + String(repeating: "}", count: 10_000) + "}",
        #"{"type": "session.update", "session": "# + String(repeating: "[", count: 20_000) + "}",
    ]

    static func expectJSON(_ m: ServerMessage) {
        let object = try? JSONSerialization.jsonObject(with: Data(m.text.utf8)) as? [String: Any]
        #expect(object != nil, "not a JSON object: \(m.text.prefix(200))")
    }

    @Test("/v1/call: 5,000 mutated messages with audio between them")
    func call() throws {
        var g = SeededGenerator(seed: 35)
        var refused = 0
        var channel = try CallChannel(id: "me", now: 0)
        for k in 0..<5_000 {
            let now = Double(k) * 0.02
            if k % 250 == 0 { channel = try CallChannel(id: "me", now: now) }
            let base = Self.callMessages[Int.random(in: 0..<Self.callMessages.count, using: &g)]
            let text = k % 10 == 0 ? base : Self.mutate(base, &g)
            do { _ = try channel.text(text, now: now, emit: Self.expectJSON) } catch { refused += 1 }
            let audio = (0..<Int.random(in: 0...700, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }
            do { _ = try audio.withUnsafeBytes { try channel.audio($0, now: now, emit: Self.expectJSON) } } catch {
                refused += 1
            }
            _ = channel.tick(now: now + 0.01, emit: Self.expectJSON)
        }
        for text in Self.nested {
            #expect(throws: ProtocolError.self) { try channel.text(text, now: 100, emit: Self.expectJSON) }
        }
        // Most mutations break the JSON or the message; some still make sense, and the valid ones are taken.
        #expect(refused > 2_000 && refused < 10_000, "\(refused) refused")
    }

    @Test("/v1/vad: 5,000 mutated messages with audio between them")
    func vad() throws {
        var g = SeededGenerator(seed: 32)
        var refused = 0
        var session = try VADSession()
        for k in 0..<5_000 {
            if k % 100 == 0 { session = try VADSession() }
            let base = Self.vadMessages[Int.random(in: 0..<Self.vadMessages.count, using: &g)]
            let text = k % 10 == 0 ? base : Self.mutate(base, &g)
            do { _ = try session.text(text, emit: Self.expectJSON) } catch { refused += 1 }
            let audio = (0..<Int.random(in: 0...1_000, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }
            do { try audio.withUnsafeBytes { try session.audio($0, emit: Self.expectJSON) } } catch { refused += 1 }
        }
        session.finish(emit: Self.expectJSON)
        var fresh = try VADSession()
        for text in Self.nested { #expect(throws: ProtocolError.self) { try fresh.text(text, emit: Self.expectJSON) } }
        #expect(refused > 2_000, "\(refused) refused")
    }
}

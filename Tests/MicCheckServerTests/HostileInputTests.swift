import Foundation
import MicCheck
import NIOCore
import Testing

@testable import MicCheckServer

@Suite("What one hostile client sends")
struct HostileInputTests {
    private func frame(_ kind: ClientFrame.Kind, _ bytes: [UInt8], fin: Bool = true) -> ClientFrame {
        ClientFrame(kind, ByteBuffer(bytes: bytes), fin: fin)
    }

    private func refusal(_ frames: [ClientFrame], maxBytes: Int = 1_000, maxFrames: Int = 64) -> ProtocolError? {
        var assembler = MessageAssembler(maxBytes: maxBytes, maxFrames: maxFrames)
        do {
            for f in frames { _ = try assembler.add(f) }
            return nil
        } catch {
            return error
        }
    }

    @Test("fragments join into one message; one frame passes whole")
    func joins() throws {
        var assembler = MessageAssembler(maxBytes: 100)
        #expect(try assembler.add(frame(.text, Array("hé".utf8), fin: false)) == nil)
        #expect(try assembler.add(frame(.continuation, [], fin: false)) == nil)
        #expect(try assembler.add(frame(.continuation, Array("llo".utf8))) == .text("héllo"))
        #expect(try assembler.add(frame(.binary, [1, 2, 3])) == .binary(ByteBuffer(bytes: [1, 2, 3])))
        // A character split across frames is whole in the message.
        let e = Array("é".utf8)
        #expect(try assembler.add(frame(.text, [e[0]], fin: false)) == nil)
        #expect(try assembler.add(frame(.continuation, [e[1]])) == .text("é"))
    }

    @Test("endless empty continuation frames end at the frame bound, not at memory's end")
    func emptyContinuations() {
        let frames =
            [frame(.text, Array("{".utf8), fin: false)]
            + Array(repeating: frame(.continuation, [], fin: false), count: 10_000)
        #expect(refusal(frames, maxFrames: 64)?.code == .messageTooLarge)
        #expect(refusal(frames, maxFrames: 64)?.reason == "a message in more than 64 frames")
    }

    @Test("over the size, out of order, not UTF-8: each refused with its code")
    func refusals() {
        #expect(
            refusal([
                frame(.binary, Array(repeating: 0, count: 600), fin: false),
                frame(.continuation, Array(repeating: 0, count: 600)),
            ])?.code
                == .messageTooLarge)
        #expect(refusal([frame(.continuation, [1])])?.code == .protocolError)
        #expect(refusal([frame(.text, [0x61], fin: false), frame(.binary, [1])])?.code == .protocolError)
        #expect(refusal([frame(.text, [0xC3, 0x28])])?.code == .invalidPayload)
        #expect(
            refusal([frame(.text, [0xED, 0xA0, 0x80])])?.code == .invalidPayload, "a UTF-16 surrogate is not UTF-8")
        #expect(refusal([frame(.binary, [0xC3, 0x28])]) == nil, "binary is bytes")
    }

    @Test("a message wider than the protocol's is refused before decoding; brackets and commas in strings are text")
    func width() {
        let wide = #"{"type":"keep_alive","a":["# + Array(repeating: "{}", count: 20_000).joined(separator: ",") + "]}"
        #expect(wide.utf8.count > 60_000)
        #expect(throws: ProtocolError("a text message may hold 256 values at most")) { try ClientMessage(wide) }
        #expect(ClientMessage.shape(of: wide.utf8).values > ClientMessage.maxValues)
        #expect(ClientMessage.shape(of: #"{"a": ",,,,[[{{", "b": 1}"#.utf8) == (1, 2))
        let candidate =
            #"{"type": "signal", "to": "x", "data": {"candidate": {"candidate": "c", "sdpMid": "0", "sdpMLineIndex": 0, "usernameFragment": "u"}}}"#
        #expect(ClientMessage.shape(of: candidate.utf8).values < 16)
        var session = VADSessionProbe()
        #expect(session.refuses(wide) && !session.refuses(#"{"type": "keep_alive"}"#))
    }

    @Test("a message nested deeper than the protocol's is refused before decoding, however it is dressed")
    func nesting() {
        let deep =
            #"{"type":"keep_alive","a":"# + String(repeating: "[", count: 510) + String(repeating: "]", count: 510)
            + "}"
        #expect(throws: ProtocolError.self) { try ClientMessage(deep) }
        #expect(ClientMessage.shape(of: deep.utf8).depth > ClientMessage.maxDepth)
        #expect(
            ClientMessage.shape(of: #"{"a": "[[[[[[[[[[[[", "b": "\"{{{{{{{{{{"}"#.utf8).depth == 1,
            "brackets in strings are text")
        #expect(
            ClientMessage.shape(
                of: #"{"type": "signal", "to": "x", "data": {"description": {"type": "offer", "sdp": "v=0"}}}"#.utf8
            ).depth
                == 3)
        var session = VADSessionProbe()
        let refusedDeep = session.refuses(deep)
        let refusedPlain = session.refuses(#"{"type": "keep_alive"}"#)
        #expect(refusedDeep && !refusedPlain)
    }

    @Test("names that every store can keep and every page can show")
    func names() {
        #expect(ParticipantName.checked("  Ada Lovelace ") == .success("Ada Lovelace"))
        #expect(ParticipantName.checked("🎧 Zoë") == .success("🎧 Zoë"))
        #expect(ParticipantName.checked("   ") == .failure(.empty))
        #expect(ParticipantName.checked("Ada\u{0}") == .failure(.controlCharacters))
        #expect(ParticipantName.checked("Ada\u{1B}[31m") == .failure(.controlCharacters))
        #expect(ParticipantName.checked("Ada\u{2028}Bob") == .failure(.controlCharacters))
        #expect(
            ParticipantName.checked("Ada\u{202E}gnp.exe") == .failure(.controlCharacters), "a right-to-left override")
        #expect(ParticipantName.checked("\u{200B}\u{200B}") == .failure(.empty), "nothing visible")
        #expect(ParticipantName.checked("👨\u{200D}👩\u{200D}👧 Family") == .success("👨\u{200D}👩\u{200D}👧 Family"))
        #expect(
            ParticipantName.checked("Ada\u{202E}gnp.exe") == .failure(.controlCharacters), "a right-to-left override")
        #expect(ParticipantName.checked("\u{200B}\u{200B}") == .failure(.empty), "nothing visible")
        #expect(
            ParticipantName.checked("👨\u{200D}👩\u{200D}👧 Family") == .success("👨\u{200D}👩\u{200D}👧 Family"),
            "joiners in emoji")
        #expect(
            ParticipantName.checked(String(repeating: "a", count: 64)) == .success(String(repeating: "a", count: 64)))
        #expect(ParticipantName.checked(String(repeating: "a", count: 65)) == .failure(.tooLong))
        // 64 characters, each carrying 200 combining marks: 12.9 kB.
        let zalgo = String(repeating: "a" + String(repeating: "\u{0301}", count: 200), count: 64)
        #expect(zalgo.count == 64)
        #expect(ParticipantName.checked(zalgo) == .failure(.tooHeavy))
    }

    @Test("a join with such a name is refused with the reason; an invitation's name is held to the same rules")
    func joinNames() throws {
        var c = try CallChannel(id: "me", now: 0)
        func join(_ name: String) -> String? {
            do {
                _ = try c.text(JSONValue.object([("type", .string("join")), ("name", .string(name))]).encoded, now: 0) {
                    _ in
                }
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(join("Ada\u{0}") == "join needs a name without control characters")
        #expect(join(String(repeating: "x", count: 300)) == "join needs a name of at most 64 characters")
        #expect(join("Ada") == nil)
    }
}

/// A `/v1/vad` session fed text, for what it refuses.
private struct VADSessionProbe {
    var session: VADSession? = try? VADSession()

    mutating func refuses(_ text: String) -> Bool {
        do {
            _ = try session?.text(text) { _ in }
            return false
        } catch {
            return true
        }
    }
}

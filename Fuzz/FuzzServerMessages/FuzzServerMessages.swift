import Foundation
import MicCheck
import MicCheckCall
import MicCheckServer
import NIOCore

/// One input: what a browser or a `/v1/vad` client may send the server, past the WebSocket layer. The first
/// byte chooses what the rest is:
/// - 0: `/v1/vad` text messages (NUL-separated) through a `VADSession`;
/// - 1: call page text messages (NUL-separated) through a `CallChannel` after a join, with the
///   capabilities the second byte's bits grant (signals' descriptions checked against them);
/// - 2: one text message as `ClientMessage` (and its depth), then as a signal's data through `Signal.check` (and a
///   checked one through `Signal.recheck`, unchanged);
/// - 3: a query string (`key=value&...`) as `VADSession.Settings(query:)`;
/// - 4: PCM through a `VADSession` after a `session.update` that the next bytes choose (any supported
///   sample rate, threshold, padding, silence, minimum speech, muted), in chunks the input sizes, then
///   `close_stream`;
/// - 5: WebSocket data frames (kind, fin and length from header bytes) through a `MessageAssembler` of
///   bounds the input picks, each whole message handed to a `VADSession` (text or PCM).
/// Every outcome but a crash, a hang or a sanitizer report is fine: a refusal is a thrown `ProtocolError`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let mode = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    switch mode % 6 {
    case 0: vadTexts(rest)
    case 1: callTexts(rest)
    case 2: message(rest)
    case 3: query(rest)
    case 4: pcm(rest)
    default: frames(rest)
    }
    return 0
}

private func texts(_ bytes: ArraySlice<UInt8>) -> [String] {
    bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
}

private func vadTexts(_ bytes: [UInt8]) {
    guard var session = try? VADSession() else { return }
    for text in texts(bytes[...]) {
        do {
            if try session.text(text, emit: { _ in }) == .close { break }
        } catch {
            break  // the connection closes on a refusal
        }
    }
    session.finish { _ in }
}

private func capabilities(_ byte: UInt8) -> Set<OwnCapability> {
    Set(OwnCapability.allCases.enumerated().filter { byte & (1 << $0.offset) != 0 }.map(\.element))
}

private func callTexts(_ bytes: [UInt8]) {
    guard let first = bytes.first,
        var channel = try? CallChannel(
            id: "p1", capabilities: capabilities(first), invitedName: first & 8 != 0 ? "Ada" : nil, now: 0)
    else { return }
    _ = try? channel.text(#"{"type": "join", "name": "Ada Lovelace"}"#, now: 0, emit: { _ in })
    var now = 0.0
    for text in texts(bytes.dropFirst()) {
        now += 0.1
        guard (try? channel.text(text, now: now, emit: { _ in })) != nil else { break }
    }
    channel.tick(now: now + 10, emit: { _ in })
}

private func message(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let shape = ClientMessage.shape(of: text.utf8)
    guard let m = try? ClientMessage(text) else { return }
    precondition(shape.depth <= 8, "a message nested \(shape.depth) deep was decoded")
    precondition(shape.values <= 256, "a message of \(shape.values) values was decoded")
    _ = try? Signal.check(m, sender: [])
    // What a store hands back is checked again: a checked signal passes that check unchanged.
    if let checked = try? Signal.check(m, sender: nil) {
        precondition(Signal.recheck(checked) == checked, "a checked signal changed when checked again")
    }
}

private func query(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let pairs: [(String, String)] = text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
        let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
    }
    guard let settings = try? VADSession.Settings(query: pairs) else { return }
    // Settings a query accepts make a session.
    guard var session = try? VADSession(settings: settings) else { return }
    session.finish { _ in }
}

/// A `session.update` from six bytes: values in and out of every setting's range.
private func update(_ b: ArraySlice<UInt8>) -> String {
    let b = Array(b) + [UInt8](repeating: 0, count: max(0, 6 - b.count))
    let rate =
        AudioFormat.supportedSampleRates.lowerBound
        + (Int(b[0]) << 8 | Int(b[1])) * 11 % (AudioFormat.supportedSampleRates.count)
    let threshold = Double(b[2]) / 250
    let prefix = Int(b[3]) * 40
    let silence = 10 + Int(b[4]) * 40
    let minSpeech = 10 + Int(b[5] & 0x7f) * 40
    let muted = b[5] & 0x80 != 0
    return #"{"type": "session.update", "session": {"sample_rate": \#(rate), "threshold": \#(threshold), "#
        + #""prefix_padding_ms": \#(prefix), "silence_duration_ms": \#(silence), "min_speech_ms": \#(minSpeech), "muted": \#(muted)}}"#
}

private func pcm(_ bytes: [UInt8]) {
    guard var session = try? VADSession() else { return }
    _ = try? session.text(update(bytes.prefix(6)), emit: { _ in })
    let audio = bytes.dropFirst(6)
    let chunk = [1, 2, 160, 320, 882, 4_096][Int(bytes.last ?? 0) % 6]
    var start = audio.startIndex
    while start < audio.endIndex {
        let end = min(start + chunk, audio.endIndex)
        let ok = audio[start..<end].withUnsafeBytes { raw in (try? session.audio(raw, emit: { _ in })) != nil }
        if !ok { break }
        start = end
    }
    _ = try? session.text(#"{"type": "close_stream"}"#, emit: { _ in })
}

private func frames(_ bytes: [UInt8]) {
    guard bytes.count >= 2 else { return }
    var assembler = MessageAssembler(maxBytes: 1 + Int(bytes[0]) * 64, maxFrames: 1 + Int(bytes[1] % 80))
    guard var session = try? VADSession() else { return }
    var i = 2
    while i < bytes.count {
        let header = bytes[i]
        let kind: ClientFrame.Kind = [.text, .binary, .continuation, .continuation][Int(header & 3)]
        let fin = header & 0x80 == 0
        let length = min(
            Int(header >> 2 & 0x1f) * 8 + (i + 1 < bytes.count ? Int(bytes[i + 1] & 7) : 0), bytes.count - i - 2)
        let payload = length > 0 ? Array(bytes[(i + 2)..<(i + 2 + length)]) : []
        i += 2 + max(0, length)
        let message: InboundMessage?
        do {
            message = try assembler.add(ClientFrame(kind, ByteBuffer(bytes: payload), fin: fin))
        } catch {
            return  // the connection closes
        }
        switch message {
        case .text(let text):
            guard (try? session.text(text, emit: { _ in })) != nil else { return }
        case .binary:
            do {
                _ = try message?.withBinary { raw throws(ProtocolError) in try session.audio(raw, emit: { _ in }) }
            } catch {
                return
            }
        case nil:
            break
        }
    }
}

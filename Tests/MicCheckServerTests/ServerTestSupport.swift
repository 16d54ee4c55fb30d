import Foundation
import MicCheck
import MicCheckTesting

@testable import MicCheckServer

/// 16-bit little-endian PCM, as a browser or a voice agent sends it.
func pcm16(_ samples: [Float]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(samples.count * 2)
    for x in samples {
        let v = Int16(max(-32_768, min(32_767, (x * 32_768).rounded())))
        let u = UInt16(bitPattern: v)
        bytes.append(UInt8(u & 0xff))
        bytes.append(UInt8(u >> 8))
    }
    return bytes
}

/// Room tone, a voice from `onset` for `speech` seconds, room tone to `seconds` in all.
func speechInRoom(onset: Double, speech: Double, seconds: Double, sampleRate: Int = 16_000) -> [Float] {
    var x = Signals.pinkNoise(rmsDB: -60, seconds: seconds, sampleRate: sampleRate)
    let v = Signals.voice(rmsDB: -24, seconds: speech, sampleRate: sampleRate)
    let start = Int(onset * Double(sampleRate))
    for i in 0..<v.count where start + i < x.count { x[start + i] += v[i] }
    return x
}

/// A parsed server message.
struct Received: @unchecked Sendable {
    // @unchecked: `fields` holds only what JSONSerialization returns for a parsed message (strings,
    // numbers, Booleans, arrays and dictionaries of them), never mutated after init.
    let fields: [String: Any]
    var type: String { fields["type"] as? String ?? "" }
    func int(_ key: String) -> Int? { (fields[key] as? NSNumber)?.intValue }
    func double(_ key: String) -> Double? { (fields[key] as? NSNumber)?.doubleValue }
    func bool(_ key: String) -> Bool? { fields[key] as? Bool }
    func string(_ key: String) -> String? { fields[key] as? String }
    func object(_ key: String) -> Received? { (fields[key] as? [String: Any]).map(Received.init(fields:)) }
    subscript(_ key: String) -> Any? { fields[key] }

    init(fields: [String: Any]) { self.fields = fields }

    init(_ text: String) throws {
        guard let f = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        fields = f
    }
}

/// Feeds `samples` to a VAD session in 20 ms messages and collects what it says.
func run(_ session: inout VADSession, _ samples: [Float], block: Int = 320) throws -> [Received] {
    var out: [ServerMessage] = []
    let bytes = pcm16(samples)
    var i = 0
    while i < bytes.count {
        let end = min(bytes.count, i + block * 2)
        try bytes[i..<end].withUnsafeBytes { b in try session.audio(b) { out.append($0) } }
        i = end
    }
    return try out.map { try Received($0.text) }
}

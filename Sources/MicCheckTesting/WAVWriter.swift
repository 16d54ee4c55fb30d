public import MicCheck

/// Builds WAV files in memory, including broken ones, for tests.
public enum WAVWriter {
    /// A complete WAV file of `channels` interleaved channels.
    /// - Parameters:
    ///   - formatTag: 1 (PCM), 3 (float) or 0xFFFE (extensible, with `subformat` inside).
    public static func file(
        interleaved samples: [Float], sampleRate: Int, channels: Int, encoding: SampleEncoding,
        extensible: Bool = false, extraChunk: Bool = false, dataSizeOverride: UInt32? = nil
    ) -> [UInt8] {
        let bps = encoding.bytesPerSample
        var data: [UInt8] = []
        data.reserveCapacity(samples.count * bps)
        for s in samples { data += encode(s, encoding) }
        let isFloat = encoding == .float32 || encoding == .float64
        let tag: UInt16 = extensible ? 0xFFFE : (isFloat ? 3 : 1)
        var fmt: [UInt8] = []
        fmt += u16(tag) + u16(UInt16(channels)) + u32(UInt32(sampleRate)) + u32(UInt32(sampleRate * channels * bps))
        fmt += u16(UInt16(channels * bps)) + u16(UInt16(bps * 8))
        if extensible {
            fmt += u16(22) + u16(UInt16(bps * 8)) + u32(0)
            fmt +=
                u16(isFloat ? 3 : 1) + [
                    0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
                ]
        }
        var body: [UInt8] = Array("WAVE".utf8)
        body += Array("fmt ".utf8) + u32(UInt32(fmt.count)) + fmt
        if extraChunk {
            let list = Array("INFOtest".utf8) + [1]  // odd size: tests the pad byte
            body += Array("LIST".utf8) + u32(UInt32(list.count)) + list + [0]
        }
        body += Array("data".utf8) + u32(dataSizeOverride ?? UInt32(data.count)) + data
        return Array("RIFF".utf8) + u32(UInt32(body.count)) + body
    }

    /// A header with a chosen format tag and fields, and `dataBytes` zero bytes of data.
    public static func header(
        formatTag: UInt16, channels: UInt16, sampleRate: UInt32, bitsPerSample: UInt16,
        blockAlign: UInt16? = nil, dataBytes: Int = 64
    ) -> [UInt8] {
        let align = blockAlign ?? UInt16(max(1, Int(channels) * Int(bitsPerSample) / 8))
        var fmt: [UInt8] = u16(formatTag) + u16(channels) + u32(sampleRate) + u32(sampleRate &* UInt32(align))
        fmt += u16(align) + u16(bitsPerSample)
        var body: [UInt8] = Array("WAVE".utf8) + Array("fmt ".utf8) + u32(UInt32(fmt.count)) + fmt
        body += Array("data".utf8) + u32(UInt32(dataBytes)) + [UInt8](repeating: 0, count: dataBytes)
        return Array("RIFF".utf8) + u32(UInt32(body.count)) + body
    }

    static func encode(_ s: Float, _ e: SampleEncoding) -> [UInt8] {
        let c = Double(max(-1, min(1, s)))
        switch e {
        case .unsignedInt8: return [UInt8(max(0, min(255, (c * 128 + 128).rounded())))]
        case .signedInt16: return u16(UInt16(bitPattern: Int16(max(-32768, min(32767, (c * 32768).rounded())))))
        case .signedInt24:
            let v = Int32(max(-8_388_608, min(8_388_607, (c * 8_388_608).rounded())))
            let u = UInt32(bitPattern: v)
            return [UInt8(u & 0xFF), UInt8((u >> 8) & 0xFF), UInt8((u >> 16) & 0xFF)]
        case .signedInt32:
            let v = Int32(max(-2_147_483_648, min(2_147_483_647, (c * 2_147_483_648).rounded())))
            return u32(UInt32(bitPattern: v))
        case .float32: return u32(s.bitPattern)
        case .float64:
            let b = Double(s).bitPattern
            return (0..<8).map { UInt8((b >> (8 * UInt64($0))) & 0xFF) }
        }
    }

    /// `v` as two little-endian bytes.
    public static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    /// `v` as four little-endian bytes.
    public static func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xFF) } }
}

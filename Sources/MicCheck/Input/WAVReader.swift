/// Streams a RIFF/WAVE file as mono Float samples.
///
/// Reads PCM (8, 16, 24, 32-bit integer) and IEEE float (32, 64-bit), plain or
/// `WAVE_FORMAT_EXTENSIBLE`, 8–96 kHz, 1–8 channels. Channels are averaged to mono. The data is
/// decoded block by block, so memory stays flat whatever the file's length.
///
/// A data chunk whose size is 0 or 0xFFFFFFFF (written by a recorder that never finished the header)
/// is read to the end of the file; a data chunk cut short by the end of the file is read as far as it
/// goes. A NaN or infinite float sample stops reading with ``AudioInputError/nonFiniteSample(frame:)``.
public final class WAVReader {
    /// The stream's format as stored in the file.
    public let format: AudioFormat
    /// Frames the header announces, or `nil` when the data size is unknown.
    public let declaredFrameCount: Int?

    private let source: any ByteSource
    private var remainingBytes: Int?
    private var raw: [UInt8]
    private var carry = 0
    private var framesRead = 0
    private var cutShort = false

    /// Frames the header announced that the file turned out not to hold: 0 until reading meets the end
    /// of a data chunk cut short (a recording that was interrupted, a copy that did not finish, a file
    /// truncated while it was read). What it holds is still read.
    public var framesMissing: Int {
        guard cutShort, let declaredFrameCount else { return 0 }
        return max(0, declaredFrameCount - framesRead)
    }

    /// When the data chunk was cut short, a sentence saying so for the file called `name` (nil otherwise).
    public func cutShortNote(name: String) -> String? {
        let missing = framesMissing
        guard missing > 0, let declaredFrameCount else { return nil }
        let rate = Double(format.sampleRate)
        return
            "\(name): the file ends early: its header announces \(formatSeconds(Double(declaredFrameCount) / rate)) of audio, "
            + "it holds \(formatSeconds(Double(declaredFrameCount - missing) / rate)); what it holds was used"
    }

    /// Frames decoded per block.
    public static let blockFrames = 4_096

    /// Reads and validates the header; leaves the source at the first sample.
    public init(source: any ByteSource) throws(AudioInputError) {
        self.source = source
        let header = try WAVHeader.read(from: source)
        format = header.format
        remainingBytes = header.dataBytes
        declaredFrameCount = header.dataBytes.map { $0 / header.format.bytesPerFrame }
        raw = [UInt8](repeating: 0, count: Self.blockFrames * header.format.bytesPerFrame)
    }

    /// Opens the WAV file at `path`.
    /// - Throws: the reason, naming `path` ("speech.wav: is a directory, not an audio file").
    public convenience init(path: String) throws(AudioFileError) {
        do {
            try self.init(source: FileByteSource(path: path))
        } catch {
            throw AudioFileError(path: path, problem: error)
        }
    }

    /// Decodes up to `output.count` mono samples (at the file's own rate) into `output`.
    /// - Returns: how many samples were written; 0 at the end of the data.
    public func read(into output: UnsafeMutableBufferPointer<Float>) throws(AudioInputError) -> Int {
        let bpf = format.bytesPerFrame
        var maxFrames = min(output.count, Self.blockFrames)
        if let remainingBytes { maxFrames = min(maxFrames, (remainingBytes + carry) / bpf) }
        guard maxFrames > 0 else { return 0 }
        let want = maxFrames * bpf - carry
        let got = try source.readFully(into: &raw, carry..<carry + want)
        if let left = remainingBytes {
            remainingBytes = left - got
            if got < want { cutShort = true }
        }
        let available = carry + got
        let frames = available / bpf
        let channels = format.channels
        let encoding = format.encoding
        let scale = 1 / Float(channels)
        let framesBefore = framesRead
        // The frame of the first sample that is not a finite number, if any.
        let nonFinite = raw.withUnsafeBytes { bytes -> Int? in
            if channels == 1 && encoding == .signedInt16 {
                // The common case (16-bit mono, as microphones record and the corpus is) without the
                // per-sample dispatch: the same values as `decode` (dividing by 2^15 is exact either way).
                for f in 0..<frames {
                    let v = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2 * f, as: Int16.self))
                    output[f] = Float(v) * (1 / 32_768)
                }
                return nil
            }
            for f in 0..<frames {
                var sum: Float = 0
                let base = f * bpf
                for c in 0..<channels {
                    let v = Self.decode(bytes, at: base + c * encoding.bytesPerSample, encoding)
                    guard v.isFinite else { return framesBefore + f }
                    sum += v
                }
                output[f] = channels == 1 ? sum : sum * scale
            }
            return nil
        }
        if let nonFinite { throw .nonFiniteSample(frame: nonFinite) }
        // Keep a partial frame's bytes for the next call.
        carry = available - frames * bpf
        if carry > 0 {
            let start = frames * bpf
            for k in 0..<carry { raw[k] = raw[start + k] }
        }
        if frames == 0 { carry = 0 }  // the stream ended inside a frame: drop the partial frame
        framesRead += frames
        return frames
    }

    @inline(__always)
    private static func decode(_ b: UnsafeRawBufferPointer, at i: Int, _ encoding: SampleEncoding) -> Float {
        switch encoding {
        case .unsignedInt8:
            return (Float(b[i]) - 128) / 128
        case .signedInt16:
            let v = Int16(bitPattern: UInt16(b[i]) | UInt16(b[i + 1]) << 8)
            return Float(v) / 32_768
        case .signedInt24:
            let u = UInt32(b[i]) << 8 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 24
            return Float(Int32(bitPattern: u) >> 8) / 8_388_608
        case .signedInt32:
            let u = UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
            return Float(Double(Int32(bitPattern: u)) / 2_147_483_648)
        case .float32:
            let u = UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
            return Float(bitPattern: u)
        case .float64:
            var u: UInt64 = 0
            for k in 0..<8 { u |= UInt64(b[i + k]) << (8 * UInt64(k)) }
            return Float(Double(bitPattern: u))
        }
    }
}

/// The parts of a WAV header MicCheck needs.
struct WAVHeader {
    var format: AudioFormat
    /// Bytes in the data chunk, or `nil` when the writer left the size open.
    var dataBytes: Int?

    static func read(from source: any ByteSource) throws(AudioInputError) -> WAVHeader {
        var riff = [UInt8](repeating: 0, count: 12)
        let n = try source.readFully(into: &riff)
        if n == 0 { throw AudioInputError.empty }
        if n >= 4, riff[0..<4].elementsEqual("RIFX".utf8) {
            throw AudioInputError.unsupportedEncoding("big-endian RIFX")
        }
        if n >= 4, riff[0..<4].elementsEqual("RF64".utf8) {
            throw AudioInputError.unsupportedEncoding("the RF64 container")
        }
        if n >= 4, !riff[0..<4].elementsEqual("RIFF".utf8) { throw AudioInputError.notWAV("no RIFF header") }
        if n < 12 { throw AudioInputError.truncatedHeader("\(n) of 12 bytes of the RIFF header") }
        guard riff[8..<12].elementsEqual("WAVE".utf8) else {
            throw AudioInputError.notWAV("a RIFF file of another type")
        }

        var format: AudioFormat?
        var chunk = [UInt8](repeating: 0, count: 8)
        while true {
            let got = try source.readFully(into: &chunk)
            if got == 0 {
                throw format == nil
                    ? AudioInputError.malformed("no fmt chunk") : AudioInputError.malformed("no data chunk")
            }
            if got < 8 { throw AudioInputError.truncatedHeader("a chunk header is cut short") }
            let id = String(decoding: chunk[0..<4], as: UTF8.self)
            let size = Int(le32(chunk, 4))
            switch id {
            case "fmt ":
                guard size >= 16 else {
                    throw AudioInputError.malformed("the fmt chunk is \(size) bytes, fewer than 16")
                }
                guard size <= 4_096 else { throw AudioInputError.malformed("the fmt chunk claims \(size) bytes") }
                var body = [UInt8](repeating: 0, count: size + (size & 1))
                let read = try source.readFully(into: &body)
                guard read >= size else { throw AudioInputError.truncatedHeader("the fmt chunk is cut short") }
                format = try parseFormat(Array(body[0..<size]))
            case "data":
                guard let format else { throw AudioInputError.malformed("the data chunk comes before the fmt chunk") }
                let open = size == 0 || size == 0xFFFF_FFFF
                return WAVHeader(format: format, dataBytes: open ? nil : size)
            default:
                let padded = size + (size & 1)
                let skipped = try source.skip(padded)
                if skipped < size { throw AudioInputError.truncatedHeader("the '\(printable(id))' chunk is cut short") }
            }
        }
    }

    private static func parseFormat(_ b: [UInt8]) throws(AudioInputError) -> AudioFormat {
        var tag = Int(le16(b, 0))
        let channels = Int(le16(b, 2))
        let rate = Int(le32(b, 4))
        let blockAlign = Int(le16(b, 12))
        let bits = Int(le16(b, 14))
        if tag == 0xFFFE {
            guard b.count >= 40 else {
                throw AudioInputError.malformed("WAVE_FORMAT_EXTENSIBLE without its 40-byte fmt chunk")
            }
            tag = Int(le16(b, 24))
        }
        guard channels > 0 else { throw AudioInputError.unsupportedFormat("has zero channels") }
        guard AudioFormat.supportedChannels.contains(channels) else {
            throw AudioInputError.unsupportedFormat("has \(channels) channels; MicCheck reads 1 to 8")
        }
        guard AudioFormat.supportedSampleRates.contains(rate) else {
            throw AudioInputError.unsupportedFormat("has a sample rate of \(rate) Hz; MicCheck reads 8 to 96 kHz")
        }
        guard blockAlign > 0, blockAlign % channels == 0 else {
            throw AudioInputError.malformed("block alignment \(blockAlign) does not fit \(channels) channels")
        }
        let container = blockAlign / channels
        let encoding: SampleEncoding
        switch tag {
        case 1:
            guard bits >= 1, bits <= container * 8 else {
                throw AudioInputError.malformed("\(bits) bits per sample in \(container)-byte samples")
            }
            switch container {
            case 1: encoding = .unsignedInt8
            case 2: encoding = .signedInt16
            case 3: encoding = .signedInt24
            case 4: encoding = .signedInt32
            default: throw AudioInputError.unsupportedEncoding("\(container * 8)-bit integer PCM")
            }
        case 3:
            switch (container, bits) {
            case (4, 32): encoding = .float32
            case (8, 64): encoding = .float64
            default: throw AudioInputError.unsupportedEncoding("\(bits)-bit float in \(container)-byte samples")
            }
        case 2: throw AudioInputError.unsupportedEncoding("Microsoft ADPCM")
        case 6: throw AudioInputError.unsupportedEncoding("A-law")
        case 7: throw AudioInputError.unsupportedEncoding("µ-law")
        case 0x11: throw AudioInputError.unsupportedEncoding("IMA ADPCM")
        case 0x31: throw AudioInputError.unsupportedEncoding("GSM 6.10")
        case 0x55: throw AudioInputError.unsupportedEncoding("MP3")
        default:
            let hex = String(tag, radix: 16, uppercase: true)
            throw AudioInputError.unsupportedEncoding(
                "format tag 0x\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)")
        }
        return AudioFormat(sampleRate: rate, channels: channels, encoding: encoding)
    }

    private static func printable(_ id: String) -> String {
        String(id.unicodeScalars.map { $0.isASCII && $0.value >= 32 && $0.value < 127 ? Character($0) : "?" })
    }
}

@inline(__always) func le16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
@inline(__always) func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
}

/// How one sample of one channel is stored in a PCM stream.
public enum SampleEncoding: Sendable, Hashable, CustomStringConvertible {
    /// 8-bit unsigned integer, 128 is zero (the WAV convention for 8-bit PCM).
    case unsignedInt8
    /// 16-bit signed little-endian integer.
    case signedInt16
    /// 24-bit signed little-endian integer, packed in three bytes.
    case signedInt24
    /// 32-bit signed little-endian integer.
    case signedInt32
    /// 32-bit IEEE float, full scale at ±1.
    case float32
    /// 64-bit IEEE float, full scale at ±1.
    case float64

    /// Bytes one sample takes in the stream.
    public var bytesPerSample: Int {
        switch self {
        case .unsignedInt8: 1
        case .signedInt16: 2
        case .signedInt24: 3
        case .signedInt32, .float32: 4
        case .float64: 8
        }
    }

    /// The encoding in words, e.g. "16-bit PCM" or "32-bit float".
    public var description: String {
        switch self {
        case .unsignedInt8: "8-bit PCM"
        case .signedInt16: "16-bit PCM"
        case .signedInt24: "24-bit PCM"
        case .signedInt32: "32-bit PCM"
        case .float32: "32-bit float"
        case .float64: "64-bit float"
        }
    }
}

/// The shape of an interleaved PCM stream.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    /// Samples per second of each channel, Hz.
    public var sampleRate: Int
    /// Interleaved channels per frame.
    public var channels: Int
    /// How each sample is stored.
    public var encoding: SampleEncoding

    /// A format of `channels` channels at `sampleRate` (Hz), stored as `encoding`.
    public init(sampleRate: Int, channels: Int, encoding: SampleEncoding) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.encoding = encoding
    }

    /// Bytes one interleaved frame (one sample of every channel) takes.
    public var bytesPerFrame: Int { channels * encoding.bytesPerSample }

    /// Sample rates MicCheck accepts on input.
    public static let supportedSampleRates = 8_000...96_000
    /// Channel counts MicCheck accepts on input.
    public static let supportedChannels = 1...8

    /// The format in words, e.g. "16-bit PCM, 48000 Hz, mono".
    public var description: String {
        let layout = channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels"
        return "\(encoding), \(sampleRate) Hz, \(layout)"
    }
}

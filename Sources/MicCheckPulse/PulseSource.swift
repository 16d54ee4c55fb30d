import CPulseAudio

/// A capture device as the PulseAudio server lists it.
public struct PulseSource: Sendable, Equatable {
    /// The server's index for the source.
    public var index: UInt32
    /// The name to pass as `--source` ("alsa_input.usb-…", "virtmic").
    public var name: String
    /// A human-readable name ("USB Microphone").
    public var description: String
    /// The native sample rate in Hz.
    public var sampleRate: Int
    /// The native channel count.
    public var channels: Int
    /// The native sample format as libpulse names it ("s16le", "float32le").
    public var sampleFormat: String
    /// Whether the source is muted on the server (it then delivers silence).
    public var isMuted: Bool
    /// Whether the source is the monitor of an output (what the speakers play), not a microphone.
    public var isMonitor: Bool
    /// Whether the source is the server's default source.
    public var isDefault: Bool

    /// A source described field by field.
    public init(
        index: UInt32, name: String, description: String, sampleRate: Int, channels: Int,
        sampleFormat: String, isMuted: Bool, isMonitor: Bool, isDefault: Bool
    ) {
        self.index = index
        self.name = name
        self.description = description
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
        self.isMuted = isMuted
        self.isMonitor = isMonitor
        self.isDefault = isDefault
    }

    init(_ info: pa_source_info, defaultName: String?) {
        let name = info.name.map { String(cString: $0) } ?? "source #\(info.index)"
        self.init(
            index: info.index, name: name,
            description: info.description.map { String(cString: $0) } ?? name,
            sampleRate: Int(info.sample_spec.rate), channels: Int(info.sample_spec.channels),
            sampleFormat: pa_sample_format_to_string(info.sample_spec.format).map { String(cString: $0) } ?? "unknown",
            isMuted: info.mute != 0, isMonitor: info.monitor_of_sink != miccheck_pa_invalid_index,
            isDefault: name == defaultName)
    }
}

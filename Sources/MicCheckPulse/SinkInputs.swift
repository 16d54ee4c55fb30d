#if os(Linux)
    import CPulseAudio
    import Glibc

    /// A playback stream on the server (a sink input): another application's audio, or ours.
    public struct SinkInput: Sendable, Equatable {
        /// The server's index for the stream.
        public var index: UInt32
        /// The stream's name, as its client set it (empty when it set none).
        public var name: String
        /// The playing application's name (`application.name`), when the client said.
        public var applicationName: String?
        /// The playing process, when the client said.
        public var processID: Int32?
        /// Whether a client owns it; streams that belong to a module (loopback, echo-cancel) have none.
        public var hasClient: Bool
        /// Per-channel volume, in PulseAudio's units (0x10000 is 100 %, cubic).
        public var volume: [UInt32]
        /// Whether the stream has a volume that clients may set.
        public var volumeIsSettable: Bool

        /// PulseAudio's 100 % volume (`PA_VOLUME_NORM`, a cast macro Swift does not import).
        public static let normalVolume: UInt32 = 0x10000

        init(_ info: pa_sink_input_info) {
            index = info.index
            name = info.name.map { String(cString: $0) } ?? ""
            applicationName = pa_proplist_gets(info.proplist, "application.name").map { String(cString: $0) }
            processID = pa_proplist_gets(info.proplist, "application.process.id").flatMap { Int32(String(cString: $0)) }
            hasClient = info.client != miccheck_pa_invalid_index
            volume = Self.values(of: info.volume)
            volumeIsSettable = info.has_volume != 0 && info.volume_writable != 0
        }

        /// The channels' values of a `pa_cvolume`.
        static func values(of cvolume: pa_cvolume) -> [UInt32] {
            withUnsafeBytes(of: cvolume.values) { raw in
                Array(raw.bindMemory(to: UInt32.self).prefix(Int(cvolume.channels)))
            }
        }

        /// A `pa_cvolume` holding `values` (at most 32 channels).
        static func cvolume(_ values: [UInt32]) -> pa_cvolume {
            var v = pa_cvolume()
            v.channels = UInt8(min(values.count, 32))
            withUnsafeMutableBytes(of: &v.values) { raw in
                let slots = raw.bindMemory(to: UInt32.self)
                for (i, x) in values.prefix(32).enumerated() { slots[i] = x }
            }
            return v
        }

        /// `volume` lowered by `decibels` (software volume arithmetic, as pactl does).
        public static func attenuated(_ volume: [UInt32], by decibels: Double) -> [UInt32] {
            guard decibels > 0 else { return volume }
            let factor = pa_sw_volume_from_dB(-decibels)
            return volume.map { pa_sw_volume_multiply($0, factor) }
        }
    }

    extension PulseConnection {
        /// Every playback stream on the server.
        public func sinkInputs() throws(PulseError) -> [SinkInput] {
            let box = Box<[SinkInput]>([], mainloop: mainloop)
            try locked { () throws(PulseError) in
                let op = pa_context_get_sink_input_info_list(
                    context,
                    { _, info, eol, userdata in
                        guard let userdata else { return }
                        let box = Unmanaged<Box<[SinkInput]>>.fromOpaque(userdata).takeUnretainedValue()
                        if eol == 0, let info = info?.pointee { box.value.append(SinkInput(info)) }
                        if eol != 0 { pa_threaded_mainloop_signal(box.mainloop, 0) }
                    }, Unmanaged.passUnretained(box).toOpaque())
                try wait(for: op, doing: "listing playback streams")
            }
            return box.value
        }

        /// One playback stream, or nil when it is gone.
        public func sinkInput(index: UInt32) throws(PulseError) -> SinkInput? {
            let box = Box<SinkInput?>(nil, mainloop: mainloop)
            try locked { () throws(PulseError) in
                let op = pa_context_get_sink_input_info(
                    context, index,
                    { _, info, eol, userdata in
                        guard let userdata else { return }
                        let box = Unmanaged<Box<SinkInput?>>.fromOpaque(userdata).takeUnretainedValue()
                        if eol == 0, let info = info?.pointee { box.value = SinkInput(info) }
                        if eol != 0 { pa_threaded_mainloop_signal(box.mainloop, 0) }
                    }, Unmanaged.passUnretained(box).toOpaque())
                try wait(for: op, doing: "asking for a playback stream")
            }
            return box.value
        }

        /// Sets a playback stream's per-channel volume. Returns false when the stream is gone.
        @discardableResult
        public func setSinkInputVolume(index: UInt32, to volume: [UInt32]) throws(PulseError) -> Bool {
            let box = Box<Bool>(false, mainloop: mainloop)
            var cvolume = SinkInput.cvolume(volume)
            try locked { () throws(PulseError) in
                let op = pa_context_set_sink_input_volume(
                    context, index, &cvolume,
                    { _, success, userdata in
                        guard let userdata else { return }
                        let box = Unmanaged<Box<Bool>>.fromOpaque(userdata).takeUnretainedValue()
                        box.value = success != 0
                        pa_threaded_mainloop_signal(box.mainloop, 0)
                    }, Unmanaged.passUnretained(box).toOpaque())
                try wait(for: op, doing: "setting a playback stream's volume")
            }
            return box.value
        }
    }
#endif

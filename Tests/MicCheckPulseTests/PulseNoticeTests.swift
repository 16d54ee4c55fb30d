#if os(Linux)
    import Logging
    import MicCheckPulse
    import Testing

    @Suite("PulseMicrophone.Notice: the sentence, the log level and the metadata of each")
    struct PulseNoticeTests {
        static let usb = PulseSource(
            index: 3, name: "alsa_input.usb", description: "USB Microphone", sampleRate: 48_000, channels: 1,
            sampleFormat: "s16le", isMuted: false, isMonitor: false, isDefault: true)

        @Test(
            "each notice reads as one sentence, and a fault logs as a warning, a recovery as info",
            arguments: [
                (
                    PulseMicrophone.Notice.serverLost(window: .seconds(10)),
                    "the PulseAudio server went away; reconnecting for up to 10 s", Logger.Level.warning,
                    [String: String]()
                ),
                // A long window in whole seconds, a short one with its decimals.
                (
                    .serverLost(window: .seconds(86_400)),
                    "the PulseAudio server went away; reconnecting for up to 86400 s",
                    .warning, [:]
                ),
                (
                    .serverLost(window: .milliseconds(2_500)),
                    "the PulseAudio server went away; reconnecting for up to 2.5 s",
                    .warning, [:]
                ),
                (
                    .reconnected(source: usb, gap: .milliseconds(2_034)),
                    "reconnected after 2.03 s; listening to USB Microphone (alsa_input.usb) again",
                    .info, ["pulse.source": "alsa_input.usb", "pulse.gap_s": "2.03"]
                ),
                (
                    .sourceLost(lost: "headset", fallback: usb),
                    "the source headset disappeared; listening to the default source USB Microphone (alsa_input.usb) instead",
                    .warning, ["pulse.source": "alsa_input.usb", "pulse.lost": "headset"]
                ),
                (
                    .switched(to: usb), "listening to USB Microphone (alsa_input.usb) now", .info,
                    ["pulse.source": "alsa_input.usb"]
                ),
                (
                    .switchFailed(source: "nope", reason: "no such entity"),
                    "could not switch to nope (no such entity); listening on",
                    .warning, ["pulse.source": "nope"]
                ),
            ])
        func sentence(notice: PulseMicrophone.Notice, sentence: String, level: Logger.Level, metadata: [String: String])
        {
            #expect(notice.description == sentence)
            #expect(notice.logLevel == level)
            #expect(notice.logMetadata.mapValues(\.description) == metadata)
        }
    }
#endif

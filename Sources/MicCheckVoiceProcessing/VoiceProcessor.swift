#if os(Linux)
    internal import CVoiceProcessingShim
    public import MicCheck

    /// Voice processing of near-end (microphone) audio against a far-end (loudspeaker) reference: echo
    /// cancellation, noise suppression, automatic gain control and a high-pass filter, by Debian's
    /// webrtc-audio-processing, the library PulseAudio's echo-cancel module uses.
    ///
    /// Audio is mono float in [-1, 1], in frames of exactly 10 ms (``frameLength`` samples). For each
    /// near-end frame, first hand over the far-end frame that was playing at the time with
    /// ``analyzeFar(_:)``, then process the near-end frame with ``processNear(_:delayMilliseconds:)``.
    ///
    /// - Important: Not thread-safe. Use an instance from one thread at a time (it is not `Sendable`).
    ///   Nothing is allocated per frame.
    public final class VoiceProcessor {
        /// The settings the processor was made with.
        public let configuration: VoiceProcessingConfiguration
        /// Samples in one 10 ms frame.
        public let frameLength: Int
        private let handle: OpaquePointer

        /// What the echo canceller measures, when it runs.
        public struct Metrics: Sendable, Equatable {
            /// Echo return loss enhancement, in dB: how much the canceller removed, over the last block
            /// and since the start. `nil` before the canceller has measured anything.
            public var echoReturnLossEnhancementDB: Float?
            /// Echo return loss enhancement averaged since the start, in dB (`nil` before any measurement).
            public var averageEchoReturnLossEnhancementDB: Float?
            /// Echo return loss, in dB: how much quieter the echo is than the far end (since the start).
            public var averageEchoReturnLossDB: Float?
            /// The echo path delay the canceller estimates, in ms, and its spread: beyond the far end's
            /// hand-over (``VoiceProcessingStream`` hands it over late by the delay it measures itself).
            public var delayMilliseconds: Int?
            /// The spread (standard deviation) of that delay estimate, in ms.
            public var delayDeviationMilliseconds: Int?
            /// Whether the last near-end frame held echo.
            public var hasEcho: Bool
            /// The noise suppressor's speech probability for the last frame, when it runs.
            public var speechProbability: Float?
        }

        /// Creates a processor.
        /// - Throws: ``VoiceProcessingError`` for an unsupported rate or a setting the library refuses.
        public init(configuration: VoiceProcessingConfiguration) throws(VoiceProcessingError) {
            guard VoiceProcessingConfiguration.supportedSampleRates.contains(configuration.sampleRate) else {
                throw .unsupportedSampleRate(configuration.sampleRate)
            }
            guard (0...31).contains(configuration.gainTargetDBFS), (0...90).contains(configuration.gainCompressionDB)
            else { throw .invalidSetting("gain target must be 0...31 dB and compression 0...90 dB") }
            var config = miccheck_vp_config()
            config.sample_rate = Int32(configuration.sampleRate)
            if let echo = configuration.echoCancellation {
                config.echo_cancellation = true
                config.echo_suppression =
                    switch echo {
                    case .low: 0
                    case .moderate: 1
                    case .high: 2
                    }
            }
            if let noise = configuration.noiseSuppression {
                config.noise_suppression = true
                config.noise_level =
                    switch noise {
                    case .low: 0
                    case .moderate: 1
                    case .high: 2
                    case .veryHigh: 3
                    }
            }
            if let gain = configuration.gainControl {
                config.gain_control = true
                config.gain_mode =
                    switch gain {
                    case .adaptiveAnalog: 0
                    case .adaptiveDigital: 1
                    case .fixedDigital: 2
                    }
            }
            config.gain_target_dbfs = Int32(configuration.gainTargetDBFS)
            config.gain_compression_db = Int32(configuration.gainCompressionDB)
            config.high_pass_filter = configuration.highPassFilter
            var error: Int32 = 0
            guard let handle = miccheck_vp_create(&config, &error) else { throw .library(code: Int(error)) }
            self.handle = handle
            self.configuration = configuration
            frameLength = Int(miccheck_vp_frame_length(handle))
        }

        deinit { miccheck_vp_destroy(handle) }

        /// Hands over one 10 ms frame of far-end audio (what the loudspeaker plays), the echo reference.
        /// - Precondition: `frame.count == frameLength`.
        public func analyzeFar(_ frame: UnsafeBufferPointer<Float>) throws(VoiceProcessingError) {
            precondition(frame.count == frameLength, "far-end frames must hold exactly 10 ms")
            guard let base = frame.baseAddress else { return }
            let code = miccheck_vp_analyze_far(handle, base)
            if code != 0 { throw .library(code: Int(code)) }
        }

        /// Processes one 10 ms frame of near-end audio in place.
        /// - Parameter delayMilliseconds: the time from a far-end frame's hand-over to its echo's
        ///   capture, as far as it is known; 0 lets the canceller estimate it alone.
        /// - Precondition: `frame.count == frameLength`.
        public func processNear(
            _ frame: UnsafeMutableBufferPointer<Float>, delayMilliseconds: Int = 0
        )
            throws(VoiceProcessingError)
        {
            precondition(frame.count == frameLength, "near-end frames must hold exactly 10 ms")
            guard let base = frame.baseAddress else { return }
            let code = miccheck_vp_process_near(handle, base, Int32(clamping: delayMilliseconds))
            // -13 is a warning (a stream parameter out of range): the frame was still processed.
            if code != 0 && code != -13 { throw .library(code: Int(code)) }
        }

        /// For `VoiceProcessingConfiguration.GainControlMode.adaptiveAnalog`: the capture device's
        /// volume (0…255) before a frame is processed; ``requestedAnalogLevel`` after it is what the
        /// controller asks the device to be set to.
        public func setAnalogLevel(_ level: Int) {
            miccheck_vp_set_analog_level(handle, Int32(clamping: min(max(level, 0), 255)))
        }

        /// The device volume (0…255) the analog gain controller asks for, or `nil` in other modes.
        public var requestedAnalogLevel: Int? {
            let level = miccheck_vp_analog_level(handle)
            return level < 0 ? nil : Int(level)
        }

        /// The canceller's own measurements.
        public var metrics: Metrics {
            var raw = miccheck_vp_metrics()
            miccheck_vp_metrics_get(handle, &raw)
            // The library reports -100 for a statistic it has no data for yet.
            func measured(_ value: Float) -> Float? { raw.has_echo_metrics && value > -100 ? value : nil }
            return Metrics(
                echoReturnLossEnhancementDB: measured(raw.erle_instant_db),
                averageEchoReturnLossEnhancementDB: measured(raw.erle_average_db),
                averageEchoReturnLossDB: measured(raw.erl_average_db),
                delayMilliseconds: raw.has_delay && raw.delay_median_ms >= 0 ? Int(raw.delay_median_ms) : nil,
                delayDeviationMilliseconds: raw.has_delay && raw.delay_std_ms >= 0 ? Int(raw.delay_std_ms) : nil,
                hasEcho: raw.stream_has_echo,
                speechProbability: raw.speech_probability >= 0 ? raw.speech_probability : nil
            )
        }
    }
#endif

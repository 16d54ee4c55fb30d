/// "Test your microphone": a few seconds of the user's voice, recorded and judged.
///
/// Hand it the microphone's samples as they arrive (``append(_:)-(UnsafeBufferPointer<Float>)``) until
/// ``isComplete``; then
/// ``finish()`` gives the ``MicrophoneTestVerdict``. The recording is analysed as it arrives, by the same
/// analysis a call runs (levels, voice activity, the dead-microphone, clipping and noise detectors), so
/// finishing costs only the last few frames. With `keepsRecording` the samples stay in ``recording`` for
/// playback; the owner discards the test afterwards, and with it the recording.
///
/// The verdict, in this order of precedence:
/// - ``MicrophoneTestVerdict/Kind/dead``: the dead-microphone detector's `microphone_silent` still holds at
///   the end, or no audio arrived. A hiss is never the verdict of a recording that held a voice (at least
///   ``Configuration/minimumSpeech`` of speech frames): a device that delivered speech works, and the hiss
///   is its room's; digital silence or a constant value after the voice still is (the device died);
/// - ``MicrophoneTestVerdict/Kind/clipping``: the clipping detector found a ceiling;
/// - ``MicrophoneTestVerdict/Kind/noVoice``: less than ``Configuration/minimumSpeech`` of speech frames;
/// - ``MicrophoneTestVerdict/Kind/tooQuiet``: the speech's active level below ``Configuration/quietLevel``;
/// - ``MicrophoneTestVerdict/Kind/noisy``: the noise detector raised `noisy_microphone`, or the room's
///   level between words is less than ``Configuration/minimumSignalToNoise`` below the speech (and above
///   ``Configuration/quietRoomLevel``);
/// - otherwise ``MicrophoneTestVerdict/Kind/clear``.
public struct MicrophoneTest: Sendable {
    /// How long the test records and how its recording is judged.
    public struct Configuration: Sendable, Equatable {
        /// How long to record (seconds).
        public var seconds: Double = 5
        /// Seconds of speech frames the recording needs for a voice to have been heard.
        public var minimumSpeech: Double = 0.5
        /// Active speech level (dBFS) below which the voice is too quiet (the analysis' own threshold).
        public var quietLevel: Float = QuietSpeechDetector.Configuration.default.quietLevel
        /// The speech must stand this far (dB) above the room's level between words.
        public var minimumSignalToNoise: Float = 15
        /// A room quieter than this (dBFS) is never called noisy.
        public var quietRoomLevel: Float = -60

        /// Settings for a test of `seconds` (5 by default); the thresholds at their defaults.
        public init(seconds: Double = 5) { self.seconds = seconds }
        /// The default settings: 5 s of recording.
        public static let `default` = Configuration()
    }

    /// The test's settings.
    public let configuration: Configuration
    /// Samples per second of the audio the test takes, Hz.
    public let sampleRate: Int
    /// The samples recorded so far, when the test keeps them (for playback).
    public private(set) var recording: [Float] = []
    /// Samples taken so far.
    public private(set) var recordedSamples = 0
    private let keepsRecording: Bool
    private let totalSamples: Int
    private var analysis: StreamingAnalysis
    private var tally = Tally()

    /// What the analysis found so far.
    fileprivate struct Tally {
        var speechFrames = 0
        var speechPower = 0.0
        var otherLevels: [Float] = []
        var dead: DeadMicrophoneSignature?
        var clipping: MicrophoneTestVerdict.Clipping?
        var noisy: (kind: NoiseKind?, levelDB: Float)?
    }

    /// - Parameters:
    ///   - sampleRate: the rate of the samples to come (one of ``AudioFormat/supportedSampleRates``).
    ///   - keepsRecording: keep the samples in ``recording`` for playing back.
    /// - Throws: ``AnalysisError/unsupportedSampleRate(_:)``.
    public init(
        sampleRate: Int, configuration: Configuration = .default, keepsRecording: Bool = true,
        model: VoiceActivityModel = .bundled
    ) throws(AnalysisError) {
        analysis = try StreamingAnalysis(sampleRate: sampleRate, model: model)
        self.sampleRate = sampleRate
        self.configuration = configuration
        self.keepsRecording = keepsRecording
        totalSamples = max(1, Int((configuration.seconds * Double(sampleRate)).rounded()))
        if keepsRecording { recording.reserveCapacity(totalSamples) }
    }

    /// Whether the test has recorded its ``Configuration/seconds``.
    public var isComplete: Bool { recordedSamples >= totalSamples }

    /// Seconds recorded so far.
    public var recordedSeconds: Double { Double(recordedSamples) / Double(sampleRate) }

    /// Takes the samples the test still needs from `samples` (mono, at ``sampleRate``); returns how many
    /// it took (fewer than offered once it is complete).
    @discardableResult
    public mutating func append(_ samples: UnsafeBufferPointer<Float>) -> Int {
        let n = min(samples.count, totalSamples - recordedSamples)
        guard n > 0 else { return 0 }
        let taken = UnsafeBufferPointer(rebasing: samples[0..<n])
        if keepsRecording { recording.append(contentsOf: taken) }
        recordedSamples += n
        analysis.process(taken) { tally.add($0) }
        return n
    }

    /// Takes the samples the test still needs from `samples`; returns how many it took.
    @discardableResult
    public mutating func append(_ samples: [Float]) -> Int {
        samples.withUnsafeBufferPointer { append($0) }
    }

    /// Analyses what is left and judges the recording so far (complete or cut short).
    public mutating func finish() -> MicrophoneTestVerdict {
        analysis.finish { tally.add($0) }
        return Self.judge(tally, recordedSeconds: recordedSeconds, configuration: configuration)
    }

    private static func judge(
        _ t: Tally, recordedSeconds: Double, configuration c: Configuration
    ) -> MicrophoneTestVerdict {
        let frame = 1 / Double(LevelMeter.framesPerSecond)
        let speechSeconds = Double(t.speechFrames) * frame
        let speechLevel =
            t.speechFrames > 0 ? Decibels.fromPower(t.speechPower / Double(t.speechFrames)) : nil
        let noiseLevel = median(t.otherLevels)
        var v = MicrophoneTestVerdict(
            kind: .clear, recordedSeconds: recordedSeconds, speechSeconds: speechSeconds, speechLevelDB: speechLevel,
            noiseLevelDB: noiseLevel, noise: t.noisy?.kind, clipping: t.clipping, dead: t.dead)
        // The verdict never contradicts the analysis: a recording that held a voice is not dead by a hiss.
        if t.dead == .hiss && speechSeconds >= c.minimumSpeech { v.dead = nil }
        if recordedSeconds == 0 || v.dead != nil {
            v.kind = .dead
        } else if t.clipping != nil {
            v.kind = .clipping
        } else if speechSeconds < c.minimumSpeech {
            v.kind = .noVoice
        } else if let speechLevel, speechLevel < c.quietLevel {
            v.kind = .tooQuiet
        } else if t.noisy != nil {
            v.kind = .noisy
        } else if let noiseLevel, let snr = v.signalToNoiseDB, noiseLevel > c.quietRoomLevel,
            snr < c.minimumSignalToNoise
        {
            v.kind = .noisy
        }
        return v
    }

    private static func median(_ values: [Float]) -> Float? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

extension MicrophoneTest.Tally {
    mutating func add(_ record: AnalysisOutput) {
        switch record {
        case .frame(let f):
            // The voice is the analysis's speech frames; the room, the frames the model does not take for
            // speech at all. A frame it half believes outside an utterance (a voice's onset before speech
            // starts, a voice under noise that never starts it) is neither: counted as the room, a voice's
            // onsets would make the room sound louder than it is.
            if f.isSpeech {
                speechFrames += 1
                speechPower += Double(Decibels.power(f.levelDB))
            } else if f.probability < SpeechFrameDecision.Configuration.default.threshold {
                otherLevels.append(f.levelDB)
            }
        case .event(let e):
            switch e {
            case .microphoneSilent(_, let signature): dead = signature
            case .microphoneActive: dead = nil
            case .clipping(_, let ceiling, let share):
                clipping = .init(ceilingDB: ceiling, share: max(share, clipping?.share ?? 0))
            case .noisyMicrophone(_, let kind, let level): noisy = (kind, level)
            default: break
            }
        }
    }
}

/// How a stream is analysed: the speech detector and its rules, how each frame's `speech` is decided,
/// and the microphone health detectors' settings. ``StreamingAnalysis`` takes one.
public struct AnalysisConfiguration: Sendable, Equatable {
    public var detector: SpeechDetectorKind
    public var speech: SpeechEventDetector.Configuration
    /// How each frame's `speech` is decided (the voice detector only).
    public var frame: SpeechFrameDecision.Configuration
    public var silence: SilentMicrophoneDetector.Configuration
    public var noise: NoisyMicrophoneDetector.Configuration
    public var clipping: ClippingDetector.Configuration
    public var quietSpeech: QuietSpeechDetector.Configuration
    /// How frames of a steady background are kept from being speech (the voice detector only).
    public var background: SteadyBackgroundGate.Configuration
    /// How keystrokes are told from other clicks, and how much typing raises `keyboard_noise`.
    public var keyboard: KeyboardNoiseDetector.Configuration

    public init(
        detector: SpeechDetectorKind = .vad, speech: SpeechEventDetector.Configuration = .default,
        frame: SpeechFrameDecision.Configuration = .default,
        silence: SilentMicrophoneDetector.Configuration = .default,
        noise: NoisyMicrophoneDetector.Configuration = .default,
        clipping: ClippingDetector.Configuration = .default,
        quietSpeech: QuietSpeechDetector.Configuration = .default,
        background: SteadyBackgroundGate.Configuration = .default,
        keyboard: KeyboardNoiseDetector.Configuration = .default
    ) {
        self.detector = detector
        self.speech = speech
        self.frame = frame
        self.silence = silence
        self.noise = noise
        self.clipping = clipping
        self.quietSpeech = quietSpeech
        self.background = background
        self.keyboard = keyboard
    }
}

/// How a stream is analysed: the speech detector and its rules, how each frame's `speech` is decided,
/// and the microphone health detectors' settings. ``StreamingAnalysis`` takes one.
public struct AnalysisConfiguration: Sendable, Equatable {
    /// Which detector decides speech: the voice activity detector (`vad`, the default) or the level rule.
    public var detector: SpeechDetectorKind
    /// When utterances start and end (`speech_started`, `speech_ended`).
    public var speech: SpeechEventDetector.Configuration
    /// How each frame's `speech` is decided (the voice detector only).
    public var frame: SpeechFrameDecision.Configuration
    /// When the microphone is judged dead (`microphone_silent`) and alive again.
    public var silence: SilentMicrophoneDetector.Configuration
    /// When background noise raises `noisy_microphone`, and when it clears.
    public var noise: NoisyMicrophoneDetector.Configuration
    /// When the input hitting a ceiling raises `clipping`, and when it ends.
    public var clipping: ClippingDetector.Configuration
    /// When speech is too quiet (`speech_too_quiet`), and when its level is good again.
    public var quietSpeech: QuietSpeechDetector.Configuration
    /// How frames of a steady background are kept from being speech (the voice detector only).
    public var background: SteadyBackgroundGate.Configuration
    /// How keystrokes are told from other clicks, and how much typing raises `keyboard_noise`.
    public var keyboard: KeyboardNoiseDetector.Configuration

    /// A configuration: the voice detector (`vad`) and each part's `default`, unless given.
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

/// Which detector decides "speech".
public enum SpeechDetectorKind: String, Sendable, CaseIterable {
    /// MicCheck's voice activity detector.
    case vad
    /// The call-SDK cookbook rule: any of the last three levels above -50 dBFS.
    case level
}

/// What the analysis reports for one 10 ms frame.
public struct AnalysisFrame: Sendable, Equatable {
    /// The frame's position among the frames this analyzer produced.
    public var index: Int
    /// Start of the frame, in seconds from the start of the input (``StreamingAnalysis/startTime`` included).
    public var time: Double
    /// The frame's RMS level at the input's rate, dBFS (floor -160).
    public var levelDB: Float
    /// The frame's peak level, dBFS (floor -160).
    public var peakDB: Float
    /// Speech probability (for the level rule: the display value of the loudest of the last levels).
    public var probability: Float
    /// Whether this frame is speech: ``SpeechFrameDecision``'s verdict inside an utterance (``isSpeaking``) or in
    /// the seconds after one, never where no utterance has started (for the level rule, its verdict).
    public var isSpeech: Bool
    /// Whether an utterance is in progress: on from the frame with `speech_started` until the frame
    /// before `speech_ended`. It stays on through the pauses inside an utterance; a speaking
    /// indicator shows this. With a look-ahead model a frame's record is decided that many frames
    /// later, so this turns on and off that many frames before the events' times.
    public var isSpeaking: Bool

    /// A frame record from its fields.
    public init(
        index: Int, time: Double, levelDB: Float, peakDB: Float, probability: Float, isSpeech: Bool, isSpeaking: Bool
    ) {
        self.index = index
        self.time = time
        self.levelDB = levelDB
        self.peakDB = peakDB
        self.probability = probability
        self.isSpeech = isSpeech
        self.isSpeaking = isSpeaking
    }
}

/// Something that happened at a moment of the input.
///
/// Events come in pairs that open and close a state: ``speechStarted(time:audioStart:)`` and
/// ``speechEnded(time:)``, ``microphoneSilent(time:signature:)`` and ``microphoneActive(time:)``,
/// ``noisyMicrophone(time:noise:levelDB:)`` and ``microphoneClean(time:)``, ``clipping(time:ceilingDB:share:)``
/// and ``clippingEnded(time:)``, ``speechTooQuiet(time:levelDB:)`` and ``speechLevelOK(time:levelDB:)``; the
/// others (typing, the wrong source) are one-off notices. Match the cases the app reacts to and let the
/// rest fall through to a `default`: later versions add cases (each announced in the CHANGELOG), and an
/// app that lists every case today stops compiling then, where one with a `default` goes on.
///
/// ```swift
/// switch event {
/// case .speechStarted: showSpeaking(true)
/// case .speechEnded: showSpeaking(false)
/// case .microphoneSilent: showNotWorking(true)
/// case .microphoneActive: showNotWorking(false)
/// default: break  // warnings, typing: not shown by this app
/// }
/// ```
///
/// For a sentence to show, ``MicrophoneCheck`` (the call's rules) turns these events into what the user
/// sees; ``name`` is the event's name in the JSON Lines contract.
public enum AnalysisEvent: Sendable, Equatable {
    /// Speech started; `audioStart` is where the utterance's audio begins (the decision time less the
    /// prefix padding, never before 0).
    case speechStarted(time: Double, audioStart: Double)
    /// The utterance ended (after the hangover: the time is when the decision was made).
    case speechEnded(time: Double)
    /// The microphone seems not to work (digital silence, a constant value, a dead device's hiss): what
    /// it delivers is described by `signature`.
    case microphoneSilent(time: Double, signature: DeadMicrophoneSignature)
    /// Sound again after ``microphoneSilent(time:signature:)``.
    case microphoneActive(time: Double)
    /// Steady background noise loud enough to bother others, while the user is not talking: its kind
    /// where it is clear, and its level (dBFS).
    case noisyMicrophone(time: Double, noise: NoiseKind?, levelDB: Float)
    /// The background noise has gone.
    case microphoneClean(time: Double)
    /// The input hits a ceiling (dBFS) often enough to distort; `share`: the fraction of samples cut flat.
    case clipping(time: Double, ceilingDB: Float, share: Float)
    /// No clipping for a while.
    case clippingEnded(time: Double)
    /// The user's speech arrives with an active level (dBFS) too low for others to hear it well.
    case speechTooQuiet(time: Double, levelDB: Float)
    /// The user's speech has come up to a good level (dBFS) again.
    case speechLevelOK(time: Double, levelDB: Float)
    /// A keyboard heard while the user is not speaking: a stretch of keystrokes (see
    /// ``KeyboardNoiseDetector``); raised once per stretch of typing and again every 10 s while it goes on.
    case keyboardNoise(time: Double, typing: KeyboardNoiseDetector.Typing)
    /// The source is the monitor of an output (what the speakers play), not a microphone. Raised once,
    /// at the start, by live capture (the analyzer never raises it).
    case wrongSource(time: Double, source: String)

    /// The event's time, in seconds from the start of the input: when it was decided.
    public var time: Double {
        switch self {
        case .speechStarted(let t, _), .speechEnded(let t), .microphoneSilent(let t, _), .microphoneActive(let t),
            .noisyMicrophone(let t, _, _), .microphoneClean(let t), .clipping(let t, _, _), .clippingEnded(let t),
            .speechTooQuiet(let t, _), .speechLevelOK(let t, _), .wrongSource(let t, _), .keyboardNoise(let t, _):
            t
        }
    }

    /// The event's name in the JSON Lines contract.
    public var name: String {
        switch self {
        case .speechStarted: "speech_started"
        case .speechEnded: "speech_ended"
        case .microphoneSilent: "microphone_silent"
        case .microphoneActive: "microphone_active"
        case .noisyMicrophone: "noisy_microphone"
        case .microphoneClean: "microphone_clean"
        case .clipping: "clipping"
        case .clippingEnded: "clipping_ended"
        case .speechTooQuiet: "speech_too_quiet"
        case .speechLevelOK: "speech_level_ok"
        case .wrongSource: "wrong_source"
        case .keyboardNoise: "keyboard_noise"
        }
    }
}

/// One record of the analysis stream.
public enum AnalysisOutput: Sendable, Equatable {
    /// A frame's record, one every 10 ms.
    case frame(AnalysisFrame)
    /// An event, when it is decided.
    case event(AnalysisEvent)

    /// The frame's start or the event's time.
    public var time: Double {
        switch self {
        case .frame(let f): f.time
        case .event(let e): e.time
        }
    }
}

/// One call participant's microphone, as the page shows it: its audio analysed (``StreamingAnalysis``), the
/// call's rules run on the records (``MicrophoneRules``), "Test your microphone" recorded and judged
/// (``MicrophoneTest``), and everything the page must show said as the call protocol's messages:
/// `microphone` (the meter, speaking, "not working", the warnings; every 100 ms of audio, and at once when speaking
/// starts or ends), `muted_notice`,
/// `typing_notice` and `microphone_test`.
///
/// The page runs it in its WebAssembly on its own microphone, so no audio leaves the device; the server's
/// `CallChannel` runs the same value on audio a page sends it (`analysis: 'server'`). Either way a page gets
/// the same messages, byte for byte.
public struct MicrophoneChannel: Sendable {
    /// A message for the page (JSON text); `isLevel`: a meter report, which a slow reader may miss.
    public struct Message: Sendable, Equatable {
        /// The message's JSON text.
        public var text: String
        /// Whether it is a meter report (`microphone`), which a slow reader may miss.
        public var isLevel: Bool

        /// A message of this JSON text.
        public init(text: String, isLevel: Bool) {
            self.text = text
            self.isLevel = isLevel
        }
    }

    /// Samples per second of the audio ``audio(_:now:emit:)`` takes.
    public let sampleRate: Int
    /// The call's rules on this microphone: the check, the notices, whether the participant speaks.
    public private(set) var rules: MicrophoneRules
    /// The analysis, made with the first audio: a channel whose page analyses its own microphone (the server's
    /// device mode) receives none, and does not spend the analyser's 66 KB a participant on it.
    private var stream: StreamingAnalysis?
    /// Whether `stream` was made (a flag: asking the optional copied the whole analysis in WebAssembly).
    private var analysing = false
    private let model: VoiceActivityModel
    private var test = MicrophoneTestRecording()
    private var lastReport: String?
    private var records: [AnalysisOutput] = []

    /// - Parameters:
    ///   - audioOn: the microphone's toggle; `maySendAudio`: the call grants sending audio.
    ///   - now: seconds on the owner's clock.
    /// - Throws: ``AnalysisError`` for a sample rate the analysis does not take.
    public init(
        sampleRate: Int, audioOn: Bool, maySendAudio: Bool = true, now: Double,
        model: VoiceActivityModel = .bundled
    ) throws(AnalysisError) {
        try StreamingAnalysis.check(sampleRate)
        self.sampleRate = sampleRate
        self.model = model
        rules = MicrophoneRules(audioOn: audioOn, maySendAudio: maySendAudio, place: .lobby, now: now)
        records.reserveCapacity(16)
    }

    /// Whether the participant speaks now (presence publishes it while the microphone is on).
    public var isSpeaking: Bool { rules.isSpeaking }
    /// Whether a microphone test is recording.
    public var isTesting: Bool { test.isRecording }

    /// A block of the microphone (mono, −1…1, at ``sampleRate``), received at `now`.
    public mutating func audio(_ samples: UnsafeBufferPointer<Float>, now: Double, emit: (Message) -> Void) {
        test.feed(samples) { emit(Message(text: $0, isLevel: false)) }
        records.removeAll(keepingCapacity: true)
        // The rate was checked when the channel was made: the analysis cannot refuse it.
        if !analysing {
            stream = try? StreamingAnalysis(sampleRate: sampleRate, model: model)
            analysing = true
        }
        Self.analyse(samples, &stream, &records)
        for r in records { follow(now: now, emit: emit) { rules, act in rules.record(r, now: now, act: act) } }
    }

    private static func analyse(
        _ samples: UnsafeBufferPointer<Float>, _ stream: inout StreamingAnalysis?, _ records: inout [AnalysisOutput]
    ) {
        stream?.process(samples) { records.append($0) }
    }

    /// The microphone's toggle (and why it is off, when it is: nil, unchanged); a report follows unless
    /// `reporting` is false (the owner sends one after a message of its own).
    public mutating func setMicrophone(
        on: Bool, cause: MuteCause? = nil, now: Double, reporting: Bool = true, emit: (Message) -> Void
    ) {
        follow(now: now, emit: emit) { rules, act in rules.setMicrophone(on: on, cause: cause, now: now, act: act) }
        if reporting { report(now: now, emit: emit) }
    }

    /// The participant joined the call or left it (a typing notice is for the call only).
    public mutating func enter(_ place: MicrophoneRules.Place) { rules.enter(place) }

    /// "Don't show again for this call."
    public mutating func silenceMutedNotice(emit: (Message) -> Void) {
        rules.silenceMutedNotice()
        emit(Self.noticeMessage(show: false, rules: rules))
    }

    /// The owner's clock moved without audio: a stalled microphone test ends, the check may warn of a
    /// stall, and a participant whose audio stopped mid-utterance stops speaking.
    public mutating func tick(now: Double, emit: (Message) -> Void) {
        test.tick(now: now) { emit(Message(text: $0, isLevel: false)) }
        follow(now: now, emit: emit) { rules, act in rules.tick(now: now, act: act) }
        report(now: now, emit: emit)
    }

    /// "Test your microphone": the next `seconds` (1 to 10) of audio are recorded and judged. Returns a
    /// sentence saying why not, or nil once it records.
    public mutating func startTest(seconds: Double, now: Double, emit: (Message) -> Void) -> String? {
        test.start(seconds: seconds, sampleRate: sampleRate, now: now) { emit(Message(text: $0, isLevel: false)) }
    }

    /// Stops a microphone test that is recording: it ends `cancelled`.
    public mutating func cancelTest(emit: (Message) -> Void) {
        test.cancel { emit(Message(text: $0, isLevel: false)) }
    }

    /// Changes the rules, then says what they decided.
    private mutating func follow(
        now: Double, emit: (Message) -> Void,
        _ change: (inout MicrophoneRules, (MicrophoneRules.Action) -> Void) -> Void
    ) {
        // A frame decides at most a report, an event at most the notices: an empty array makes no allocation.
        // Speaking that starts or ends is reported at once, not with the next 100 ms: the page's speaking ring and
        // the server's presence follow the decision, not the meter's cadence.
        var reportDue = false
        var notices: [MicrophoneRules.Action] = []
        change(&rules) { action in
            switch action {
            case .report, .speaking: reportDue = true
            case .mutedNotice, .typingNotice: notices.append(action)
            }
        }
        for action in notices {
            switch action {
            case .mutedNotice(let show): emit(Self.noticeMessage(show: show, rules: rules))
            case .typingNotice(let show): emit(Self.typingMessage(show: show, rules: rules))
            case .report, .speaking: break
            }
        }
        if reportDue { report(now: now, emit: emit) }
    }

    private static func noticeMessage(show: Bool, rules: MicrophoneRules) -> Message {
        let indicator = rules.notices.mutedIndicator
        let duration = Int((indicator.notice.configuration.displayDuration * 1000).rounded())
        return Message(
            text: JSONValue.object([
                ("type", .string("muted_notice")), ("show", .bool(show)), ("text", .string(MutedIndicator.text)),
                ("duration_ms", .int(duration)),
            ]).encoded, isLevel: false)
    }

    private static func typingMessage(show: Bool, rules: MicrophoneRules) -> Message {
        let duration = Int((rules.notices.typingNotice.configuration.displayDuration * 1000).rounded())
        return Message(
            text: JSONValue.object([
                ("type", .string("typing_notice")), ("show", .bool(show)), ("text", .string(TypingNotice.text)),
                ("action", .string(TypingNotice.action)), ("duration_ms", .int(duration)),
            ]).encoded, isLevel: false)
    }

    /// The meter and the check's state (`microphone`); sent when 100 ms of audio have passed, when speaking starts
    /// or ends, on a tick, on a toggle, and when the owner asks. A meter at rest is not repeated.
    public mutating func report(now: Double, emit: (Message) -> Void) {
        rules.reported()
        let check = rules.check
        let warning = check.showsSilentWarning(at: now) ? JSONValue.string(MicrophoneCheck.silentWarning) : .null
        let text = JSONValue.object([
            ("type", .string("microphone")), ("on", .bool(check.isOn)),
            ("level_db", .number(Double(check.levelDB), decimals: 1)),
            ("display", .number(Double(check.displayLevel), decimals: 3)),
            ("speaking", .bool(rules.isSpeaking)),
            ("not_working", warning),
            ("warnings", .array(check.shownWarnings.map { .string($0.sentence()) })),
        ]).encoded
        // A meter at rest need not be repeated every tick.
        if let last = lastReport, text.utf8.elementsEqual(last.utf8),
            !check.isOn || check.lastAudioAt.map({ now - $0 > 0.5 }) ?? true
        {
            return
        }
        lastReport = text
        emit(Message(text: text, isLevel: true))
    }
}

public import MicCheck

/// The analysis of one live stream in push mode: the caller hands in blocks as they arrive and gets the
/// records at once, in time order, on its own thread. ``LiveAnalysis`` runs one around a source it
/// reads; a server runs one per connection on the task that receives the connection's messages, so
/// that a thousand connections need no thread each.
///
/// It owns the analyzer, the time ordering of its records (``TimeOrderedRecords``) and the restart
/// policy's arithmetic: a new stream resumes at a 10 ms frame boundary, so `t` keeps counting.
///
/// - Important: `process` allocates nothing and takes no locks; one owner at a time.
public struct StreamingAnalysis: Sendable {
    public private(set) var analyzer: Analyzer
    private var order = TimeOrderedRecords()
    private let model: VoiceActivityModel

    /// - Throws: ``AudioSourceError/Kind/badData`` when `sampleRate` is not one of
    ///   `AudioFormat.supportedSampleRates`.
    public init(sampleRate: Int, configuration: Analyzer.Configuration = Analyzer.Configuration(),
                model: VoiceActivityModel = .bundled, startTime: Double = 0, label: String = "the stream") throws(AudioSourceError) {
        try Self.check(sampleRate, label: label)
        self.model = model
        analyzer = Analyzer(inputRate: sampleRate, configuration: configuration, startTime: startTime, model: model)
    }

    /// The time just after the last analysed frame, in seconds.
    public var endTime: Double { analyzer.endTime }

    /// Analyses `samples` (mono, at the stream's rate) and emits the records they decide, in time order.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, emit: (AnalysisOutput) -> Void) {
        Self.process(samples, &analyzer, &order, emit)
    }

    // Disjoint stored properties as two inout arguments: no copy of the order's buffer.
    private static func process(_ samples: UnsafeBufferPointer<Float>, _ analyzer: inout Analyzer,
                                _ order: inout TimeOrderedRecords, _ emit: (AnalysisOutput) -> Void) {
        analyzer.process(samples) { order.add($0, emit: emit) }
    }

    private static func finish(_ analyzer: inout Analyzer, _ order: inout TimeOrderedRecords, _ emit: (AnalysisOutput) -> Void) {
        analyzer.finish { order.add($0, emit: emit) }
        order.flush(emit: emit)
    }

    /// Ends the stream: analyses what is left and emits the last records (an open utterance ends).
    public mutating func finish(emit: (AnalysisOutput) -> Void) {
        Self.finish(&analyzer, &order, emit)
    }

    /// Ends the current stream and starts another at `sampleRate`, resuming at the first frame boundary
    /// at or after both the audio so far and `notBefore` (seconds: the wall clock since the start, for a
    /// source that was away). Returns the time the new stream starts at.
    @discardableResult
    public mutating func restart(sampleRate: Int, notBefore: Double = 0, label: String = "the stream",
                                 emit: (AnalysisOutput) -> Void) throws(AudioSourceError) -> Double {
        finish(emit: emit)
        try Self.check(sampleRate, label: label)
        let frames = Double(LevelMeter.framesPerSecond)
        // (Less a microsecond, so that a time on a boundary, give or take rounding, stays on it.)
        let resume = (max(analyzer.endTime, notBefore) * frames - 1e-4).rounded(.up) / frames
        analyzer = Analyzer(inputRate: sampleRate, configuration: analyzer.configuration, startTime: resume, model: model)
        return resume
    }

    /// Changes how speech is decided from the next frame on, keeping the stream's state (an utterance
    /// in progress stays in progress).
    public mutating func updateSpeech(_ speech: SpeechEventDetector.Configuration) {
        analyzer.updateSpeech(speech)
    }

    private static func check(_ rate: Int, label: String) throws(AudioSourceError) {
        guard AudioFormat.supportedSampleRates.contains(rate) else {
            throw AudioSourceError(.badData, "\(label): \(rate) Hz is not a supported sample rate")
        }
    }
}

/// The analysis of one stream: mono samples at any supported rate in, frame and event records out, in
/// time order. The caller hands in blocks as they arrive (a file loop, a capture thread, a network
/// connection's task) and gets the records at once, on its own thread. MicCheckLive's `LiveAnalysis`
/// runs one around a source it reads; a server runs one per connection, so that a thousand connections
/// need no thread each.
///
/// It owns the frame-by-frame analysis (levels, voice activity, detectors), the time ordering of its
/// records (with a look-ahead model an event is decided before the last few frames' records, at most
/// 30 ms of them: it waits for them here) and the restart arithmetic: a new stream resumes at a 10 ms
/// frame boundary, so `t` keeps counting.
///
/// - Important: `process` and `finish` allocate nothing and take no locks; one owner at a time.
public struct StreamingAnalysis: Sendable {
    private var analyzer: Analyzer
    private var order = TimeOrderedRecords()
    private let model: VoiceActivityModel

    /// - Parameters:
    ///   - model: the voice model; another than the bundled one is for evaluating retrained models, and
    ///     must read ``VoiceFeatureExtractor/count`` or ``VoiceFeatureExtractor/coreCount`` features.
    ///   - startTime: the time of the first frame, in seconds.
    /// - Throws: ``AnalysisError/unsupportedSampleRate(_:)`` when `sampleRate` is not one of
    ///   ``AudioFormat/supportedSampleRates``.
    public init(
        sampleRate: Int, configuration: AnalysisConfiguration = AnalysisConfiguration(),
        model: VoiceActivityModel = .bundled, startTime: Double = 0
    ) throws(AnalysisError) {
        try Self.check(sampleRate)
        self.model = model
        analyzer = Analyzer(inputRate: sampleRate, configuration: configuration, startTime: startTime, model: model)
    }

    /// The rate of the samples ``process(_:emit:)`` takes now (Hz).
    public var sampleRate: Int { analyzer.inputRate }
    /// How the stream is analysed (with the speech settings of the last ``updateSpeech(_:)``).
    public var configuration: AnalysisConfiguration { analyzer.configuration }
    /// The time of the current stream's first frame, in seconds (after a ``restart(sampleRate:notBefore:emit:)``,
    /// the time it resumed at).
    public var startTime: Double { analyzer.startTime }
    /// The time just after the last analysed frame, in seconds.
    public var endTime: Double { analyzer.endTime }

    /// Analyses `samples` (mono, at the stream's rate) and emits the records they decide, in time order.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, emit: (AnalysisOutput) -> Void) {
        Self.process(samples, &analyzer, &order, emit)
    }

    // Disjoint stored properties as two inout arguments: no copy of the order's buffer.
    private static func process(
        _ samples: UnsafeBufferPointer<Float>, _ analyzer: inout Analyzer,
        _ order: inout TimeOrderedRecords, _ emit: (AnalysisOutput) -> Void
    ) {
        analyzer.process(samples) { order.add($0, emit: emit) }
    }

    private static func finish(
        _ analyzer: inout Analyzer, _ order: inout TimeOrderedRecords, _ emit: (AnalysisOutput) -> Void
    ) {
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
    /// - Throws: ``AnalysisError/unsupportedSampleRate(_:)`` (the current stream is then finished).
    @discardableResult
    public mutating func restart(
        sampleRate: Int, notBefore: Double = 0,
        emit: (AnalysisOutput) -> Void
    ) throws(AnalysisError) -> Double {
        finish(emit: emit)
        try Self.check(sampleRate)
        let frames = Double(LevelMeter.framesPerSecond)
        // (Less a microsecond, so that a time on a boundary, give or take rounding, stays on it.)
        let resume = (max(analyzer.endTime, notBefore) * frames - 1e-4).rounded(.up) / frames
        analyzer = Analyzer(
            inputRate: sampleRate, configuration: analyzer.configuration, startTime: resume, model: model)
        return resume
    }

    /// Changes how speech starts and ends from the next frame on, keeping the stream's state (an
    /// utterance in progress stays in progress).
    public mutating func updateSpeech(_ speech: SpeechEventDetector.Configuration) {
        analyzer.updateSpeech(speech)
    }

    /// Refuses a rate the analysis does not take (also asked by a channel that makes its analysis later).
    static func check(_ rate: Int) throws(AnalysisError) {
        guard AudioFormat.supportedSampleRates.contains(rate) else { throw .unsupportedSampleRate(rate) }
    }
}

/// The raw frame-by-frame analysis engine, the low-level piece under ``StreamingAnalysis`` (package
/// access: tests, benchmarks and fuzz targets drive it directly; apps use ``StreamingAnalysis``).
/// Mono samples at any supported rate in, frames and events out.
///
/// Levels are measured at the input's own rate; the voice detector reads the signal resampled to
/// 16 kHz. An event comes out as soon as it is decided, stamped with the frame whose audio decided it.
/// Frame records come out in order, but with a look-ahead model (``VoiceActivityModel/lookahead``) each
/// waits until the model has heard that many frames more, so an event can come before the last few
/// frames' records (at most 30 ms of them); `TimeOrderedRecords` puts a stream back in time order.
/// Without look-ahead (and with the level rule) everything is in time order, an event after the frame
/// on which it was decided.
///
/// - Important: `process` and `finish` allocate nothing and take no locks; the engine is meant to be
///   owned by one thread (a capture callback or a file loop). The sample rate must be one of
///   ``AudioFormat/supportedSampleRates`` (a precondition; ``StreamingAnalysis`` checks it and throws).
package struct Analyzer: Sendable {
    package typealias Configuration = AnalysisConfiguration

    package let inputRate: Int
    package private(set) var configuration: Configuration
    /// The time of the first frame, in seconds: a live capture that resumes after a gap (a new stream,
    /// a reconnected server) starts a new analyzer here so that `t` keeps counting.
    package let startTime: Double
    private let block: Int
    private var meter: LevelMeter
    private var framer: Framer
    private var pending: [FrameLevel]  // native-rate levels waiting for their 16 kHz frame
    private var pendingHead = 0
    private var pendingCount = 0
    private var vad: VoiceActivityDetector
    private var background: SteadyBackgroundGate
    private var speech: SpeechEventDetector
    private var frameDecision: SpeechFrameDecision
    private var levelRule: LevelRuleDetector
    private var silence: SilentMicrophoneDetector
    private var noise: NoisyMicrophoneDetector
    private var clipping: ClippingDetector
    private var quietSpeech: QuietSpeechDetector
    private var keyboard: KeyboardNoiseDetector
    private var frameIndex = 0
    private var finished = false
    /// Frames whose record waits for the model's look-ahead: their levels, oldest first (a ring).
    private let lookahead: Int
    private var awaiting: [FrameLevel]
    private var awaitingHead = 0
    private var awaitingCount = 0
    private var lastProbability: Float = 0
    private var recordIndex = 0

    /// Frames analysed so far.
    package var frameCount: Int { frameIndex }
    /// The time just after the last analysed frame, in seconds.
    package var endTime: Double { time(ofFrame: frameIndex) }
    /// The voice features of the last analysed frame (the model's input; for training and inspection).
    package var lastFeatures: [Float] { vad.lastFeatures }

    /// - Parameter model: the voice model; another than the bundled one is for evaluating retrained
    ///   models, and must read ``VoiceFeatureExtractor/count`` or ``VoiceFeatureExtractor/coreCount`` features.
    package init(
        inputRate: Int, configuration: Configuration = Configuration(), startTime: Double = 0,
        model: VoiceActivityModel = .bundled
    ) {
        precondition(AudioFormat.supportedSampleRates.contains(inputRate), "unsupported sample rate")
        self.inputRate = inputRate
        self.configuration = configuration
        self.startTime = startTime
        block = max(1, inputRate / LevelMeter.framesPerSecond)
        meter = LevelMeter(sampleRate: inputRate)
        framer = Framer(inputRate: inputRate)
        pending = [FrameLevel](
            repeating: FrameLevel(
                index: 0, rmsDB: Decibels.floor, peakDB: Decibels.floor,
                minimum: 0, maximum: 0, meanSquare: 0), count: 64)
        vad = VoiceActivityDetector(model: model)
        background = SteadyBackgroundGate(configuration: configuration.background)
        lookahead = configuration.detector == .vad ? model.lookahead : 0
        awaiting = [FrameLevel](repeating: pending[0], count: VoiceActivityModel.maximumLookahead + 1)
        speech = SpeechEventDetector(configuration: configuration.speech)
        frameDecision = SpeechFrameDecision(configuration: configuration.frame)
        levelRule = LevelRuleDetector()
        silence = SilentMicrophoneDetector(configuration: configuration.silence)
        noise = NoisyMicrophoneDetector(configuration: configuration.noise)
        clipping = ClippingDetector(configuration: configuration.clipping)
        quietSpeech = QuietSpeechDetector(configuration: configuration.quietSpeech)
        keyboard = KeyboardNoiseDetector(configuration: configuration.keyboard, startTime: startTime)
    }

    /// Feeds mono samples at ``inputRate``; calls `emit` for every record they complete.
    package mutating func process(_ samples: UnsafeBufferPointer<Float>, emit: (AnalysisOutput) -> Void) {
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + block)
            let part = UnsafeBufferPointer(rebasing: samples[start..<end])
            var m = meter  // a plain value (no buffers): copying it allocates nothing
            m.process(part) { level in pushLevel(level) }
            meter = m
            withFramer { framer, analyzer in framer.process(part) { analyzer.analyseFrame($0, emit: emit) } }
            start = end
        }
    }

    /// Changes how speech starts and ends from the next frame on (a streaming client's settings), keeping
    /// the detector's state: an utterance in progress stays in progress.
    package mutating func updateSpeech(_ speechConfiguration: SpeechEventDetector.Configuration) {
        configuration.speech = speechConfiguration
        speech.reconfigure(speechConfiguration)
    }

    /// Ends the input: analyses what the resampler still holds and closes an open speech segment.
    package mutating func finish(emit: (AnalysisOutput) -> Void) {
        guard !finished else { return }
        finished = true
        withFramer { framer, analyzer in framer.finish { analyzer.analyseFrame($0, emit: emit) } }
        // The last frames' records waited for audio that will not come: they keep the last probability.
        while awaitingCount > 0 { emitFrame(probability: lastProbability, emit: emit) }
        if speech.isSpeaking || (configuration.detector == .level && levelRule.isSpeaking) {
            emit(.event(.speechEnded(time: time(ofFrame: frameIndex))))
        }
    }

    @inline(__always)
    private func time(ofFrame index: Int) -> Double {
        startTime + Double(index) / Double(LevelMeter.framesPerSecond)
    }

    private mutating func pushLevel(_ level: FrameLevel) {
        if pendingCount == pending.count {  // cannot happen with per-frame blocks; keep the newest
            pendingHead = (pendingHead + 1) % pending.count
            pendingCount -= 1
        }
        pending[(pendingHead + pendingCount) % pending.count] = level
        pendingCount += 1
    }

    /// Lends the framer out while its frames are analysed (the analysis mutates `self`); a placeholder
    /// that holds no buffers stands in, so nothing is copied or allocated.
    private mutating func withFramer(_ body: (inout Framer, inout Analyzer) -> Void) {
        var lent = Framer(placeholderAt: inputRate)
        swap(&lent, &framer)
        body(&lent, &self)
        swap(&lent, &framer)
    }

    private mutating func analyseFrame(_ frame: UnsafeBufferPointer<Float>, emit: (AnalysisOutput) -> Void) {
        // The model's answer, held down on frames of a steady background (the noisy-microphone
        // detector's verdict of the frame before counts: a background it names is not speech).
        let prob = background.process(
            probability: vad.process(frame: frame), features: vad.features,
            steadyNoiseNamed: noise.namesSteadyBackground)
        let level: FrameLevel
        if pendingCount > 0 {
            level = pending[pendingHead]
            pendingHead = (pendingHead + 1) % pending.count
            pendingCount -= 1
        } else {
            // The input ended inside this frame: measure it from the 16 kHz signal.
            var ms = 0.0
            var sum = 0.0
            var peak: Float = 0
            var lo = Float.infinity
            var hi = -Float.infinity
            for x in frame {
                ms += Double(x * x)
                sum += Double(x)
                peak = max(peak, abs(x))
                lo = min(lo, x)
                hi = max(hi, x)
            }
            ms /= Double(frame.count)
            level = FrameLevel(
                index: frameIndex, rmsDB: Decibels.fromPower(ms), peakDB: Decibels.fromAmplitude(Double(peak)),
                minimum: lo, maximum: hi, meanSquare: ms, mean: sum / Double(frame.count))
        }
        let t = time(ofFrame: frameIndex)
        let silenceEvent = silence.process(level: level, bandFlatness: vad.features.bandFlatness)
        let speechEvent: SpeechActivityEvent?
        switch configuration.detector {
        case .vad:
            // With look-ahead, `prob` is an earlier frame's: its record goes out now, this frame's later.
            speechEvent = speech.process(probability: prob, levelDB: level.rmsDB)
            awaiting[(awaitingHead + awaitingCount) % awaiting.count] = level
            awaitingCount += 1
            lastProbability = prob
            if awaitingCount > lookahead { emitFrame(probability: prob, emit: emit) }
        case .level:
            speechEvent = levelRule.process(levelDB: level.rmsDB)
            let isSpeech = levelRule.isSpeaking
            emit(
                .frame(
                    AnalysisFrame(
                        index: frameIndex, time: t, levelDB: level.rmsDB, peakDB: level.peakDB,
                        probability: levelRule.score, isSpeech: isSpeech, isSpeaking: isSpeech)))
        }
        switch silenceEvent {
        case .silent(let sig): emit(.event(.microphoneSilent(time: t, signature: sig)))
        case .active: emit(.event(.microphoneActive(time: t)))
        case nil: break
        }
        switch speechEvent {
        case .started:
            emit(.event(.speechStarted(time: t, audioStart: max(startTime, t - configuration.speech.prefixPadding))))
        case .ended: emit(.event(.speechEnded(time: t)))
        case nil: break
        }
        healthEvents(level: level, probability: prob, time: t, emit: emit)
        // Keystrokes while the user is not speaking (with the level rule, any sound is "speaking").
        let speaking = configuration.detector == .vad ? speech.isSpeaking : levelRule.isSpeaking
        if let typing = keyboard.process(frame: frame, speaking: speaking, voice: prob, time: t) {
            emit(.event(.keyboardNoise(time: t, typing: typing)))
        }
        frameIndex += 1
    }

    /// The microphone's health besides a dead device: background noise, clipping, quiet speech. The
    /// speech probability is the model's latest (with look-ahead, that of a frame 30 ms earlier).
    private mutating func healthEvents(
        level: FrameLevel, probability: Float, time t: Double, emit: (AnalysisOutput) -> Void
    ) {
        let speaking = configuration.detector == .vad ? speech.isSpeaking : levelRule.isSpeaking
        switch noise.process(level: level, voice: probability, speaking: speaking, features: vad.features) {
        case .noisy(let kind, let db): emit(.event(.noisyMicrophone(time: t, noise: kind, levelDB: db)))
        case .clean: emit(.event(.microphoneClean(time: t)))
        case nil: break
        }
        switch clipping.process(level: level, samples: block) {
        case .clipping(let ceiling, let share): emit(.event(.clipping(time: t, ceilingDB: ceiling, share: share)))
        case .ended: emit(.event(.clippingEnded(time: t)))
        case nil: break
        }
        switch quietSpeech.process(level: level, probability: probability, speaking: speaking) {
        case .tooQuiet(let db): emit(.event(.speechTooQuiet(time: t, levelDB: db)))
        case .levelOK(let db): emit(.event(.speechLevelOK(time: t, levelDB: db)))
        case nil: break
        }
    }

    /// Emits the oldest awaiting frame's record with `probability`.
    private mutating func emitFrame(probability: Float, emit: (AnalysisOutput) -> Void) {
        let level = awaiting[awaitingHead]
        awaitingHead = (awaitingHead + 1) % awaiting.count
        awaitingCount -= 1
        let index = recordIndex
        recordIndex += 1
        // Frames held to the events: speech only inside an utterance or just after one (SpeechFrameDecision).
        let isSpeech = frameDecision.process(probability: probability, speaking: speech.isSpeaking)
        emit(
            .frame(
                AnalysisFrame(
                    index: index, time: time(ofFrame: index), levelDB: level.rmsDB, peakDB: level.peakDB,
                    probability: probability, isSpeech: isSpeech, isSpeaking: speech.isSpeaking)))
    }
}

/// Totals and verdicts over an analysed input, built from its records.
public struct AnalysisSummary: Sendable, Equatable {
    public private(set) var frames = 0
    public private(set) var speechFrames = 0
    public private(set) var loudestPeakDB: Float = Decibels.floor
    public private(set) var loudestLevelDB: Float = Decibels.floor
    public private(set) var utterances = 0
    public private(set) var silentEvents = 0
    /// The first dead-microphone verdict: when and why.
    public private(set) var firstSilent: (time: Double, signature: DeadMicrophoneSignature)?
    /// Whether the microphone was judged dead when the input ended.
    public private(set) var endsSilent = false

    public init() {}

    public mutating func add(_ output: AnalysisOutput) {
        switch output {
        case .frame(let f):
            frames += 1
            if f.isSpeech { speechFrames += 1 }
            loudestPeakDB = max(loudestPeakDB, f.peakDB)
            loudestLevelDB = max(loudestLevelDB, f.levelDB)
        case .event(let e):
            switch e {
            case .speechStarted: utterances += 1
            case .speechEnded: break
            case .microphoneSilent(let t, let sig):
                silentEvents += 1
                endsSilent = true
                if firstSilent == nil { firstSilent = (t, sig) }
            case .microphoneActive: endsSilent = false
            }
        }
    }

    public var duration: Double { Double(frames) / Double(LevelMeter.framesPerSecond) }
    public var speechTime: Double { Double(speechFrames) / Double(LevelMeter.framesPerSecond) }

    /// One line on whether the microphone works.
    public var microphoneVerdict: String {
        guard let first = firstSilent else { return "the microphone works" }
        let when = endsSilent ? "" : " (sound returned later)"
        return "the microphone seems dead from \(formatSeconds(first.time)): \(first.signature.explanation)\(when)"
    }

    public static func == (a: AnalysisSummary, b: AnalysisSummary) -> Bool {
        a.frames == b.frames && a.speechFrames == b.speechFrames && a.utterances == b.utterances
            && a.silentEvents == b.silentEvents && a.loudestPeakDB == b.loudestPeakDB
    }
}

/// Seconds as "12.34 s".
public func formatSeconds(_ t: Double) -> String {
    let hundredths = Int((t * 100).rounded())
    let frac = hundredths % 100
    return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac) s"
}

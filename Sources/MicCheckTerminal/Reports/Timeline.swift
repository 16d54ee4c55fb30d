public import MicCheck

/// The text report of an analysis, as `miccheck analyze` and `miccheck listen` print it: a timeline of events,
/// one line each, and a summary line.
public enum Timeline {
    /// An event as a line of the timeline: its time right-aligned in 12 columns, then what happened
    /// ("   1.50 s  speech started"). `source` names the microphone in the warnings that suggest changing its
    /// volume.
    public static func line(_ e: AnalysisEvent, source: String? = nil) -> String {
        let what: String
        switch e {
        case .speechStarted: what = "speech started"
        case .speechEnded: what = "speech ended"
        case .microphoneSilent(_, let sig): what = "microphone silent: \(sig.explanation)"
        case .microphoneActive: what = "microphone active again"
        case .microphoneClean: what = "microphone clean: the background noise has gone"
        case .clippingEnded: what = "clipping ended"
        case .speechLevelOK(_, let db): what = "speech level good again (\(fixed(Double(db), 1)) dBFS)"
        case .keyboardNoise(_, let typing):
            what =
                "keyboard noise: typing heard since \(formatSeconds(typing.since)) while you are not speaking "
                + "(\(typing.keystrokes) keystrokes, \(fixed(Double(typing.levelDB), 1)) dBFS)"
        case .noisyMicrophone, .clipping, .speechTooQuiet, .wrongSource:
            let w = e.raisedWarning
            what = "\(w?.kind.displayName ?? e.name): \(w?.sentence(source: source) ?? "")"
        }
        return at(e.time, what)
    }

    /// A line of the timeline at `time`: "   1.50 s  You are muted." (the time right-aligned in 12 columns).
    public static func at(_ time: Double, _ what: String) -> String {
        let t = formatSeconds(time)
        return String(repeating: " ", count: max(2, 12 - t.count)) + t + "  " + what
    }

    /// The summary line: speech time and share, utterances, the loudest level and peak, the microphone's
    /// verdict, and the warnings raised.
    public static func summary(_ s: AnalysisSummary) -> String {
        let share = s.duration > 0 ? Int((100 * s.speechTime / s.duration).rounded()) : 0
        return "  summary: speech \(formatSeconds(s.speechTime)) of \(formatSeconds(s.duration)) (\(share)%), "
            + "\(s.utterances) utterance\(s.utterances == 1 ? "" : "s"), "
            + "loudest level \(fixed(Double(s.loudestLevelDB), 1)) dBFS, "
            + "peak \(fixed(Double(s.loudestPeakDB), 1)) dBFS; \(s.microphoneVerdict)"
            + (s.warningsLine.map { "; warnings: \($0)" } ?? "")
    }
}

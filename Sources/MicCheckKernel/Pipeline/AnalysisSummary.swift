/// Totals and verdicts over an analysed input, built from its records.
public struct AnalysisSummary: Sendable, Equatable {
    /// Frames analysed (10 ms each).
    public private(set) var frames = 0
    /// Frames that were speech.
    public private(set) var speechFrames = 0
    /// The highest frame peak level, dBFS (-160 before any frame).
    public private(set) var loudestPeakDB: Float = Decibels.floor
    /// The highest frame RMS level, dBFS (-160 before any frame).
    public private(set) var loudestLevelDB: Float = Decibels.floor
    /// Utterances: how many `speech_started` events.
    public private(set) var utterances = 0
    /// How many times the microphone was judged dead (`microphone_silent` events).
    public private(set) var silentEvents = 0
    /// The first dead-microphone verdict: when and why.
    public private(set) var firstSilent: (time: Double, signature: DeadMicrophoneSignature)?
    /// Whether the microphone was judged dead when the input ended.
    public private(set) var endsSilent = false
    /// How many times each warning was raised.
    public private(set) var warnings: [MicrophoneWarning.Kind: Int] = [:]
    /// The first time each warning was raised, with its figures.
    public private(set) var firstWarnings: [MicrophoneWarning.Kind: (time: Double, warning: MicrophoneWarning)] = [:]

    /// An empty summary.
    public init() {}

    /// Counts one record of the analysis in.
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
            default:
                if let w = e.raisedWarning {
                    warnings[w.kind, default: 0] += 1
                    if firstWarnings[w.kind] == nil { firstWarnings[w.kind] = (e.time, w) }
                }
            }
        }
    }

    /// Seconds analysed: the frames, 10 ms each.
    public var duration: Double { Double(frames) / Double(LevelMeter.framesPerSecond) }
    /// Seconds of speech frames.
    public var speechTime: Double { Double(speechFrames) / Double(LevelMeter.framesPerSecond) }

    /// One line on whether the microphone works.
    public var microphoneVerdict: String {
        guard let first = firstSilent else { return "the microphone works" }
        let when = endsSilent ? "" : " (sound returned later)"
        return "the microphone seems dead from \(formatSeconds(first.time)): \(first.signature.explanation)\(when)"
    }

    /// How many times `kind` was raised.
    public func count(_ kind: MicrophoneWarning.Kind) -> Int { warnings[kind] ?? 0 }

    /// The warnings raised, as "noisy microphone 1× (a hum, -35.2 dBFS), clipping 2×", or `nil` when none was.
    public var warningsLine: String? {
        let parts = MicrophoneWarning.Kind.allCases.compactMap { kind -> String? in
            guard let n = warnings[kind], n > 0, let first = firstWarnings[kind] else { return nil }
            let name = kind.displayName
            let detail: String
            switch first.warning {
            case .noisy(let noise, let db):
                detail = "\(noise?.description ?? "unclear kind"), \(MicrophoneWarning.db(db)) dBFS"
            case .clipping(let ceiling, let share):
                detail = "\(MicrophoneWarning.percent(share)) at \(MicrophoneWarning.db(ceiling)) dBFS"
            case .speechTooQuiet(let db): detail = "\(MicrophoneWarning.db(db)) dBFS"
            case .wrongSource(let name): detail = name
            }
            return "\(name) \(n)× (first at \(formatSeconds(first.time)): \(detail))"
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// Whether two summaries say the same: every count, the loudest level and peak, and the first dead verdict
    /// and warnings with their times.
    public static func == (a: AnalysisSummary, b: AnalysisSummary) -> Bool {
        guard
            a.frames == b.frames && a.speechFrames == b.speechFrames && a.utterances == b.utterances
                && a.silentEvents == b.silentEvents && a.endsSilent == b.endsSilent && a.warnings == b.warnings
                && a.loudestPeakDB == b.loudestPeakDB && a.loudestLevelDB == b.loudestLevelDB
                && a.firstSilent?.time == b.firstSilent?.time && a.firstSilent?.signature == b.firstSilent?.signature
                && a.firstWarnings.count == b.firstWarnings.count
        else { return false }
        return a.firstWarnings.allSatisfy { kind, first in
            b.firstWarnings[kind].map { $0.time == first.time && $0.warning == first.warning } ?? false
        }
    }
}

// The package's own formatting of numbers in sentences and records (no locale, no printf, so that the page's
// WebAssembly writes the same text): shared by its modules, not API.

/// Seconds as "12.34 s".
package func formatSeconds(_ t: Double) -> String {
    let hundredths = Int((t * 100).rounded())
    let frac = hundredths % 100
    return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac) s"
}

/// `value` with a fixed number of decimals, without locale or `printf` ("-31.2", "0.93", "1.23"): half
/// away from zero; "0" for a value that is not finite.
package func fixed(_ value: Double, _ decimals: Int) -> String {
    var bytes: [UInt8] = []
    appendFixed(value, decimals, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// `fixed(_:_:)`'s text appended to `bytes` as UTF-8 (ASCII), digit by digit, with no string made.
package func appendFixed(_ value: Double, _ decimals: Int, to bytes: inout [UInt8]) {
    guard value.isFinite else {
        bytes.append(UInt8(ascii: "0"))
        return
    }
    var scale = 1
    for _ in 0..<max(0, decimals) { scale *= 10 }
    let scaled = (abs(value) * Double(scale)).rounded()
    guard scaled < 9e15 else {
        bytes.append(contentsOf: String(value).utf8)
        return
    }
    let n = Int(scaled)
    if value < 0 && n != 0 { bytes.append(UInt8(ascii: "-")) }
    appendDigits(n / scale, minimumCount: 1, to: &bytes)
    if decimals > 0 {
        bytes.append(UInt8(ascii: "."))
        appendDigits(n % scale, minimumCount: decimals, to: &bytes)
    }
}

/// The decimal digits of `n` (0 or more), zero-padded on the left to `minimumCount`.
private func appendDigits(_ n: Int, minimumCount: Int, to bytes: inout [UInt8]) {
    var digits: (UInt64, UInt64) = (0, 0)  // up to 32 digits, most significant last; no buffer allocated
    var count = 0
    var rest = n
    withUnsafeMutableBytes(of: &digits) { d in
        repeat {
            d[count] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            count += 1
        } while rest > 0 && count < 16
        while count < min(minimumCount, 16) {
            d[count] = UInt8(ascii: "0")
            count += 1
        }
        for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(d[k]) }
    }
}

/// An analysis drawn as an SVG plot (`miccheck analyze --plot`): the level above, the speech probability
/// below, speech shaded across both, and each event a dashed line. Collected in bounded memory: frames are
/// merged into at most ``maxBuckets`` time buckets (keeping each bucket's loudest level and highest
/// probability); when the buckets fill up, neighbours merge and each bucket covers twice the time.
///
/// ```swift
/// var plot = AnalysisPlot()
/// var analysis = try StreamingAnalysis(sampleRate: 16_000)
/// samples.withUnsafeBufferPointer { analysis.process($0) { plot.add($0) } }
/// analysis.finish { plot.add($0) }
/// let svg = plot.svg(title: "speech.wav")
/// ```
public struct AnalysisPlot: Sendable {
    /// The most time buckets kept.
    public static let maxBuckets = 2_048
    private(set) var framesPerBucket = 1
    private var level: [Float] = []
    private var prob: [Float] = []
    private var speech: [Bool] = []
    private var fill = 0
    private var frames = 0
    private var events: [AnalysisEvent] = []

    /// An empty plot; ``add(_:)`` the analysis's records in order.
    public init() {}

    /// Adds one record of the analysis, in the order the analysis gives them.
    public mutating func add(_ record: AnalysisOutput) {
        switch record {
        case .frame(let f):
            if fill == 0 {
                if level.count == Self.maxBuckets { halve() }
                level.append(f.levelDB)
                prob.append(f.probability)
                speech.append(f.isSpeech)
            } else {
                let i = level.count - 1
                level[i] = max(level[i], f.levelDB)
                prob[i] = max(prob[i], f.probability)
                speech[i] = speech[i] || f.isSpeech
            }
            fill = (fill + 1) % framesPerBucket
            frames += 1
        case .event(let e):
            if events.count < 2_000 { events.append(e) }
        }
    }

    private mutating func halve() {
        let n = level.count / 2
        for i in 0..<n {
            level[i] = max(level[2 * i], level[2 * i + 1])
            prob[i] = max(prob[2 * i], prob[2 * i + 1])
            speech[i] = speech[2 * i] || speech[2 * i + 1]
        }
        level.removeLast(level.count - n)
        prob.removeLast(prob.count - n)
        speech.removeLast(speech.count - n)
        framesPerBucket *= 2
    }

    /// The level axis's floor: the quietest level rounded down to 20 dB, from -40 to -120 dBFS (digital
    /// silence, at -160, sits on the -120 line).
    public var levelFloorDB: Int {
        let lowest = level.min() ?? -40
        let rounded = Int((lowest / 20).rounded(.down)) * 20
        return min(-40, max(-120, rounded))
    }

    /// The legend: the curves, then one entry per kind of event that happened (colour, label).
    public var legend: [(colour: String, label: String)] {
        var items: [(colour: String, label: String)] = [("#1565c0", "level"), ("#e65100", "speech probability")]
        if speech.contains(true) { items.append(("#c8e6c9", "speech")) }
        var seen: Set<String> = []
        for e in events {
            let (colour, label) = Self.style(e)
            if seen.insert(label).inserted { items.append((colour, label)) }
        }
        return items
    }

    /// An event's colour and its legend's label.
    private static func style(_ e: AnalysisEvent) -> (String, String) {
        switch e {
        case .speechStarted: ("#2e7d32", "speech_started")
        case .speechEnded: ("#9e9e9e", "speech_ended")
        case .microphoneSilent: ("#c62828", "microphone_silent")
        case .microphoneActive: ("#6a1b9a", "microphone_active")
        case .noisyMicrophone, .clipping, .speechTooQuiet, .wrongSource, .keyboardNoise: ("#f9a825", "warning")
        case .microphoneClean, .clippingEnded, .speechLevelOK: ("#558b2f", "warning cleared")
        }
    }

    /// The plot: level (dBFS, ``levelFloorDB``…0) above, speech probability below, speech shaded, events
    /// marked, and a legend of what is drawn.
    public func svg(title: String) -> String {
        let width = 1200.0
        let left = 60.0
        let right = 20.0
        let plotW = width - left - right
        let levelTop = 40.0
        let levelH = 200.0
        let probTop = 280.0
        let probH = 120.0
        let height = 450.0
        let duration = max(0.01, Double(frames) / Double(LevelMeter.framesPerSecond))
        let bucketSeconds = Double(framesPerBucket) / Double(LevelMeter.framesPerSecond)
        func x(_ t: Double) -> Double { left + plotW * min(1, max(0, t / duration)) }
        let floorDB = levelFloorDB
        func yLevel(_ db: Float) -> Double {
            levelTop + levelH * Double(min(1, max(0, db / Float(floorDB))))
        }
        func yProb(_ p: Float) -> Double { probTop + probH * Double(1 - min(1, max(0, p))) }
        func n(_ v: Double) -> String {
            String(Int((v * 10).rounded()) / 10) + "." + String(abs(Int((v * 10).rounded())) % 10)
        }

        var s =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        s +=
            "<text x=\"\(Int(left))\" y=\"20\" font-size=\"15\">\(xmlEscape(title)): level, speech probability, speech and events</text>\n"
        // Speech regions, shaded across both panels.
        var i = 0
        while i < speech.count {
            if speech[i] {
                var j = i
                while j < speech.count && speech[j] { j += 1 }
                let x0 = x(Double(i) * bucketSeconds)
                let x1 = x(Double(j) * bucketSeconds)
                s +=
                    "<rect x=\"\(n(x0))\" y=\"\(Int(levelTop))\" width=\"\(n(max(0.5, x1 - x0)))\" height=\"\(Int(probTop + probH - levelTop))\" fill=\"#c8e6c9\" opacity=\"0.7\"/>\n"
                i = j
            } else {
                i += 1
            }
        }
        // Axes and grid.
        for db in stride(from: 0, through: floorDB, by: -20) {
            let y = yLevel(Float(db))
            s +=
                "<line x1=\"\(Int(left))\" y1=\"\(n(y))\" x2=\"\(Int(width - right))\" y2=\"\(n(y))\" stroke=\"#ddd\"/>"
            s += "<text x=\"\(Int(left - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\">\(db)</text>\n"
        }
        s +=
            "<text x=\"14\" y=\"\(Int(levelTop + levelH / 2))\" transform=\"rotate(-90 14 \(Int(levelTop + levelH / 2)))\" text-anchor=\"middle\">level (dBFS)</text>\n"
        for p in [0.0, 0.5, 1.0] {
            let y = yProb(Float(p))
            s +=
                "<line x1=\"\(Int(left))\" y1=\"\(n(y))\" x2=\"\(Int(width - right))\" y2=\"\(n(y))\" stroke=\"#ddd\"/>"
            s += "<text x=\"\(Int(left - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\">\(n(p))</text>\n"
        }
        s +=
            "<text x=\"14\" y=\"\(Int(probTop + probH / 2))\" transform=\"rotate(-90 14 \(Int(probTop + probH / 2)))\" text-anchor=\"middle\">speech prob.</text>\n"
        let step = niceStep(duration)
        var t = 0.0
        while t <= duration + 1e-9 {
            s += "<text x=\"\(n(x(t)))\" y=\"\(Int(probTop + probH + 16))\" text-anchor=\"middle\">\(n(t)) s</text>\n"
            t += step
        }
        // Curves.
        func path(_ values: [Float], _ y: (Float) -> Double) -> String {
            var d = ""
            for (k, v) in values.enumerated() {
                d += (k == 0 ? "M" : "L") + n(x((Double(k) + 0.5) * bucketSeconds)) + " " + n(y(v)) + " "
            }
            return d
        }
        if !level.isEmpty {
            s += "<path d=\"\(path(level, yLevel))\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"1.2\"/>\n"
            s += "<path d=\"\(path(prob, yProb))\" fill=\"none\" stroke=\"#e65100\" stroke-width=\"1.2\"/>\n"
        }
        // Events.
        for e in events {
            let xe = n(x(e.time))
            s +=
                "<line x1=\"\(xe)\" y1=\"\(Int(levelTop))\" x2=\"\(xe)\" y2=\"\(Int(probTop + probH))\" stroke=\"\(Self.style(e).0)\" stroke-dasharray=\"3,3\"><title>\(e.name) at \(n(e.time)) s</title></line>\n"
        }
        var lx = left
        for (c, label) in legend {
            s +=
                "<rect x=\"\(n(lx))\" y=\"\(Int(height - 22))\" width=\"12\" height=\"12\" fill=\"\(c)\"/><text x=\"\(n(lx + 16))\" y=\"\(Int(height - 12))\">\(label)</text>\n"
            lx += 26 + Double(label.count) * 7
        }
        return s + "</svg>\n"
    }
}

private func niceStep(_ duration: Double) -> Double {
    for step in [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600] where duration / step <= 12 {
        return step
    }
    return 7200
}

private func xmlEscape(_ s: String) -> String {
    var out = String.UnicodeScalarView()
    for u in s.unicodeScalars {
        switch u {
        case "&": out.append(contentsOf: "&amp;".unicodeScalars)
        case "<": out.append(contentsOf: "&lt;".unicodeScalars)
        case ">": out.append(contentsOf: "&gt;".unicodeScalars)
        case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
        case "\t", "\n", "\r": out.append(" ")
        default: if u.value >= 0x20 { out.append(u) }  // other control characters are not XML
        }
    }
    return String(out)
}

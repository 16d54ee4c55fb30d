import MicCheck

/// Collects an analysis for an SVG plot in bounded memory: frames are merged into at most
/// `maxBuckets` time buckets (keeping each bucket's loudest level and highest probability); when the
/// buckets fill up, neighbours merge and each bucket covers twice the time.
struct PlotCollector {
    static let maxBuckets = 2_048
    private(set) var framesPerBucket = 1
    private var level: [Float] = []
    private var prob: [Float] = []
    private var speech: [Bool] = []
    private var fill = 0
    private var frames = 0
    private var events: [AnalysisEvent] = []

    mutating func add(_ record: AnalysisOutput) {
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

    /// The plot: level (dBFS, -100…0) above, speech probability below, speech shaded, events marked.
    func svg(title: String) -> String {
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
        func yLevel(_ db: Float) -> Double { levelTop + levelH * Double(min(1, max(0, -db / 100))) }
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
        for db in stride(from: 0, through: -100, by: -20) {
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
            let colour: String
            switch e {
            case .speechStarted: colour = "#2e7d32"
            case .speechEnded: colour = "#9e9e9e"
            case .microphoneSilent: colour = "#c62828"
            case .microphoneActive: colour = "#6a1b9a"
            case .noisyMicrophone, .clipping, .speechTooQuiet, .wrongSource, .keyboardNoise: colour = "#f9a825"
            case .microphoneClean, .clippingEnded, .speechLevelOK: colour = "#558b2f"
            }
            let xe = n(x(e.time))
            s +=
                "<line x1=\"\(xe)\" y1=\"\(Int(levelTop))\" x2=\"\(xe)\" y2=\"\(Int(probTop + probH))\" stroke=\"\(colour)\" stroke-dasharray=\"3,3\"><title>\(e.name) at \(n(e.time)) s</title></line>\n"
        }
        let legend: [(String, String)] = [
            ("#1565c0", "level"), ("#e65100", "speech probability"), ("#c8e6c9", "speech"),
            ("#2e7d32", "speech_started"), ("#9e9e9e", "speech_ended"),
            ("#c62828", "microphone_silent"), ("#6a1b9a", "microphone_active"),
            ("#f9a825", "warning"), ("#558b2f", "warning cleared"),
        ]
        var lx = left
        for (c, label) in legend {
            s +=
                "<rect x=\"\(n(lx))\" y=\"\(Int(height - 22))\" width=\"12\" height=\"12\" fill=\"\(c)\"/><text x=\"\(n(lx + 16))\" y=\"\(Int(height - 12))\">\(label)</text>\n"
            lx += 26 + Double(label.count) * 7
        }
        return s + "</svg>\n"
    }
}

func niceStep(_ duration: Double) -> Double {
    for step in [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600] where duration / step <= 12 {
        return step
    }
    return 7200
}

func xmlEscape(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}

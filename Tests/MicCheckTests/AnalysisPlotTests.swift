import MicCheck
import MicCheckTesting
import Testing

@Suite("the analysis plot")
struct AnalysisPlotTests {
    /// The plot of `samples` (16 kHz) as `analyze --plot` draws it.
    func plot(_ samples: [Float]) throws -> AnalysisPlot {
        var plot = AnalysisPlot()
        var analysis = try StreamingAnalysis(sampleRate: 16_000)
        samples.withUnsafeBufferPointer { analysis.process($0) { plot.add($0) } }
        analysis.finish { plot.add($0) }
        return plot
    }

    /// The level axis's labels, in the order drawn.
    func axisLabels(_ svg: String) -> [String] {
        svg.split(separator: "\n").compactMap { line -> String? in
            guard let anchor = line.range(of: "text-anchor=\"end\">") else { return nil }
            let label = line[anchor.upperBound...].prefix { $0 != "<" }
            return Int(label) == nil ? nil : String(label)
        }
    }

    @Test("a voice over a -70 dBFS room: the axis ends at -80 dBFS, and the legend holds only what happened")
    func voiceOverRoom() throws {
        let room = Signals.whiteNoise(rmsDB: -70, seconds: 1, sampleRate: 16_000)
        let voice = zip(
            Signals.voice(rmsDB: -26, seconds: 2, sampleRate: 16_000),
            Signals.whiteNoise(
                rmsDB: -70, seconds: 2, sampleRate: 16_000, seed: 9)
        ).map(+)
        let p = try plot(room + voice + room)
        #expect(p.levelFloorDB == -80)
        let svg = p.svg(title: "voice <1>")
        #expect(axisLabels(svg) == ["0", "-20", "-40", "-60", "-80"])
        let labels = p.legend.map(\.label)
        #expect(labels == ["level", "speech probability", "speech", "speech_started", "speech_ended"])
        #expect(!svg.contains("microphone_silent") && !svg.contains("warning"))
        #expect(svg.contains("voice &lt;1&gt;: level"))
    }

    @Test("digital silence sits on the axis's floor, -120 dBFS; no speech, no speech in the legend")
    func digitalSilence() throws {
        let p = try plot([Float](repeating: 0, count: 3 * 16_000))
        #expect(p.levelFloorDB == -120)
        let labels = p.legend.map(\.label)
        #expect(labels.first == "level" && !labels.contains("speech") && !labels.contains("speech_started"))
        #expect(labels.contains("microphone_silent"), "\(labels)")
        #expect(axisLabels(p.svg(title: "silence")).last == "-120")
    }

    @Test("a loud file keeps at least 40 dB of axis")
    func loud() throws {
        let p = try plot(Signals.whiteNoise(rmsDB: -12, seconds: 2, sampleRate: 16_000))
        #expect(p.levelFloorDB == -40)
    }
}

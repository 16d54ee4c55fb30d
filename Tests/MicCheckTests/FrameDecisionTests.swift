import Foundation
import MicCheck
import MicCheckTesting
import Testing

/// The bundled model made to answer `p` for every frame: its output layer reads nothing and its bias is
/// `p`'s logit. A stand-in for a model that sits just above the frame threshold over a sound it never heard.
private func constantModel(_ p: Double) throws -> VoiceActivityModel {
    try VoiceActivityModel(
        json: ModelFiles.bundled { json in
            guard var output = json["output"] as? [String: Any], let weights = output["weights"] as? [Double]
            else { return }
            output["weights"] = weights.map { _ in 0.0 }
            output["bias"] = [log(p / (1 - p))]
            json["output"] = output
        })
}

@Suite("Frame decisions agree with the events")
struct FrameDecisionTests {
    @Test(
        "a probability above the frame threshold that never starts speech marks no frame speech, so a summary never has speech time without an utterance",
        arguments: [0.55, 0.65, 0.75])
    func noSpeechWithoutAnUtterance(p: Double) throws {
        let x = Signals.voice(rmsDB: -26, seconds: 6, sampleRate: 16_000)
        let records = analyseRecords(x, rate: 16_000, model: try constantModel(p))
        let (frames, events) = records.split
        #expect(frames.count == 600 && frames.allSatisfy { abs(Double($0.probability) - p) < 0.01 })
        #expect(!events.contains { $0.name == "speech_started" })
        #expect(frames.filter(\.isSpeech).isEmpty, "\(frames.filter(\.isSpeech).count) of 600 frames called speech")
        var summary = AnalysisSummary()
        for r in records { summary.add(r) }
        #expect(summary.utterances == 0 && summary.speechTime == 0)
    }

    @Test("a probability that starts speech at once keeps every frame of the utterance speech")
    func everyFrameOfAnUtterance() throws {
        let x = Signals.voice(rmsDB: -26, seconds: 6, sampleRate: 16_000)
        let (frames, events) = analyse(x, rate: 16_000, model: try constantModel(0.9))
        #expect(events.filter { $0.name == "speech_started" }.count == 1)
        #expect(frames.allSatisfy(\.isSpeech))
    }

    @Test(
        "on speech, every speech frame lies inside an utterance, from its start decision to its end",
        arguments: [-20.0, -35.0, -50.0])
    func insideUtterances(level: Double) {
        var x = [Float](repeating: 0, count: 16_000)
        for _ in 0..<3 {
            x += Signals.voice(rmsDB: level, seconds: 3, sampleRate: 16_000)
            x += Signals.pinkNoise(rmsDB: level - 25, seconds: 2, sampleRate: 16_000, seed: 3)
        }
        let (frames, events) = analyse(x, rate: 16_000)
        #expect(frames.contains(where: \.isSpeech))
        #expect(frames.allSatisfy { !$0.isSpeech || $0.isSpeaking })
        let utterances = spans(events, until: Double(frames.count) / 100)
        // A frame's record goes out up to the model's look-ahead (30 ms) after the frame.
        let outside = frames.filter { f in
            f.isSpeech && !utterances.contains { f.time >= $0.0 - 0.031 && f.time <= $0.1 }
        }
        #expect(outside.isEmpty, "speech frames outside every utterance at \(outside.prefix(5).map(\.time))")
    }
}

/// Each utterance as (the start's time, the end's time or `end`).
func spans(_ events: [AnalysisEvent], until end: Double) -> [(Double, Double)] {
    var result: [(Double, Double)] = []
    var open: Double?
    for e in events {
        if e.name == "speech_started" { open = e.time }
        if e.name == "speech_ended", let start = open {
            result.append((start, e.time))
            open = nil
        }
    }
    if let open { result.append((open, end)) }
    return result
}

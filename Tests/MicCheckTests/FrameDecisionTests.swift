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
struct FramesAgreeWithEventsTests {
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

    @Test("the microphone test counts a frame the model half believes neither as the voice nor as the room")
    func microphoneTestRoom() throws {
        var test = try MicrophoneTest(sampleRate: 16_000, model: try constantModel(0.65))
        test.append(Signals.voice(rmsDB: -26, seconds: 5, sampleRate: 16_000))
        let verdict = test.finish()
        #expect(verdict.speechSeconds == 0 && verdict.kind == .noVoice)
        // Counted as the room, the voice itself would be the room's level (about -30 dBFS).
        #expect(verdict.noiseLevelDB == nil, "room \(String(describing: verdict.noiseLevelDB))")
        // At 0.3 the model takes nothing for speech: every frame is the room.
        var doubted = try MicrophoneTest(sampleRate: 16_000, model: try constantModel(0.3))
        doubted.append(Signals.voice(rmsDB: -26, seconds: 5, sampleRate: 16_000))
        #expect(doubted.finish().noiseLevelDB.map { $0 > -40 } == true)
    }

    @Test("a probability that starts speech at once keeps every frame of the utterance speech")
    func everyFrameOfAnUtterance() throws {
        let x = Signals.voice(rmsDB: -26, seconds: 6, sampleRate: 16_000)
        let (frames, events) = analyse(x, rate: 16_000, model: try constantModel(0.9))
        #expect(events.filter { $0.name == "speech_started" }.count == 1)
        #expect(frames.allSatisfy { $0.isSpeech })
    }

    @Test(
        "on speech, every speech frame lies inside an utterance or in the 5 s after one; with 0 s, inside only",
        arguments: [-20.0, -35.0, -50.0])
    func insideUtterances(level: Double) {
        var x = [Float](repeating: 0, count: 16_000)
        for _ in 0..<3 {
            x += Signals.voice(rmsDB: level, seconds: 3, sampleRate: 16_000)
            x += Signals.pinkNoise(rmsDB: level - 25, seconds: 2, sampleRate: 16_000, seed: 3)
        }
        for after in [5.0, 0] {
            let configuration = AnalysisConfiguration(frame: .init(afterUtterance: after))
            var a = Analyzer(inputRate: 16_000, configuration: configuration)
            var records: [AnalysisOutput] = []
            forEachBlock(of: x, sizes: [333]) { a.process($0) { records.append($0) } }
            a.finish { records.append($0) }
            let (frames, events) = records.split
            #expect(frames.contains { $0.isSpeech })
            if after == 0 { #expect(frames.allSatisfy { !$0.isSpeech || $0.isSpeaking }) }
            let utterances = spans(events, until: Double(frames.count) / 100)
            // A frame's record goes out up to the model's look-ahead (30 ms) after the frame.
            let outside = frames.filter { f in
                f.isSpeech && !utterances.contains { f.time >= $0.0 - 0.031 && f.time <= $0.1 + after }
            }
            #expect(outside.isEmpty, "after \(after) s: speech frames outside at \(outside.prefix(5).map(\.time))")
        }
    }

    @Test("the rule alone: a frame is speech by its probability while an utterance is open and for the time after")
    func ruleAlone() {
        var d = SpeechFrameDecision(configuration: .init(threshold: 0.5, hold: 0, afterUtterance: 0.03))
        let p: [Float] = [0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.2, 0.9]
        let speaking = [false, true, true, false, false, false, false, false, false, false]
        #expect(
            zip(p, speaking).map { d.process(probability: $0, speaking: $1) }
                == [false, true, true, true, true, true, false, false, false, false])
        // Negative or NaN: inside utterances only.
        for after in [-1, Double.nan] {
            var strict = SpeechFrameDecision(configuration: .init(hold: 0, afterUtterance: after))
            #expect([true, false].map { strict.process(probability: 0.9, speaking: $0) } == [true, false])
        }
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

import Foundation
import MicCheck
import MicCheckTesting
import Testing

@Suite("records and verdicts as Codable values")
struct CodableTests {
    /// Every line the analysis of `samples` (16 kHz) writes in the JSON Lines contract.
    func lines(_ samples: [Float]) throws -> [String] {
        var analysis = try StreamingAnalysis(sampleRate: 16_000)
        var lines: [String] = []
        samples.withUnsafeBufferPointer { analysis.process($0) { lines.append(JSONLines.line($0)) } }
        analysis.finish { lines.append(JSONLines.line($0)) }
        return lines
    }

    /// Decodes `line`, checks that it writes the same line again through the contract's encoder and through
    /// JSONEncoder and back; returns the record.
    @discardableResult
    func roundTrip(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> AnalysisOutput {
        let record = try JSONDecoder().decode(AnalysisOutput.self, from: Data(line.utf8))
        #expect(JSONLines.line(record) == line, sourceLocation: sourceLocation)
        let again = try JSONDecoder().decode(AnalysisOutput.self, from: JSONEncoder().encode(record))
        #expect(JSONLines.line(again) == line, "through JSONEncoder", sourceLocation: sourceLocation)
        return record
    }

    @Test(
        "a decoded line of the contract writes that line again, byte for byte: speech, typing, a quiet voice, a dead microphone"
    )
    func analysisLines() throws {
        let room = { (s: Double) in Signals.pinkNoise(rmsDB: -60, seconds: s, sampleRate: 16_000) }
        let audio =
            room(1) + Signals.voice(rmsDB: -24, seconds: 2, sampleRate: 16_000) + room(1)
            + Signals.applause(clapsPerSecond: 8, rmsDB: -30, seconds: 3, sampleRate: 16_000)
            + Signals.voice(rmsDB: -60, seconds: 3, sampleRate: 16_000) + [Float](repeating: 0, count: 3 * 16_000)
        // A microphone dead from the start, too.
        let all = try lines(audio) + lines([Float](repeating: 0, count: 3 * 16_000))
        var names: Set<String> = []
        for line in all {
            if case .event(let e) = try roundTrip(line) { names.insert(e.name) }
        }
        #expect(
            names.isSuperset(of: [
                "speech_started", "speech_ended", "keyboard_noise", "speech_too_quiet", "microphone_silent",
            ]), "\(names)")
        let frame = try JSONDecoder().decode(
            AnalysisOutput.self, from: Data(#"{"t": 1.50, "level_db": -31.2, "prob": 0.930, "speech": true}"#.utf8))
        guard case .frame(let f) = frame else { return #expect(Bool(false), "a frame decoded as an event") }
        #expect(f.index == 150 && f.levelDB == -31.2 && f.probability == 0.93 && f.isSpeech)
    }

    @Test("every kind of event, with its own fields, decodes to the same event")
    func everyEvent() throws {
        let events: [AnalysisEvent] = [
            .speechStarted(time: 1.25, audioStart: 0.95), .speechEnded(time: 2.5),
            .microphoneSilent(time: 1.49, signature: .hiss), .microphoneActive(time: 3),
            .noisyMicrophone(time: 4, noise: .music, levelDB: -42.5),
            .noisyMicrophone(time: 4, noise: nil, levelDB: -40),
            .microphoneClean(time: 5), .clipping(time: 6, ceilingDB: -0.5, share: 0.0125), .clippingEnded(time: 7),
            .speechTooQuiet(time: 8, levelDB: -55.5), .speechLevelOK(time: 9, levelDB: -30),
            .wrongSource(time: 0, source: "Monitor of \"Speakers\" (alsa_output.monitor)"),
            .keyboardNoise(time: 10, typing: .init(keystrokes: 12, perSecond: 6.5, levelDB: -38.5, since: 8.25)),
        ]
        #expect(Set(events.map(\.name)).count == 12, "one of each of the 12 kinds")
        for event in events {
            let line = JSONLines.event(event)
            guard case .event(let decoded) = try roundTrip(line) else {
                Issue.record("\(line) decoded as a frame")
                continue
            }
            #expect(decoded == event, "\(line)")
        }
        // An event this version does not know is an error a reader can skip, not a crash.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AnalysisOutput.self, from: Data(#"{"event": "laughter", "t": 1.00}"#.utf8))
        }
    }

    @Test("the microphone test's verdicts decode to the same verdict, its sentence made again")
    func verdicts() throws {
        let verdicts: [MicrophoneTestVerdict] = [
            .init(kind: .clear, recordedSeconds: 5, speechSeconds: 2.5, speechLevelDB: -24, noiseLevelDB: -62),
            .init(kind: .tooQuiet, recordedSeconds: 5, speechSeconds: 2, speechLevelDB: -52, noiseLevelDB: -84),
            .init(
                kind: .clipping, recordedSeconds: 5, speechSeconds: 3, speechLevelDB: -6, noiseLevelDB: -50,
                clipping: .init(ceilingDB: -0.5, share: 0.125)),
            .init(
                kind: .noisy, recordedSeconds: 5, speechSeconds: 2, speechLevelDB: -30, noiseLevelDB: -36,
                noise: .hiss),
            .init(kind: .noVoice, recordedSeconds: 5, noiseLevelDB: -70),
            .init(kind: .dead, recordedSeconds: 5, dead: .digitalSilence), .init(kind: .dead, recordedSeconds: 0),
        ]
        for verdict in verdicts {
            let data = try JSONEncoder().encode(verdict)
            let decoded = try JSONDecoder().decode(MicrophoneTestVerdict.self, from: data)
            #expect(decoded == verdict, "\(String(decoding: data, as: UTF8.self))")
            let fields = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(fields["sentence"] as? String == verdict.sentence())
        }
    }
}

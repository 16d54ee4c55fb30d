import Foundation
import MicCheck
import MicCheckTesting
import Testing

/// The JSON Lines contract (DESIGN.md): the exact bytes that `../shared/bench/score.py` and apps read.
@Suite struct JSONLinesTests {
    @Test func frameRecord() {
        let f = AnalysisFrame(
            index: 3, time: 0.03, levelDB: -31.25, peakDB: -20, probability: 0.9306, isSpeech: true, isSpeaking: false)
        #expect(JSONLines.frame(f) == #"{"t": 0.03, "level_db": -31.3, "prob": 0.931, "speech": true}"#)
        let silent = AnalysisFrame(
            index: 0, time: 0, levelDB: Decibels.floor, peakDB: Decibels.floor, probability: 0,
            isSpeech: false, isSpeaking: false)
        #expect(JSONLines.line(.frame(silent)) == #"{"t": 0.00, "level_db": -160.0, "prob": 0.000, "speech": false}"#)
    }

    @Test func everyEventRecord() {
        let expected: [(AnalysisEvent, String)] = [
            (
                .speechStarted(time: 1.234, audioStart: 0.934),
                #"{"event": "speech_started", "t": 1.23, "audio_start": 0.93}"#
            ),
            (.speechEnded(time: 2.5), #"{"event": "speech_ended", "t": 2.50}"#),
            (
                .microphoneSilent(time: 1.9, signature: .digitalSilence),
                #"{"event": "microphone_silent", "t": 1.90, "reason": "digital_silence"}"#
            ),
            (.microphoneActive(time: 3), #"{"event": "microphone_active", "t": 3.00}"#),
            (
                .noisyMicrophone(time: 1.37, noise: .hum, levelDB: -38.04),
                #"{"event": "noisy_microphone", "t": 1.37, "noise": "hum", "level_db": -38.0}"#
            ),
            (
                .noisyMicrophone(time: 1, noise: nil, levelDB: -30),
                #"{"event": "noisy_microphone", "t": 1.00, "noise": "unclear", "level_db": -30.0}"#
            ),
            (.microphoneClean(time: 4), #"{"event": "microphone_clean", "t": 4.00}"#),
            (
                .clipping(time: 2, ceilingDB: -8, share: 0.0123),
                #"{"event": "clipping", "t": 2.00, "ceiling_db": -8.0, "clipped_percent": 1.23}"#
            ),
            (.clippingEnded(time: 7), #"{"event": "clipping_ended", "t": 7.00}"#),
            (.speechTooQuiet(time: 5, levelDB: -52), #"{"event": "speech_too_quiet", "t": 5.00, "level_db": -52.0}"#),
            (.speechLevelOK(time: 6, levelDB: -30), #"{"event": "speech_level_ok", "t": 6.00, "level_db": -30.0}"#),
            (
                .wrongSource(time: 0, source: "Monitor of \"Out\" (x.monitor)"),
                #"{"event": "wrong_source", "t": 0.00, "source": "Monitor of \"Out\" (x.monitor)", "reason": "monitor"}"#
            ),
            (
                .keyboardNoise(
                    time: 2.014,
                    typing: KeyboardNoiseDetector.Typing(keystrokes: 9, perSecond: 4.5, levelDB: -22.94, since: 0.462)),
                #"{"event": "keyboard_noise", "t": 2.01, "keystrokes": 9, "per_second": 4.5, "level_db": -22.9, "since": 0.46}"#
            ),
        ]
        for (event, line) in expected {
            #expect(JSONLines.event(event) == line)
            #expect(JSONLines.line(.event(event)) == line)
            // Every record is one JSON object whose `event` and `t` a reader finds.
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["event"] as? String == event.name)
            #expect((object?["t"] as? NSNumber)?.doubleValue == (event.time * 100).rounded() / 100)
        }
    }

    @Test func stringsAreEscaped() throws {
        let nasty = "a\"b\\c\nd\te\r\u{01}\u{1F}é🎤"
        let literal = JSONLines.string(nasty)
        #expect(literal == #""a\"b\\c\nd\te\r\u0001\u001fé🎤""#)
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String]
        #expect(parsed == [nasty])
    }

    @Test func valuesAndObjects() {
        let o = JSONLines.object([
            ("a", .int(-3)), ("b", .number(.nan, decimals: 1)), ("c", .null), ("d", .bool(false)),
            ("e", .array([.number(1.005, decimals: 1), .string("x")])), ("f", .object([])),
        ])
        #expect(o == #"{"a": -3, "b": null, "c": null, "d": false, "e": [1.0, "x"], "f": {}}"#)
    }

    /// The summary of the bundled voice: its fields in order, and its events as event records.
    @Test func summaryOfAnalysedAudio() throws {
        let voice = Signals.voice(rmsDB: -24, seconds: 1.5, sampleRate: 16_000)
        let samples = [Float](repeating: 0, count: 8_000) + voice + [Float](repeating: 0, count: 8_000)
        var analyzer = Analyzer(inputRate: 16_000)
        var summary = AnalysisSummary()
        var events: [AnalysisEvent] = []
        let take: (AnalysisOutput) -> Void = { r in
            summary.add(r)
            if case .event(let e) = r { events.append(e) }
        }
        samples.withUnsafeBufferPointer { analyzer.process($0, emit: take) }
        analyzer.finish(emit: take)
        let format = AudioFormat(sampleRate: 16_000, channels: 1, encoding: .signedInt16)
        let line = JSONLines.summary(file: "a \"b\".wav", format: format, summary: summary, events: events)
        #expect(line.hasPrefix(#"{"file": "a \"b\".wav", "sample_rate": 16000, "channels": 1, "encoding": "#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["microphone"] as? String == "works")
        #expect((object["duration_s"] as? NSNumber)?.doubleValue == 2.5)
        let records = try #require(object["events"] as? [[String: Any]])
        #expect(records.map { $0["event"] as? String } == events.map(\.name))
        #expect(events.contains { $0.name == "speech_started" })
    }

    /// Two summaries are equal when they say the same: the same records, in any block sizes; a louder level, a
    /// later first warning or a first dead verdict of another kind makes them differ.
    @Test func summariesAreEqualWhenTheySayTheSame() {
        let voice = Signals.voice(rmsDB: -24, seconds: 1.5, sampleRate: 16_000)
        let samples = [Float](repeating: 0, count: 48_000) + voice + [Float](repeating: 0, count: 24_000)
        func summary(_ x: [Float], extra: [AnalysisOutput] = []) -> AnalysisSummary {
            var analyzer = Analyzer(inputRate: 16_000)
            var s = AnalysisSummary()
            x.withUnsafeBufferPointer { analyzer.process($0) { s.add($0) } }
            analyzer.finish { s.add($0) }
            for r in extra { s.add(r) }
            return s
        }
        let a = summary(samples)
        #expect(a.firstSilent != nil, "the silence at the start is a dead verdict")
        #expect(a == summary(samples))
        // The same audio 10 dB down: the same speech, a lower loudest level and peak.
        #expect(a != summary(samples.map { $0 * 0.316 }))
        let clip = AnalysisOutput.event(.clipping(time: 3, ceilingDB: -0.1, share: 0.02))
        let laterClip = AnalysisOutput.event(.clipping(time: 3.5, ceilingDB: -0.1, share: 0.02))
        #expect(summary(samples, extra: [clip]) == summary(samples, extra: [clip]))
        #expect(summary(samples, extra: [clip]) != summary(samples, extra: [laterClip]), "the first warning's time")
        #expect(summary(samples, extra: [clip]) != a)
    }

    /// `fixed` writes digits itself (no `printf`, no locale); this holds it to the plain rule it states,
    /// written out here with strings: half away from zero, the sign only when a digit survives rounding.
    @Test func fixedDecimalsFollowTheRule() {
        func reference(_ value: Double, _ decimals: Int) -> String {
            let scale = (0..<decimals).reduce(1.0) { r, _ in r * 10 }
            let n = Int((abs(value) * scale).rounded())
            var s = (value < 0 && n != 0 ? "-" : "") + String(n / Int(scale))
            if decimals > 0 {
                let frac = String(n % Int(scale))
                s += "." + String(repeating: "0", count: decimals - frac.count) + frac
            }
            return s
        }
        var generator = SeededGenerator(seed: 11)
        var values: [Double] = [0, -0.0, 0.005, -0.004, 0.0449, 9.995, -160, 1e-9, 123_456.789, -0.95, 0.0005, 2.675]
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: -6...7, using: &generator)
            values.append(
                (Bool.random(using: &generator) ? 1 : -1) * Double.random(in: 0...1, using: &generator)
                    * pow(10, magnitude))
        }
        for value in values {
            for decimals in 0...4 {
                #expect(fixed(value, decimals) == reference(value, decimals), "\(value) with \(decimals) decimals")
            }
        }
        #expect(fixed(.nan, 2) == "0")
        #expect(fixed(-.infinity, 1) == "0")
        #expect(fixed(1e300, 2) == String(1e300))
    }

    /// The bytes a frame record is written as are its line's UTF-8.
    @Test func frameBytesAreTheLine() {
        var generator = SeededGenerator(seed: 5)
        var bytes: [UInt8] = Array("x".utf8)
        for k in 0..<2_000 {
            let f = AnalysisFrame(
                index: k, time: Double(k) / 100, levelDB: Float.random(in: -160...0, using: &generator),
                peakDB: 0, probability: Float.random(in: 0...1, using: &generator),
                isSpeech: Bool.random(using: &generator), isSpeaking: false)
            bytes.removeSubrange(1...)
            JSONLines.appendFrame(f, to: &bytes)
            #expect(String(decoding: bytes.dropFirst(), as: UTF8.self) == JSONLines.frame(f))
            #expect(
                JSONLines.frame(f) == "{\"t\": \(fixed(f.time, 2)), \"level_db\": \(fixed(Double(f.levelDB), 1)), "
                    + "\"prob\": \(fixed(Double(f.probability), 3)), \"speech\": \(f.isSpeech)}")
        }
    }
}

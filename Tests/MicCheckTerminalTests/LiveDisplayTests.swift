import Foundation
import MicCheck
import MicCheckCall
import MicCheckLive
import MicCheckTerminal
import MicCheckTesting
import Testing

/// What a display wrote, in order: records, redraws and sentences.
final class CollectedOutput: ReportOutput {
    enum Write: Equatable {
        case line(String)
        case raw(String)
        case message(String)
    }
    var writes: [Write] = []
    func line(_ s: String) { writes.append(.line(s)) }
    func write(frame: AnalysisFrame) {
        var bytes: [UInt8] = []
        JSONLines.appendFrame(frame, to: &bytes)
        writes.append(.line(String(decoding: bytes, as: UTF8.self)))
    }
    func raw(_ s: String) { writes.append(.raw(s)) }
    func message(_ s: String) { writes.append(.message(s)) }
    var lines: [String] { writes.compactMap { if case .line(let s) = $0 { s } else { nil } } }
    var messages: [String] { writes.compactMap { if case .message(let s) = $0 { s } else { nil } } }
}

/// `listen`'s display on a live session over generated audio: a voice after a quiet room, twice.
@Suite struct LiveDisplayTests {
    let rate = 16_000

    private func session() -> (records: [LiveRecord], summary: AnalysisSummary) {
        let quiet = Signals.pinkNoise(rmsDB: -62, seconds: 1, sampleRate: rate)
        let voice = Signals.voice(rmsDB: -24, seconds: 1.5, sampleRate: rate)
        let (records, ending) = LiveHarness.run(
            FakeAudioSource(sampleRate: rate, steps: [.audio(quiet + voice + quiet + quiet + voice + quiet)]))
        #expect(ending == .ended)
        var summary = AnalysisSummary()
        for case .analysis(let r) in records { summary.add(r) }
        return (records, summary)
    }

    @Test func jsonLinesAreTheRecordsAndTheSummaryGoesToStandardError() throws {
        let (records, summary) = session()
        let out = CollectedOutput()
        let display = LiveDisplay(output: out, format: .jsonl, muted: true, terminal: true)
        for record in records { display.record(record) }
        display.finish(input: "fake", dropped: 0, rate: rate, ending: "the sample ended")
        #expect(display.summary == summary)
        // One line per frame and event, in the session's order, each the kernel's own encoding.
        var expected: [String] = []
        for case .analysis(let r) in records {
            switch r {
            case .frame(let f):
                var bytes: [UInt8] = []
                JSONLines.appendFrame(f, to: &bytes)
                expected.append(String(decoding: bytes, as: UTF8.self))
            case .event(let e): expected.append(JSONLines.event(e))
            }
        }
        #expect(records.events.filter { $0.name == "speech_started" }.count >= 2)
        #expect(out.lines == expected)
        // No meter and no muted notice in JSON Lines, whatever the terminal.
        #expect(!out.writes.contains { if case .raw = $0 { true } else { false } })
        #expect(!out.lines.contains { $0.contains("You are muted.") })
        #expect(out.messages == [Timeline.summary(summary), "  the sample ended; listened to fake; 0 frames dropped"])
    }

    @Test func mutedTextShowsTheNoticeOncePerUtteranceBelowTheEventAndKeepsTheMeterClear() throws {
        let (records, summary) = session()
        let out = CollectedOutput()
        let display = LiveDisplay(output: out, format: .text, muted: true, terminal: true)
        display.source = "Fake microphone"
        for record in records { display.record(record) }
        display.message("miccheck: a sentence")
        display.finish(input: "fake", dropped: 1600, rate: rate, ending: "stopped by Ctrl-C")

        // "You are muted." below the "speech started" line it answers, where the notice's own rule shows it: once
        // per utterance, then quiet for 5 s (the voice here starts four times in 7 s: shown once).
        var rule = MutedSpeechNotice(isMuted: true)
        let starts = records.events.filter { $0.name == "speech_started" }
        let shown = starts.filter { rule.speechStarted(at: $0.time) }
        #expect(starts.count > shown.count && !shown.isEmpty)
        let notices = out.lines.filter { $0.hasSuffix("  You are muted.") }
        #expect(notices == shown.map { Timeline.at($0.time, "You are muted.") })
        for start in shown {
            let line = try #require(out.lines.firstIndex(of: Timeline.line(start)))
            #expect(out.lines[line + 1] == Timeline.at(start.time, "You are muted."))
        }
        #expect(
            out.lines.suffix(2) == [
                Timeline.summary(summary),
                "  stopped by Ctrl-C; listened to fake; 10 frames dropped; \"You are muted.\" shown \(shown.count) time"
                    + (shown.count == 1 ? "" : "s"),
            ])
        // The meter is drawn, and every line or sentence after it comes after a clear of the meter's line.
        var meterShown = false
        for write in out.writes {
            switch write {
            case .raw(let s):
                meterShown = s.count > 4
                #expect(s.hasPrefix("\r\u{1B}[K"))
            case .line(let s), .message(let s):
                #expect(!meterShown, "\(s) written over the meter")
            }
        }
        #expect(out.writes.contains { if case .raw(let s) = $0 { s.contains("speaking") } else { false } })
        #expect(out.messages == ["miccheck: a sentence"])
    }

    @Test func withoutATerminalTheTextIsTheTimelineAlone() {
        let (records, summary) = session()
        let out = CollectedOutput()
        let display = LiveDisplay(output: out, format: .text, muted: false, terminal: false)
        for record in records { display.record(record) }
        display.tick()
        display.finish(input: "fake", dropped: 0, rate: rate, ending: "the sample ended")
        #expect(!out.writes.contains { if case .raw = $0 { true } else { false } })
        #expect(out.lines.dropLast(2) == records.events.map { Timeline.line($0) })
        #expect(out.lines.suffix(2).first == Timeline.summary(summary))
        #expect(display.mutedNoticesShown == 0)
    }

    @Test func microphonesThatComeAndGoAreRecordsAtTheLastFramesTime() throws {
        let (records, _) = session()
        let usb = MicrophoneDevice(id: "alsa_input.usb", name: "USB microphone")
        let built = MicrophoneDevice(id: "alsa_input.pci", name: "Built-in microphone")
        let out = CollectedOutput()
        let display = LiveDisplay(output: out, format: .jsonl, muted: false, terminal: false)
        for record in records.prefix(120) { display.record(record) }
        display.device(.appeared(usb))
        display.device(.removed(usb))
        display.device(.fellBack(lost: usb, to: built))
        display.device(.switched(to: built))
        let last = try #require(Array(records.prefix(120)).frames.last)
        let t = String(format: "%.2f", last.time)
        #expect(
            out.lines.suffix(3) == [
                #"{"event": "source_added", "t": \#(t), "name": "alsa_input.usb", "description": "USB microphone"}"#,
                #"{"event": "source_removed", "t": \#(t), "name": "alsa_input.usb", "description": "USB microphone"}"#,
                #"{"event": "source_lost", "t": \#(t), "name": "alsa_input.usb", "fallback": "alsa_input.pci", "#
                    + #""fallback_description": "Built-in microphone"}"#,
            ])
        let text = CollectedOutput()
        let people = LiveDisplay(output: text, format: .text, muted: false, terminal: false)
        people.device(.appeared(usb))
        people.device(.removed(usb))
        people.device(.fellBack(lost: usb, to: built))
        #expect(text.lines.isEmpty)
        #expect(
            text.messages == [
                "miccheck: a new microphone is available: \(usb.label); `miccheck listen --source alsa_input.usb` listens to it.",
                "miccheck: the microphone \(usb.label) was removed.",
            ])
    }

    @Test func timelineLinesAlignTheTime() {
        #expect(Timeline.at(1.5, "speech started") == "      1.50 s  speech started")
        #expect(Timeline.at(12345.678, "x") == "  12345.68 s  x")
        #expect(Timeline.line(.speechEnded(time: 3.25)) == "      3.25 s  speech ended")
    }
}

import Foundation
import MicCheck
import Testing

/// The public corpus sits in ../shared beside the repository (as in CI).
let corpusDirectory: String = {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return repo.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
}()
let corpusPresent = FileManager.default.fileExists(atPath: corpusDirectory + "/manifest.json")

func analyseFile(_ path: String) throws -> ([AnalysisFrame], [AnalysisEvent]) {
    let reader = try WAVReader(path: path)
    var a = Analyzer(inputRate: reader.format.sampleRate)
    var frames: [AnalysisFrame] = []
    var events: [AnalysisEvent] = []
    let sink: (AnalysisOutput) -> Void = {
        switch $0 {
        case .frame(let f): frames.append(f)
        case .event(let e): events.append(e)
        }
    }
    var buf = [Float](repeating: 0, count: 4_096)
    while true {
        let n = try buf.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
        if n == 0 { break }
        buf.withUnsafeBufferPointer { a.process(UnsafeBufferPointer(rebasing: $0[0..<n]), emit: sink) }
    }
    a.finish(emit: sink)
    return (frames, events)
}

struct Label: Decodable {
    var speech: [[Double]]
    var durationSeconds: Double
    var scenario: String?
    var musicVocals: Bool?

    enum CodingKeys: String, CodingKey {
        case speech, scenario
        case durationSeconds = "duration_s"
        case musicVocals = "music_vocals"
    }
}

/// Frame decisions against a file's labels, on the scorer's 10 ms grid (a frame is labelled speech when
/// its centre lies in a labelled segment).
struct FrameCounts {
    var tp = 0, fp = 0, fn = 0

    init(_ frames: [AnalysisFrame], _ label: Label) {
        for f in frames {
            let c = f.time + 0.005
            let truth = label.speech.contains { c >= $0[0] && c < $0[1] }
            if f.isSpeech && truth { tp += 1 } else if f.isSpeech { fp += 1 } else if truth { fn += 1 }
        }
    }
}

@Suite("Public corpus", .tags(.slow), .enabled(if: corpusPresent, "../shared/corpus is not beside the repository"))
struct CorpusTests {
    @Test(
        "every dead-microphone file is caught within 2 s of dying",
        arguments: [
            ("dead_zeros.wav", 0.0), ("dead_dc_offset.wav", 0.0), ("dead_hiss.wav", 0.0),
            ("dead_dies_halfway_zeros_klettres-hu.wav", 8.425),
        ])
    func deadFiles(file: String, from: Double) throws {
        let (_, events) = try analyseFile(corpusDirectory + "/" + file)
        let t = silentTimes(events)
        #expect(t.count >= 1)
        #expect(t.first.map { $0 >= from - 0.05 && $0 <= from + 2 } == true, "silent at \(t)")
    }

    @Test(
        "live files with digital-silence pauses, quiet speech and typing are never called dead",
        arguments: [
            "clean_00_hedgewars-British.wav", "clean_03_hedgewars-British.wav", "quiet_02_near_klettres-tn.wav",
            "noise_00_typing_bucklespring.wav", "transient_00_lmms-claps.wav",
            "quiet_01_far_espeak-ng-en-gb-x-rp+m7.wav",
        ])
    func liveFiles(file: String) throws {
        #expect(silentTimes(try analyseFile(corpusDirectory + "/" + file).1).isEmpty)
    }

    @Test("clean speech: frame decisions agree with the labels, every utterance group is announced")
    func cleanSpeech() throws {
        for file in ["clean_01_asterisk-en-allison", "clean_02_espeak-ng-es+f3"] {
            let label = try JSONDecoder().decode(
                Label.self, from: Data(contentsOf: URL(fileURLWithPath: "\(corpusDirectory)/\(file).json")))
            let (frames, events) = try analyseFile("\(corpusDirectory)/\(file).wav")
            let c = FrameCounts(frames, label)
            let f1 = 2.0 * Double(c.tp) / Double(2 * c.tp + c.fp + c.fn)
            #expect(f1 > 0.8, "\(file): F1 \(f1)")
            #expect(events.contains { $0.name == "speech_started" })
        }
    }

    @Test(
        "noise-only files raise few speech starts",
        arguments: ["noise_01_fan_hum_synth.wav", "noise_03_white.wav", "noise_10_machinery_ottd.wav"])
    func noise(file: String) throws {
        let (frames, events) = try analyseFile(corpusDirectory + "/" + file)
        let starts = events.filter { $0.name == "speech_started" }.count
        let hours = Double(frames.count) / 360_000
        #expect(Double(starts) / hours < 200, "\(starts) starts in \(frames.count / 100) s")
    }

    /// A regression guard on the figures in Guides/Figures.md (F1 0.868, two false starts on noise and none on
    /// transients, measured by ../shared/bench/score.py): the whole 16 kHz corpus through the analyzer.
    @Test("the whole corpus: frame F1 and false starts on noise stay at the published figures")
    func wholeCorpus() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: corpusDirectory).filter { $0.hasSuffix(".wav") }
            .sorted()
        var tp = 0
        var fp = 0
        var fn = 0
        var starts = 0
        var noiseSeconds = 0.0
        var health: [String] = []
        var noisyInSpeech: [String] = []
        var outsideUtterances: [String] = []
        for file in files {
            let json = corpusDirectory + "/" + file.dropLast(4) + ".json"
            let label = try JSONDecoder().decode(Label.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
            let (frames, events) = try analyseFile(corpusDirectory + "/" + file)
            let c = FrameCounts(frames, label)
            tp += c.tp
            fp += c.fp
            fn += c.fn
            // Frame decisions agree with the events: a speech frame lies inside an utterance or in the 5 s
            // after one (a frame's record goes out up to the look-ahead, 30 ms, after the frame).
            let utterances = spans(events, until: label.durationSeconds + 1)
            let after = SpeechFrameDecision.Configuration.default.afterUtterance
            let outside = frames.filter { f in
                f.isSpeech && !utterances.contains { f.time >= $0.0 - 0.031 && f.time <= $0.1 + after }
            }.count
            if outside > 0 { outsideUtterances.append("\(file): \(outside)") }
            // Microphone health (issue 36): no dead verdict on a live file, no clipping anywhere, quiet
            // speech flagged on every quiet file and on no clean one, no noisy warning decided over speech.
            let scenario = label.scenario ?? ""
            if scenario != "dead_mic" && !silentTimes(events).isEmpty { health.append("\(file): called dead") }
            if events.contains(where: { $0.name == "clipping" }) { health.append("\(file): clipping") }
            let tooQuiet = events.contains { $0.name == "speech_too_quiet" }
            if scenario == "quiet" && !tooQuiet { health.append("\(file): quiet speech not flagged") }
            if scenario == "clean" && tooQuiet { health.append("\(file): clean speech called too quiet") }
            let noisy = events.filter { $0.name == "noisy_microphone" }.map(\.time)
            // On clean and quiet files, no warning may be decided over speech: its 0.8 s window must lie
            // outside every labelled utterance (clean_04 opens with 1.2 s of a loud sound that is not
            // speech, which the detector, Silero and the labels all reject, and a warning there is right).
            let window = NoisyMicrophoneDetector.Configuration.default.window
            if ["clean", "quiet"].contains(scenario),
                noisy.contains(where: { t in label.speech.contains { t - window < $0[1] && t > $0[0] } })
            {
                health.append("\(file): noisy decided over speech")
            }
            if noisy.contains(where: { t in label.speech.contains { t >= $0[0] && t <= $0[1] } }) {
                noisyInSpeech.append(file)
            }
            if ["noise_only", "transients"].contains(label.scenario ?? ""), label.musicVocals != true {
                starts += events.filter { $0.name == "speech_started" }.count
                noiseSeconds += label.durationSeconds
            }
        }
        let f1 = 2.0 * Double(tp) / Double(2 * tp + fp + fn)
        let perHour = Double(starts) / noiseSeconds * 3600
        #expect(files.count >= 40)
        #expect(f1 >= 0.85, "F1 \(f1)")  // published: 0.868
        #expect(starts <= 2, "\(starts) false starts in \(Int(noiseSeconds)) s (\(perHour) an hour)")  // published: 2
        #expect(health.isEmpty, "\(health)")
        #expect(outsideUtterances.isEmpty, "speech frames outside every utterance: \(outsideUtterances)")
        // Published: one, snr05_crowd_applause, whose voice the detector does not hear under the crowd.
        #expect(noisyInSpeech.count <= 1, "noisy_microphone raised inside speech in \(noisyInSpeech)")
    }
}

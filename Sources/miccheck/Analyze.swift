public import ArgumentParser
import Foundation
import MicCheck
import MicCheckLive
import MicCheckTerminal

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl, json
}

extension SpeechDetectorKind: ExpressibleByArgument {}

/// Options that shape speech detection, shared by the commands that detect speech.
struct SpeechOptions: ParsableArguments {
    @Option(
        help:
            "Speech detector: vad (MicCheck's detector) or level (the call-SDK rule: a level above -50 dBFS among the last three)."
    )
    var detector: SpeechDetectorKind = .vad

    @Option(help: "Seconds below the end threshold before speech ends (default: 0.3).")
    var hangover: Double?

    @Option(help: "Seconds of audio before a speech start that belong to the utterance (reported as audio_start).")
    var prefixPadding: Double = SpeechEventDetector.Configuration.default.prefixPadding

    @Option(
        help:
            "Speech probability (0-1) at or above which speech may start (default: 0.8, as with listen --voice-processing)."
    )
    var startThreshold: Float?

    @Option(
        help:
            "Speech probability (0-1) below which speech may end (default: 0.7, or the start threshold if that is lower)."
    )
    var endThreshold: Float?

    @Option(
        help:
            "Seconds the probability must stay above the start threshold before speech starts (default: 0.01, one frame; 0.1 with listen --voice-processing)."
    )
    var minSpeech: Double?

    // Unconditional: the value is negative, and `--min-speech-level -45` must not read -45 as an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Frames quieter than this (dBFS, e.g. -45) never start speech (default: no limit; -50 with listen --voice-processing).",
            valueName: "dBFS")
    )
    var minSpeechLevel: Float?

    @Option(
        help:
            "Speech probability (0-1) at or above which a frame is speech (each frame's \"speech\"; events have their own thresholds)."
    )
    var frameThreshold: Float = SpeechFrameDecision.Configuration.default.threshold

    @Option(help: "Seconds a frame at or above --frame-threshold keeps the frames after it speech.")
    var frameHold: Double = SpeechFrameDecision.Configuration.default.hold

    @Option(
        help:
            "Seconds after an utterance ends in which frames may still be speech; outside utterances and this time no frame is (0: inside utterances only)."
    )
    var frameAfterUtterance: Double = SpeechFrameDecision.Configuration.default.afterUtterance

    @Flag(
        inversion: .prefixedNo,
        help:
            "Hold frames of a steady background (a fan, a machine, a hum: nothing standing out of it for 0.4 s) below speech, however long it lasts."
    )
    var backgroundGate = true

    func validate() throws {
        guard (0...1).contains(startThreshold ?? 0), (0...1).contains(endThreshold ?? 0),
            (0...1).contains(frameThreshold)
        else {
            throw ValidationError("--start-threshold, --end-threshold and --frame-threshold must be between 0 and 1.")
        }
        if let minSpeechLevel, !(minSpeechLevel.isFinite && (-160...0).contains(minSpeechLevel)) {
            throw ValidationError("--min-speech-level must be between -160 and 0 dBFS.")
        }
        // Against the lower of the modes' default starts when --start-threshold is not given (0.8 in both
        // today), so that an end threshold accepted here is below the start in every mode.
        let defaultStart = min(
            SpeechEventDetector.Configuration.default.startThreshold,
            SpeechEventDetector.Configuration.afterEchoCancellation.startThreshold)
        guard (endThreshold ?? 0) <= startThreshold ?? defaultStart else {
            throw ValidationError("--end-threshold must not be above --start-threshold.")
        }
        for (name, v) in [
            ("--hangover", hangover ?? 0), ("--prefix-padding", prefixPadding), ("--min-speech", minSpeech ?? 0),
            ("--frame-hold", frameHold), ("--frame-after-utterance", frameAfterUtterance),
        ] {
            guard v.isFinite, (0...60).contains(v) else {
                throw ValidationError("\(name) must be between 0 and 60 seconds.")
            }
        }
    }

    var configuration: AnalysisConfiguration { configuration(base: .default) }

    /// The configuration; `base` gives --start-threshold, --end-threshold (never above the start),
    /// --min-speech, --hangover and --min-speech-level when they are not given.
    func configuration(base: SpeechEventDetector.Configuration) -> AnalysisConfiguration {
        let start = startThreshold ?? base.startThreshold
        return AnalysisConfiguration(
            detector: detector,
            speech: SpeechEventDetector.Configuration(
                startThreshold: start, endThreshold: endThreshold ?? min(base.endThreshold, start),
                minimumSpeech: minSpeech ?? base.minimumSpeech,
                hangover: hangover ?? base.hangover,
                prefixPadding: prefixPadding,
                minimumLevelDB: minSpeechLevel ?? base.minimumLevelDB),
            frame: SpeechFrameDecision.Configuration(
                threshold: frameThreshold, hold: frameHold, afterUtterance: frameAfterUtterance),
            background: backgroundGate ? SteadyBackgroundGate.Configuration.default : .off)
    }
}

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse recorded audio as a call app analyses its microphone.",
        discussion: """
            Reads WAV files (PCM 8/16/24/32-bit or float, 8-96 kHz, 1-8 channels; streamed, any length) \
            and reports levels in dBFS every 10 ms, speech, speech_started / speech_ended events, and \
            whether the microphone seems dead (microphone_silent / microphone_active), and warnings: \
            noisy_microphone / microphone_clean, clipping / clipping_ended, speech_too_quiet / \
            speech_level_ok (see Guides/MicrophoneHealth.md).

            Formats: text (a timeline and a summary per file), jsonl (a frame record every 10 ms and \
            event records, in time order), json (one summary object per file).

            Files are analysed one after another; a file that cannot be read is reported on stderr and \
            the others are still analysed. The exit status is then 66 if a file was missing or \
            unreadable, otherwise 65.
            """
    )

    @Argument(help: "WAV files to analyse.")
    var files: [String] = []

    @Flag(help: "Analyse the bundled sample (speech, pauses and typing) instead of files.")
    var sample = false

    @Option(help: "Output format: text, jsonl or json.")
    var format: OutputFormat = .text

    @Option(
        help:
            "Write an SVG plot (level, speech probability, speech, events). With several files, each file's name is added to it."
    )
    var plot: String?

    @Flag(
        help:
            "With --format jsonl, frames with the level and peak to 4 decimals, the probability to 6 and speaking (for comparing two builds of the analysis, such as the page's WebAssembly)."
    )
    var precise = false

    @OptionGroup var speech: SpeechOptions

    @Option(
        help: ArgumentHelp(
            "A voice model file written by training/train_vad.py, instead of the bundled one (for evaluating retrained models).",
            valueName: "model.json"))
    var model: String?

    func validate() throws {
        if files.isEmpty && !sample { throw ValidationError("Name at least one WAV file, or use --sample.") }
        if !files.isEmpty && sample { throw ValidationError("Use either --sample or files, not both.") }
        if let plot, plot.isEmpty { throw ValidationError("--plot needs a file name.") }
        if precise && format != .jsonl { throw ValidationError("--precise applies to --format jsonl only.") }
    }

    func run() throws {
        var voiceModel = VoiceActivityModel.bundled
        if let model { voiceModel = try loadModel(model) }
        let out = OutputWriter()
        var statuses = Set<Int32>()
        let inputs = inputs
        let plots = try plotPaths(for: inputs.map(\.name))
        for (k, input) in inputs.enumerated() {
            let result = input.open().flatMap { source in
                analyse(
                    source, name: input.name, position: (k + 1, inputs.count), plotPath: plots[k], model: voiceModel,
                    out: out)
            }
            if case .failure(let f) = result {
                out.flush()
                printError(f.sentence)
                statuses.insert(f.status)
            }
        }
        try out.finish()
        // The most telling status when several files failed: a missing input, then bad audio, then the rest.
        let telling = [ExitStatus.noInput, ExitStatus.dataError, ExitStatus.runtimeFailure]
        if let status = telling.first(where: statuses.contains) { throw ExitCode(status) }
    }

    /// The inputs in order (the bundled sample, or the files), each opened when its turn comes.
    private var inputs: [(name: String, open: () -> Result<WAVFileSource, InputFailure>)] {
        sample
            ? [(BundledSample.name, { openSample() })]
            : files.map { path in
                (path, { openWAV(path).map { WAVFileSource(reader: $0, name: path, pacing: .asFastAsPossible) } })
            }
    }

    /// The voice model of --model, or why it cannot be used.
    private func loadModel(_ path: String) throws(CommandFailure) -> VoiceActivityModel {
        let data = try readSmallFile(path, limit: 16 << 20, what: "a voice model").mapError { CommandFailure($0) }.get()
        let voiceModel: VoiceActivityModel
        do { voiceModel = try VoiceActivityModel(json: data) } catch {
            throw CommandFailure(message: "miccheck: \(path): \(error).", status: ExitStatus.dataError)
        }
        guard VoiceFeatureExtractor.supports(featureCount: voiceModel.featureCount) else {
            throw CommandFailure(
                message:
                    "miccheck: \(path): the model reads \(voiceModel.featureCount) features; this miccheck computes \(VoiceFeatureExtractor.count) (models may read all of them or the first \(VoiceFeatureExtractor.coreCount)).",
                status: ExitStatus.dataError)
        }
        return voiceModel
    }

    /// Each input's plot (--plot, named after the input when there are several); a plot that could not be
    /// written is known before any audio is read.
    private func plotPaths(for names: [String]) throws(CommandFailure) -> [String?] {
        let plots = names.map { name in plot.map { names.count == 1 ? $0 : plotName($0, for: name) } }
        for case let path? in plots {
            if let why = outputProblem(path) {
                throw CommandFailure(
                    message: "miccheck: \(path): the plot cannot be written (\(why)).",
                    status: ExitStatus.runtimeFailure)
            }
        }
        return plots
    }

    private func analyse(
        _ source: WAVFileSource, name: String, position: (Int, Int), plotPath: String?, model: VoiceActivityModel,
        out: OutputWriter
    ) -> Result<Void, InputFailure> {
        let rate = source.format.sampleRate
        var summary = AnalysisSummary()
        var events: [AnalysisEvent] = []
        var plotter = plotPath.map { _ in AnalysisPlot() }
        let progress =
            stderrIsTerminal
            ? ProgressLine(name: name, position: position, total: source.declaredFrameCount, rate: rate) : nil
        if format == .text {
            out.line(
                "\(name): \(source.format), \(source.declaredFrameCount.map { formatSeconds(Double($0) / Double(rate)) } ?? "length unknown")"
            )
        }
        let session = LiveAnalysis(source: source, configuration: .init(analysis: speech.configuration, model: model))
        let ending = session.run { live in
            guard case .analysis(let record) = live else { return }
            summary.add(record)
            plotter?.add(record)
            switch record {
            case .frame(let f):
                if format == .jsonl { out.frame(f, precise: precise) }
                progress?.update(Int((f.time + 0.01) * Double(rate)))
            case .event(let e):
                if format != .text || events.count < 100_000 { events.append(e) }
                switch format {
                case .jsonl: out.line(JSONLines.event(e))
                case .text: out.line(Timeline.line(e))
                case .json: break
                }
            }
        }
        if case .failed(let error) = ending {
            progress?.clear()
            return .failure(InputFailure(error))
        }
        progress?.clear()
        if let note = source.closingNote {
            out.flush()
            printError("miccheck: \(note).")
        }
        switch format {
        case .text:
            out.line(Timeline.summary(summary))
        case .json:
            out.line(JSONLines.summary(file: name, format: source.format, summary: summary, events: events))
        case .jsonl:
            break
        }
        if let plotPath, let plotter {
            let svg = plotter.svg(title: name)
            if let why = writeReplacing(plotPath, Data(svg.utf8)) {
                return .failure(
                    InputFailure(
                        file: plotPath, message: "the plot cannot be written (\(why))",
                        status: ExitStatus.runtimeFailure))
            }
            if format == .text { out.line("  plot written to \(plotPath)") }
        }
        return .success(())
    }
}

func plotName(_ plot: String, for input: String) -> String {
    let base = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
    let stem = (plot as NSString).deletingPathExtension
    let ext = (plot as NSString).pathExtension
    return "\(stem)-\(base).\(ext.isEmpty ? "svg" : ext)"
}

/// "[2/5] name.wav 40%" on stderr, redrawn in place; only on a terminal.
final class ProgressLine {
    private let label: String
    private let total: Int?
    private var lastShown = -1

    init(name: String, position: (Int, Int), total: Int?, rate: Int) {
        label = "[\(position.0)/\(position.1)] \(name)"
        self.total = total
    }

    func update(_ done: Int) {
        let pct = total.map { $0 > 0 ? min(100, done * 100 / $0) : 100 } ?? -1
        guard pct != lastShown else { return }
        lastShown = pct
        FileHandle.standardError.write(Data("\r\u{1B}[K\(label)\(pct >= 0 ? " \(pct)%" : "")".utf8))
    }

    func clear() { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
}

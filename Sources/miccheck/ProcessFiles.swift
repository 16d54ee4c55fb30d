public import ArgumentParser
import Foundation
import MicCheck
#if os(Linux)
import MicCheckVoiceProcessing
#endif

extension VoiceProcessingConfiguration.EchoSuppression: ExpressibleByArgument {}
extension VoiceProcessingConfiguration.NoiseSuppressionLevel: ExpressibleByArgument {}
extension VoiceProcessingConfiguration.GainControlMode: ExpressibleByArgument {}

struct ProcessFiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Run recorded microphone audio through voice processing: echo cancellation, noise suppression, gain control.",
        discussion: """
            Reads the near end (what the microphone recorded) and, for echo cancellation, the far end \
            (what the loudspeaker played, aligned with the recording from its first sample), and writes \
            the processed near end as mono 16-bit WAV. Processing runs at 8, 16, 32 or 48 kHz: the \
            near end's rate, or the next of these above it; the far end is resampled to match. A far \
            end shorter than the near end is followed by silence.

            Processing is webrtc-audio-processing's (the library PulseAudio's echo-cancel module \
            uses). The output is written to a temporary file beside OUT and renamed when complete, so \
            OUT is never left half-written.

            Examples:
              miccheck process --near mic.wav --far speaker.wav --out clean.wav --aec --ns moderate
              miccheck process --near mic.wav --out louder.wav --agc adaptive-digital
            """
    )

    @Option(help: ArgumentHelp("The microphone recording (WAV).", valueName: "near.wav"))
    var near: String

    @Option(help: ArgumentHelp("What the loudspeaker played (WAV), the echo reference.", valueName: "far.wav"))
    var far: String?

    @Option(help: ArgumentHelp("Where to write the processed near end (mono 16-bit WAV).", valueName: "out.wav"))
    var out: String

    @Flag(help: "Cancel the far end's echo (needs --far).")
    var aec = false

    @Option(help: "How hard the echo canceller suppresses residual echo: low, moderate or high.")
    var aecLevel: VoiceProcessingConfiguration.EchoSuppression = .moderate

    @Option(help: "Noise suppression: low, moderate, high or very-high (off when not given).")
    var ns: VoiceProcessingConfiguration.NoiseSuppressionLevel?

    @Option(help: "Automatic gain control: adaptive-digital or fixed-digital (off when not given).")
    var agc: VoiceProcessingConfiguration.GainControlMode?

    @Option(help: "Gain control target: peaks at minus this many dBFS (0-31).")
    var agcTarget: Int = 3

    @Option(help: "Most gain the digital gain controller applies, in dB (0-90).")
    var agcMaxGain: Int = 9

    @Flag(help: "Keep frequencies below 80 Hz (the high-pass filter is on by default).")
    var noHighPass = false

    @Option(help: "Report: text or json.")
    var format: OutputFormat = .text

    func validate() throws {
        if aec && far == nil {
            throw ValidationError("--aec needs --far, the recording of what the loudspeaker played.")
        }
        if agc == .adaptiveAnalog {
            throw ValidationError("--agc adaptive-analog steers a capture device's volume, which a file does not have; use adaptive-digital.")
        }
        guard (0...31).contains(agcTarget) else { throw ValidationError("--agc-target must be between 0 and 31.") }
        guard (0...90).contains(agcMaxGain) else { throw ValidationError("--agc-max-gain must be between 0 and 90.") }
        if format == .jsonl { throw ValidationError("--format must be text or json.") }
        if out.isEmpty { throw ValidationError("--out needs a file name.") }
        let outURL = URL(fileURLWithPath: out).standardizedFileURL
        for input in [near, far].compactMap({ $0 }) where URL(fileURLWithPath: input).standardizedFileURL == outURL {
            throw ValidationError("--out must not be an input file (\(input)).")
        }
    }

    func run() throws {
        #if os(Linux)
        let report: ProcessReport
        switch processFiles() {
        case .success(let r): report = r
        case .failure(let f):
            printError(f.sentence)
            throw ExitCode(f.status)
        }
        let writer = OutputWriter()
        writer.line(format == .json ? report.json : report.text)
        try writer.finish()
        #else
        printError("miccheck: voice processing needs webrtc-audio-processing, which is only built on Linux.")
        throw ExitCode(ExitStatus.unavailable)
        #endif
    }

    var voiceConfiguration: VoiceProcessingConfiguration {
        VoiceProcessingConfiguration(
            echoCancellation: aec ? aecLevel : nil, noiseSuppression: ns, gainControl: agc,
            gainTargetDBFS: agcTarget, gainCompressionDB: agcMaxGain, highPassFilter: !noHighPass)
    }

    #if os(Linux)
    private func processFiles() -> Result<ProcessReport, InputFailure> {
        if let why = outputProblem(out) {
            return .failure(InputFailure(file: out, message: "cannot be written (\(why))", status: ExitStatus.runtimeFailure))
        }
        let nearReader: WAVReader
        switch openWAV(near) {
        case .success(let r): nearReader = r
        case .failure(let f): return .failure(f)
        }
        var farReader: WAVReader?
        if let far {
            switch openWAV(far) {
            case .success(let r): farReader = r
            case .failure(let f): return .failure(f)
            }
        }
        var configuration = voiceConfiguration
        configuration.sampleRate = VoiceProcessingConfiguration.processingRate(for: nearReader.format.sampleRate)
        let stream: VoiceProcessingStream
        do {
            stream = try VoiceProcessingStream(configuration: configuration, nearRate: nearReader.format.sampleRate,
                                               farRate: farReader?.format.sampleRate ?? nearReader.format.sampleRate)
        } catch {
            return .failure(InputFailure(file: near, message: "cannot be processed: \(error)", status: ExitStatus.runtimeFailure))
        }
        let temporary = partialPath(for: out)
        let writer: WAVFileWriter
        do {
            writer = try WAVFileWriter(path: temporary, sampleRate: configuration.sampleRate)
        } catch {
            return .failure(InputFailure(file: out, message: "cannot be written (\(error.reason))", status: ExitStatus.runtimeFailure))
        }
        var levels = (input: PowerSum(), output: PowerSum())
        var writeError: WAVFileWriter.WriteError?
        let emit: (UnsafeBufferPointer<Float>) -> Void = { block in
            levels.output.add(block)
            if writeError == nil { do throws(WAVFileWriter.WriteError) { try writer.write(block) } catch { writeError = error } }
        }
        let started = DispatchTime.now().uptimeNanoseconds
        var nearBlock = [Float](repeating: 0, count: WAVReader.blockFrames)
        var farBlock = [Float](repeating: 0, count: WAVReader.blockFrames)
        var farOpen = farReader != nil
        var farRead = 0
        var inputSeconds = 0.0
        let failed: InputFailure? = {
            while true {
                let n: Int
                do { n = try nearBlock.withUnsafeMutableBufferPointer { try nearReader.read(into: $0) } } catch {
                    return failure(near, error)
                }
                if n == 0 { break }
                inputSeconds += Double(n) / Double(nearReader.format.sampleRate)
                // Far-end audio up to the same time goes first, as it would in a call.
                if farOpen, let farReader, let far {
                    let wanted = Int((inputSeconds * Double(farReader.format.sampleRate)).rounded(.up))
                    while farOpen && farRead < wanted {
                        let m: Int
                        do {
                            m = try farBlock.withUnsafeMutableBufferPointer {
                                try farReader.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<min($0.count, max(1, wanted - farRead))]))
                            }
                        } catch { return failure(far, error) }
                        if m == 0 { farOpen = false; stream.endFar(); break }
                        farRead += m
                        farBlock.withUnsafeBufferPointer { stream.pushFar(UnsafeBufferPointer(rebasing: $0[0..<m])) }
                    }
                }
                nearBlock.withUnsafeBufferPointer { levels.input.add(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                do {
                    try nearBlock.withUnsafeBufferPointer { try stream.pushNear(UnsafeBufferPointer(rebasing: $0[0..<n]), emit: emit) }
                } catch {
                    return InputFailure(file: near, message: "processing failed: \(error)", status: ExitStatus.runtimeFailure)
                }
            }
            do { try stream.finish(emit: emit) } catch {
                return InputFailure(file: near, message: "processing failed: \(error)", status: ExitStatus.runtimeFailure)
            }
            if let writeError {
                return InputFailure(file: out, message: "cannot be written (\(writeError.reason))", status: ExitStatus.runtimeFailure)
            }
            do throws(WAVFileWriter.WriteError) { try writer.finish() } catch {
                return InputFailure(file: out, message: "cannot be written (\(error.reason))", status: ExitStatus.runtimeFailure)
            }
            if rename(temporary, out) != 0 {
                return InputFailure(file: out, message: "cannot be written (\(String(cString: strerror(errno))))",
                                    status: ExitStatus.runtimeFailure)
            }
            return nil
        }()
        if let failed {
            unlink(temporary)
            return .failure(failed)
        }
        for (name, reader) in [(near, nearReader)] + zip([far].compactMap { $0 }, [farReader].compactMap { $0 }) {
            if let note = reader.cutShortNote(name: name) { printError("miccheck: \(note).") }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return .success(ProcessReport(
            near: near, far: far, out: out, configuration: configuration, seconds: inputSeconds,
            inputLevelDB: levels.input.levelDB, outputLevelDB: levels.output.levelDB,
            metrics: stream.processor.metrics, delayMilliseconds: stream.echoDelayMilliseconds,
            framesWithoutFar: far == nil ? 0 : stream.framesWithoutFar,
            speed: elapsed > 0 ? inputSeconds / elapsed : nil))
    }
    #endif
}

/// Energy of a signal, summed as it streams by.
struct PowerSum {
    private var sum = 0.0
    private var count = 0

    mutating func add(_ block: UnsafeBufferPointer<Float>) {
        for x in block { sum += Double(x) * Double(x) }
        count += block.count
    }

    var levelDB: Double { Double(Decibels.fromPower(count > 0 ? sum / Double(count) : 0)) }
}

#if os(Linux)
/// What `process` reports about a run.
struct ProcessReport {
    var near: String
    var far: String?
    var out: String
    var configuration: VoiceProcessingConfiguration
    var seconds: Double
    var inputLevelDB: Double
    var outputLevelDB: Double
    var metrics: VoiceProcessor.Metrics
    /// The echo delay the stream measured (and handed the canceller the far end that much later).
    var delayMilliseconds: Int?
    var framesWithoutFar: Int
    var speed: Double?

    private var stages: [String] {
        var s: [String] = []
        if let e = configuration.echoCancellation { s.append("echo cancellation (\(e.rawValue))") }
        if let n = configuration.noiseSuppression { s.append("noise suppression (\(n.rawValue))") }
        if let g = configuration.gainControl { s.append("gain control (\(g.rawValue))") }
        if configuration.highPassFilter { s.append("high-pass filter") }
        return s
    }

    var text: String {
        var lines = ["\(near) -> \(out): \(formatSeconds(seconds)) at \(configuration.sampleRate) Hz, " +
                     (stages.isEmpty ? "no processing" : stages.joined(separator: ", "))]
        lines.append("  level \(fixed(inputLevelDB, 1)) dBFS in, \(fixed(outputLevelDB, 1)) dBFS out")
        if configuration.echoCancellation != nil {
            var echo = "  echo canceller:"
            if let erle = metrics.averageEchoReturnLossEnhancementDB { echo += " echo return loss enhancement \(fixed(Double(erle), 1)) dB," }
            if let erl = metrics.averageEchoReturnLossDB { echo += " echo return loss \(fixed(Double(erl), 1)) dB," }
            if let delayMilliseconds { echo += " delay \(delayMilliseconds) ms," }
            if echo.hasSuffix(",") { echo.removeLast() } else { echo += " no echo measured" }
            lines.append(echo)
        }
        if framesWithoutFar > 0 {
            lines.append("  the far end ended first: the last \(formatSeconds(Double(framesWithoutFar) / 100)) had no echo reference")
        }
        if let speed { lines.append("  \(fixed(speed, 0))x real time") }
        return lines.joined(separator: "\n")
    }

    var json: String {
        func number(_ v: Double?, _ decimals: Int) -> JSONValue { v.map { .number($0, decimals: decimals) } ?? .null }
        func name(_ v: String?) -> JSONValue { v.map { .string($0) } ?? .null }
        return JSONLines.object([
            ("near", .string(near)), ("far", name(far)), ("out", .string(out)),
            ("sample_rate", .int(configuration.sampleRate)), ("seconds", .number(seconds, decimals: 3)),
            ("aec", name(configuration.echoCancellation?.rawValue)), ("ns", name(configuration.noiseSuppression?.rawValue)),
            ("agc", name(configuration.gainControl?.rawValue)), ("high_pass", .bool(configuration.highPassFilter)),
            ("input_level_db", .number(inputLevelDB, decimals: 1)), ("output_level_db", .number(outputLevelDB, decimals: 1)),
            ("erle_db", number(metrics.averageEchoReturnLossEnhancementDB.map(Double.init), 1)),
            ("erl_db", number(metrics.averageEchoReturnLossDB.map(Double.init), 1)),
            ("delay_ms", delayMilliseconds.map { .int($0) } ?? .null),
            ("seconds_without_far", .number(Double(framesWithoutFar) / 100, decimals: 2)),
            ("x_real_time", number(speed, 1)),
        ])
    }
}
#endif

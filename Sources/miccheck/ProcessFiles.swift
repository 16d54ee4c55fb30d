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
        abstract:
            "Run recorded microphone audio through voice processing: echo cancellation, noise suppression, gain control.",
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

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "Report: text or json.")
    var format: ReportFormat = .text

    func validate() throws {
        if aec && far == nil {
            throw ValidationError("--aec needs --far, the recording of what the loudspeaker played.")
        }
        if agc == .adaptiveAnalog {
            throw ValidationError(
                "--agc adaptive-analog steers a capture device's volume, which a file does not have; use adaptive-digital."
            )
        }
        guard (0...31).contains(agcTarget) else { throw ValidationError("--agc-target must be between 0 and 31.") }
        guard (0...90).contains(agcMaxGain) else { throw ValidationError("--agc-max-gain must be between 0 and 90.") }
        if out.isEmpty { throw ValidationError("--out needs a file name.") }
        let outURL = URL(fileURLWithPath: out).standardizedFileURL
        for input in [near, far].compactMap({ $0 }) where URL(fileURLWithPath: input).standardizedFileURL == outURL {
            throw ValidationError("--out must not be an input file (\(input)).")
        }
    }

    func run() throws {
        #if os(Linux)
            let report: ProcessReport
            do { report = try processFiles() } catch { throw CommandFailure(error) }
            let writer = OutputWriter()
            writer.line(format == .json ? report.json : report.text)
            try writer.finish()
        #else
            throw CommandFailure(
                message: "miccheck: voice processing needs webrtc-audio-processing, which is only built on Linux.",
                status: ExitStatus.unavailable)
        #endif
    }

    var voiceConfiguration: VoiceProcessingConfiguration {
        VoiceProcessingConfiguration(
            echoCancellation: aec ? aecLevel : nil, noiseSuppression: ns, gainControl: agc,
            gainTargetDBFS: agcTarget, gainCompressionDB: agcMaxGain, highPassFilter: !noHighPass)
    }

    #if os(Linux)
        /// Opens the inputs and the output, runs the recording through voice processing and reports it.
        private func processFiles() throws(InputFailure) -> ProcessReport {
            if let why = outputProblem(out) { throw cannotWrite(why) }
            let nearReader = try openWAV(near).get()
            var farReader: WAVReader?
            if let far { farReader = try openWAV(far).get() }
            var configuration = voiceConfiguration
            configuration.sampleRate = VoiceProcessingConfiguration.processingRate(for: nearReader.format.sampleRate)
            let stream: VoiceProcessingStream
            do {
                stream = try VoiceProcessingStream(
                    configuration: configuration, nearRate: nearReader.format.sampleRate,
                    farRate: farReader?.format.sampleRate ?? nearReader.format.sampleRate)
            } catch {
                throw InputFailure(
                    file: near, message: "cannot be processed: \(error)", status: ExitStatus.runtimeFailure)
            }
            let started = DispatchTime.now().uptimeNanoseconds
            let summary = try processReplacingOut(nearReader, farReader, through: stream)
            for (name, reader) in [(near, nearReader)] + zip([far].compactMap { $0 }, [farReader].compactMap { $0 }) {
                if let note = reader.cutShortNote(name: name) { printError("miccheck: \(note).") }
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            return ProcessReport(
                near: near, far: far, out: out, configuration: configuration, seconds: summary.seconds,
                inputLevelDB: summary.inputLevelDB, outputLevelDB: summary.outputLevelDB,
                metrics: stream.processor.metrics, delayMilliseconds: stream.echoDelayMilliseconds,
                framesWithoutFar: far == nil ? 0 : stream.framesWithoutFar,
                speed: elapsed > 0 ? summary.seconds / elapsed : nil)
        }

        /// Writes the processed near end to a temporary file beside --out and renames it into place; on any
        /// failure the temporary file is removed.
        private func processReplacingOut(
            _ nearReader: WAVReader, _ farReader: WAVReader?,
            through stream: VoiceProcessingStream
        ) throws(InputFailure) -> RecordedCallProcessing.Summary {
            let temporary = partialPath(for: out)
            let writer: WAVFileWriter
            do { writer = try WAVFileWriter(path: temporary, sampleRate: stream.rate) } catch {
                throw cannotWrite(error.reason)
            }
            do throws(InputFailure) {
                var writeError: WAVFileWriter.WriteError?
                let summary: RecordedCallProcessing.Summary
                do throws(RecordedCallProcessing.Failure) {
                    summary = try RecordedCallProcessing.run(near: nearReader, far: farReader, through: stream) {
                        block in
                        if writeError == nil {
                            do throws(WAVFileWriter.WriteError) { try writer.write(block) } catch { writeError = error }
                        }
                    }
                } catch {
                    throw processingFailure(error)
                }
                if let writeError { throw cannotWrite(writeError.reason) }
                do throws(WAVFileWriter.WriteError) { try writer.finish() } catch { throw cannotWrite(error.reason) }
                if rename(temporary, out) != 0 { throw cannotWrite(String(cString: strerror(errno))) }
                return summary
            } catch {
                unlink(temporary)
                throw error
            }
        }

        private func processingFailure(_ error: RecordedCallProcessing.Failure) -> InputFailure {
            switch error {
            case .near(let e): failure(near, e)
            case .far(let e): failure(far ?? near, e)
            case .processing(let e):
                InputFailure(file: near, message: "processing failed: \(e)", status: ExitStatus.runtimeFailure)
            }
        }

        private func cannotWrite(_ why: String) -> InputFailure {
            InputFailure(file: out, message: "cannot be written (\(why))", status: ExitStatus.runtimeFailure)
        }
    #endif
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
            var lines = [
                "\(near) -> \(out): \(formatSeconds(seconds)) at \(configuration.sampleRate) Hz, "
                    + (stages.isEmpty ? "no processing" : stages.joined(separator: ", "))
            ]
            lines.append("  level \(fixed(inputLevelDB, 1)) dBFS in, \(fixed(outputLevelDB, 1)) dBFS out")
            if configuration.echoCancellation != nil {
                var echo = "  echo canceller:"
                if let erle = metrics.averageEchoReturnLossEnhancementDB {
                    echo += " echo return loss enhancement \(fixed(Double(erle), 1)) dB,"
                }
                if let erl = metrics.averageEchoReturnLossDB {
                    echo += " echo return loss \(fixed(Double(erl), 1)) dB,"
                }
                if let delayMilliseconds { echo += " delay \(delayMilliseconds) ms," }
                if echo.hasSuffix(",") { echo.removeLast() }
                if let echoNote { echo += (echo.hasSuffix(":") ? " " : "; ") + echoNote }
                if echo.hasSuffix(":") { echo += " no echo measured" }
                lines.append(echo)
            }
            if framesWithoutFar > 0 {
                lines.append(
                    "  the far end ended first: the last \(formatSeconds(Double(framesWithoutFar) / 100)) had no echo reference"
                )
            }
            if let speed { lines.append("  \(fixed(speed, 0))x real time") }
            return lines.joined(separator: "\n")
        }

        /// Why the canceller's figures are missing (nil when it gave them, or without echo cancellation):
        /// webrtc-audio-processing reports its averages after about 4 s of the far end, and only for an echo
        /// it finds.
        var echoNote: String? {
            guard configuration.echoCancellation != nil else { return nil }
            let farSeconds = seconds - Double(framesWithoutFar) / 100
            if metrics.averageEchoReturnLossEnhancementDB == nil {
                return farSeconds < Self.secondsBeforeMetrics
                    ? "the canceller gives its averages after about 4 s of the far end; this one has \(formatSeconds(farSeconds))"
                    : "the canceller measured no echo of the far end in the near end"
            }
            return delayMilliseconds == nil ? "the echo's delay was not found" : nil
        }

        /// The far end the canceller needs before it reports its averages.
        static let secondsBeforeMetrics = 4.0

        var json: String {
            func number(_ v: Double?, _ decimals: Int) -> JSONValue {
                v.map { .number($0, decimals: decimals) } ?? .null
            }
            func name(_ v: String?) -> JSONValue { v.map { .string($0) } ?? .null }
            return JSONLines.object([
                ("near", .string(near)), ("far", name(far)), ("out", .string(out)),
                ("sample_rate", .int(configuration.sampleRate)), ("seconds", .number(seconds, decimals: 3)),
                ("aec", name(configuration.echoCancellation?.rawValue)),
                ("ns", name(configuration.noiseSuppression?.rawValue)),
                ("agc", name(configuration.gainControl?.rawValue)), ("high_pass", .bool(configuration.highPassFilter)),
                ("input_level_db", .number(inputLevelDB, decimals: 1)),
                ("output_level_db", .number(outputLevelDB, decimals: 1)),
                ("erle_db", number(metrics.averageEchoReturnLossEnhancementDB.map(Double.init), 1)),
                ("erl_db", number(metrics.averageEchoReturnLossDB.map(Double.init), 1)),
                ("delay_ms", delayMilliseconds.map { .int($0) } ?? .null), ("echo_note", name(echoNote)),
                ("seconds_without_far", .number(Double(framesWithoutFar) / 100, decimals: 2)),
                ("x_real_time", number(speed, 1)),
            ])
        }
    }
#endif

import ArgumentParser
import Dispatch
import Foundation
import MicCheck
import Synchronization
#if canImport(MicCheckPulse)
import MicCheckPulse
#endif

enum LiveFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
}

struct Listen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Listen to a microphone live: levels, speech, and whether the microphone works.",
        discussion: """
            Captures from the default source of the PulseAudio server (PipeWire's Pulse server works \
            too), or from --source (see `miccheck devices`), at the source's own format.

            text: a live meter (level bar, dBFS, speech) redrawn in place on a terminal, with events \
            printed above it; with --muted, "You are muted." when you start speaking (2 s, once per \
            utterance, then quiet for 5 s). jsonl: a frame record every 10 ms and event records, `t` in \
            seconds from the start of capture, one line flushed per record.

            A source that delivers only silence (muted, unplugged) raises microphone_silent within 2 s \
            and microphone_active when sound returns (10 s for a source that sends digital silence \
            between words, as noise gates and DTX codecs do). Warnings: noisy_microphone / \
            microphone_clean (steady background noise while you are not talking), clipping / \
            clipping_ended, speech_too_quiet / speech_level_ok, and wrong_source (an output's \
            monitor instead of a microphone, once at the start). If the server goes away, listen reconnects for up \
            to --reconnect seconds and resumes (`t` keeps counting); if the source disappears, it falls \
            back to the default source. Ctrl-C or SIGTERM ends with a summary (on stderr for jsonl).
            """
    )

    @Option(help: "The source to capture from (a name from `miccheck devices`); default: the server's default source.")
    var source: String?

    @Flag(help: "You are muted in the call: show \"You are muted.\" when you start speaking.")
    var muted = false

    @Option(help: "Stop after this many seconds of audio (default: until Ctrl-C).")
    var duration: Double?

    @Option(help: "Output format: text or jsonl.")
    var format: LiveFormat = .text

    @Option(help: "Seconds to keep trying to reconnect when the audio server goes away.")
    var reconnect: Double = 10

    @Option(help: "The PulseAudio server to use (default: PULSE_SERVER, then the user's own server).")
    var server: String?

    @Flag(help: "Listen to the bundled sample played in real time instead of a microphone (no server needed).")
    var sample = false

    @OptionGroup var speech: SpeechOptions

    @Flag(help: "Capture through voice processing: echo cancellation against what the default output plays, noise suppression and a high-pass filter (webrtc-audio-processing). Levels and speech are then those of the processed audio.")
    var voiceProcessing = false

    @OptionGroup var ducking: DuckingOptions

    func validate() throws {
        if sample && voiceProcessing { throw ValidationError("--voice-processing needs a PulseAudio server; it cannot be used with --sample.") }
        if sample && ducking.duckOthers != nil { throw ValidationError("--duck-others needs a PulseAudio server; it cannot be used with --sample.") }
        if let duration, !(duration.isFinite && duration > 0) { throw ValidationError("--duration must be a positive number of seconds.") }
        guard reconnect.isFinite, (0...3600).contains(reconnect) else {
            throw ValidationError("--reconnect must be between 0 and 3600 seconds.")
        }
        if sample && (source != nil || server != nil) { throw ValidationError("--sample does not use a server or a source.") }
        if let source, source.isEmpty { throw ValidationError("--source needs a source name.") }
    }

    func run() throws {
        let out = OutputWriter()
        out.flushEachLine = true
        let display = LiveDisplay(out: out, format: format, muted: muted)
        let input = try openInput(display: display)
        #if canImport(MicCheckPulse)
        var duckingSession = try startDucking(display: display)
        defer { if let sentence = duckingSession?.stop() { display.message(sentence) } }
        #endif
        display.message("miccheck: listening to \(input.label)\(duration.map { " for \(formatSeconds($0))" } ?? "; Ctrl-C ends")")
        display.source = input.label

        let caught = CaughtSignal()
        signal(SIGPIPE, SIG_IGN)
        let handlers = [SIGINT, SIGTERM].map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { caught.value.store(sig, ordering: .relaxed); input.stop() }
            source.resume()
            return source
        }
        defer { handlers.forEach { $0.cancel() } }

        var summary = AnalysisSummary()
        // The display and the summary see records in time order; the ducker hears events at once.
        var order = TimeOrderedRecords()
        let show: (AnalysisOutput) -> Void = { record in
            summary.add(record)
            display.record(record)
        }
        let handle: (AnalysisOutput) -> Void = { record in
            order.add(record, emit: show)
            #if canImport(MicCheckPulse)
            if case .event(let event) = record, let session = duckingSession {
                if case .speechStarted = event { session.ducker.setSomeoneSpeaking(true) }
                if case .speechEnded = event { session.ducker.setSomeoneSpeaking(false) }
            }
            #endif
        }
        if let monitor = input.monitorSource { show(.event(.wrongSource(time: 0, source: monitor))) }
        var analyzer = Analyzer(inputRate: input.sampleRate, configuration: analysisConfiguration)
        var samplesInStream = 0
        let captureStart = DispatchTime.now()
        var buffer = [Float](repeating: 0, count: 8192)
        var failure: (sentence: String, status: Int32)?
        var ending = "the sample ended"
        loop: while true {
            let read: LiveRead
            do {
                read = try buffer.withUnsafeMutableBufferPointer { try input.read(into: $0, timeout: 0.1) }
            } catch {
                failure = liveFailure(error)
                break loop
            }
            switch read {
            case .samples(var n):
                // The samples that complete --duration; `finish` then analyses what the resampler holds.
                let wanted = duration.map { Int((($0 - analyzer.startTime) * Double(analyzer.inputRate)).rounded()) } ?? Int.max
                n = max(0, min(n, wanted - samplesInStream))
                buffer.withUnsafeBufferPointer { analyzer.process(UnsafeBufferPointer(rebasing: $0[0..<n]), emit: handle) }
                samplesInStream += n
                if let duration, samplesInStream >= wanted {
                    ending = "\(formatSeconds(duration)) done"
                    break loop
                }
            case .idle:
                display.tick()
            case .restarted:
                analyzer.finish(emit: handle)
                order.flush(emit: show)
                let wall = Double(DispatchTime.now().uptimeNanoseconds - captureStart.uptimeNanoseconds) / 1e9
                // A frame boundary at or after both the audio so far and the wall clock: `t` keeps counting.
                let resume = (max(analyzer.endTime, wall) * Double(LevelMeter.framesPerSecond)).rounded(.up)
                    / Double(LevelMeter.framesPerSecond)
                analyzer = Analyzer(inputRate: input.sampleRate, configuration: analysisConfiguration, startTime: resume)
                samplesInStream = 0
                #if canImport(MicCheckPulse)
                // A new server instance has new streams: duck them afresh.
                if duckingSession != nil {
                    _ = duckingSession?.stop()
                    duckingSession = try? startDucking(display: display)
                }
                #endif
                if let duration, resume >= duration { ending = "\(formatSeconds(duration)) done"; break loop }
            case .stopped:
                ending = caught.value.load(ordering: .relaxed) == SIGTERM ? "stopped by SIGTERM" : "stopped by Ctrl-C"
                break loop
            case .ended:
                break loop
            }
            if out.failed { ending = "the output was closed"; break loop }
            #if canImport(MicCheckPulse)
            duckingSession?.ducker.takeNotes().forEach { display.message($0) }
            #endif
        }
        analyzer.finish(emit: handle)
        order.flush(emit: show)
        if let note = input.closingNote { display.message(note) }
        if let failure { display.message(failure.sentence) }
        display.finish(summary: summary, input: input.label, dropped: input.droppedSamples,
                       rate: input.sampleRate, ending: failure == nil ? ending : "capture failed")
        out.flush()
        if let failure { throw ExitCode(failure.status) }
    }

    private func openInput(display: LiveDisplay) throws -> any LiveInput {
        if sample {
            switch openSample() {
            case .success(let reader): return SampleInput(reader: reader)
            case .failure(let f):
                printError(f.sentence)
                throw ExitCode(f.status)
            }
        }
        #if canImport(MicCheckPulse)
        recoverAbandonedDucking(server: server)
        do {
            let mic = try PulseMicrophone(source: source, server: server, reconnectWindow: reconnect) { notice in
                display.message(noticeSentence(notice))
            }
            #if canImport(MicCheckVoiceProcessing)
            if voiceProcessing {
                do {
                    let input = try VoiceProcessedInput(microphone: mic, server: server, configuration: .call())
                    input.takeNotices().forEach { display.message($0) }
                    return input
                } catch {
                    throw reported(("miccheck: voice processing could not start: \(error).", ExitStatus.runtimeFailure))
                }
            }
            #endif
            return PulseInput(microphone: mic)
        } catch let error as PulseError {
            throw reported(pulseFailure(error))
        }
        #else
        throw reported(("miccheck: live capture needs PulseAudio, which this build of miccheck does not include; `miccheck listen --sample` works.", ExitStatus.unavailable))
        #endif
    }

    /// With voice processing, echo residue does not start speech (`afterEchoCancellation`).
    private var analysisConfiguration: Analyzer.Configuration {
        speech.configuration(base: voiceProcessing ? .afterEchoCancellation : .default)
    }

    #if canImport(MicCheckPulse)
    private func startDucking(display: LiveDisplay) throws -> DuckingSession? {
        guard let level = ducking.duckOthers else { return nil }
        do {
            let session = try DuckingSession(level: level, advanced: ducking.advancedDucking, server: server)
            let count = session.ducker.duckedStreams.count
            display.message("miccheck: ducking other audio (\(level.rawValue)\(ducking.advancedDucking ? ", advanced" : "")); "
                            + "\(count) playback stream\(count == 1 ? "" : "s") now")
            return session
        } catch {
            throw reported(pulseFailure(error))
        }
    }
    #endif

}

/// Prints a failure's sentence on stderr and returns the exit code to throw.
func reported(_ failure: (sentence: String, status: Int32)) -> ExitCode {
    printError(failure.sentence)
    return ExitCode(failure.status)
}

/// The signal that ended a live command, set on a signal handler's queue.
final class CaughtSignal: Sendable {
    let value = Atomic<Int32>(0)
}

#if canImport(MicCheckPulse)
func noticeSentence(_ notice: PulseMicrophone.Notice) -> String {
    switch notice {
    case .serverLost(let window):
        "miccheck: the PulseAudio server went away; reconnecting for up to \(formatSeconds(window))."
    case .reconnected(let source, let gap):
        "miccheck: reconnected after \(formatSeconds(gap)); listening to \(source.description) (\(source.name)) again."
    case .sourceLost(let lost, let fallback):
        "miccheck: the source \(lost) disappeared; listening to the default source \(fallback.description) (\(fallback.name)) instead."
    }
}
#endif

/// What `listen` shows: JSON Lines, or a timeline with a live meter on a terminal.
final class LiveDisplay {
    private let out: OutputWriter
    private let format: LiveFormat
    private let terminal: Bool
    private var notice: MutedSpeechNotice
    private var level: Float = Decibels.floor
    private var speaking = false
    private var now = 0.0
    private var lastDraw = -1.0
    private var meterShown = false
    /// The source listened to, named in warnings that suggest changing its volume.
    var source: String?

    init(out: OutputWriter, format: LiveFormat, muted: Bool) {
        self.out = out
        self.format = format
        terminal = format == .text && isatty(1) == 1
        notice = MutedSpeechNotice(isMuted: muted)
    }

    func record(_ record: AnalysisOutput) {
        switch record {
        case .frame(let f):
            now = f.time
            level = f.levelDB
            speaking = f.isSpeaking
            if format == .jsonl { out.line(JSONLines.frame(f)) } else if terminal && now - lastDraw >= 0.1 { drawMeter() }
        case .event(let e):
            if format == .jsonl { out.line(JSONLines.event(e)); return }
            above(timelineLine(e, source: source))
            if case .speechStarted(let t, _) = e, notice.speechStarted(at: t) {
                above(String(repeating: " ", count: max(2, 12 - formatSeconds(t).count)) + formatSeconds(t) + "  You are muted.")
            }
        }
    }

    /// Nothing arrived for a while: keep the meter honest.
    func tick() { if terminal { drawMeter() } }

    /// A sentence for the user on stderr, kept clear of the meter.
    func message(_ s: String) {
        clearMeter()
        printError(s)
        if terminal && meterShown { drawMeter() }
    }

    func finish(summary: AnalysisSummary, input: String, dropped: Int, rate: Int, ending: String) {
        clearMeter()
        let framesDropped = dropped / max(1, rate / LevelMeter.framesPerSecond)
        let tail = "  \(ending); listened to \(input); \(framesDropped) frame\(framesDropped == 1 ? "" : "s") dropped"
            + (notice.count > 0 ? "; \"You are muted.\" shown \(notice.count) time\(notice.count == 1 ? "" : "s")" : "")
        if format == .text {
            out.line(summaryLine(summary))
            out.line(tail)
        } else {
            printError(summaryLine(summary))
            printError(tail)
        }
    }

    private func above(_ line: String) {
        clearMeter()
        out.line(line)
        if terminal { drawMeter() }
    }

    private func clearMeter() {
        guard terminal, meterShown else { return }
        out.raw("\r\u{1B}[K")
    }

    private func drawMeter() {
        lastDraw = now
        meterShown = true
        let width = 30
        let filled = Int((max(0, min(1, (level + 60) / 60)) * Float(width)).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let db = level <= Decibels.floor ? "  -inf" : fixed(Double(level), 1)
        let pad = String(repeating: " ", count: max(0, 6 - db.count))
        var line = "\r\u{1B}[K" + formatSeconds(now) + "  [" + bar + "] " + pad + db + " dBFS"
        line += speaking ? "  speaking" : "          "
        if notice.isVisible(at: now) { line += "  \u{1B}[1mYou are muted.\u{1B}[0m" }
        out.raw(line)
    }
}

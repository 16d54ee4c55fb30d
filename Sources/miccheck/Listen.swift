public import ArgumentParser
import Dispatch
import Foundation
import MicCheck
import MicCheckCall
import MicCheckLive
import MicCheckLivePulse
import MicCheckTerminal
import Synchronization

#if canImport(MicCheckPulse)
    import MicCheckPulse
#endif

extension LiveDisplay.Format: ExpressibleByArgument {}

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
            back to the default source. Microphones plugged in or removed meanwhile are reported (jsonl: \
            source_added, source_removed; source_lost for the one in use), never followed. Ctrl-C or SIGTERM ends \
            with a summary (on stderr for jsonl).
            """
    )

    @OptionGroup var microphone: MicrophoneOptions

    @Flag(help: "You are muted in the call: show \"You are muted.\" when you start speaking.")
    var muted = false

    @Option(help: "Stop after this many seconds of audio (default: until Ctrl-C).")
    var duration: Double?

    @Option(help: "Output format: text or jsonl.")
    var format: LiveDisplay.Format = .text

    @Option(help: "Seconds to keep trying to reconnect when the audio server goes away.")
    var reconnect: Double = 10

    @Flag(help: "Listen to the bundled sample played in real time instead of a microphone (no server needed).")
    var sample = false

    @OptionGroup var speech: SpeechOptions

    @Flag(
        help:
            "Capture through voice processing: echo cancellation against what the default output plays, noise suppression and a high-pass filter (webrtc-audio-processing). Levels and speech are then those of the processed audio."
    )
    var voiceProcessing = false

    @OptionGroup var ducking: DuckingOptions

    func validate() throws {
        if sample && voiceProcessing {
            throw ValidationError("--voice-processing needs a PulseAudio server; it cannot be used with --sample.")
        }
        if sample && ducking.duckOthers != nil {
            throw ValidationError("--duck-others needs a PulseAudio server; it cannot be used with --sample.")
        }
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration must be a positive number of seconds.")
        }
        guard reconnect.isFinite, (0...3600).contains(reconnect) else {
            throw ValidationError("--reconnect must be between 0 and 3600 seconds.")
        }
        if sample && microphone.isNamed {
            throw ValidationError("--sample does not use a server or a source.")
        }
    }

    func run() throws {
        let out = OutputWriter(flushEachLine: true)
        let display = LiveDisplay(output: out, format: format, muted: muted, terminal: isatty(1) == 1)
        let (source, deviceChanges) = try openSource(display: display)
        let session = LiveAnalysis(
            source: source,
            configuration: .init(analysis: analysisConfiguration, duration: duration.map(Duration.seconds)))
        let signals = StopSignals { session.stop() }
        defer { signals.cancel() }
        let ducking = try startDucking(display: display)
        defer { if let sentence = ducking?.stop() { display.message(sentence) } }
        display.message(
            "miccheck: listening to \(source.label)\(duration.map { " for \(formatSeconds($0))" } ?? "; Ctrl-C ends")")
        display.source = source.label
        let ending = session.run { record in
            display.record(record)
            if let deviceChanges { for change in deviceChanges() { display.device(change) } }
            ducking?.follow(record, display: display)
            if out.failed { session.stop() }
        }
        if let note = source.closingNote { display.message(note) }
        let failure: CommandFailure? = if case .failed(let error) = ending { sourceFailure(error) } else { nil }
        if let failure { display.message(failure.message) }
        display.finish(
            input: source.label, dropped: source.droppedSamples, rate: source.sampleRate,
            ending: endingText(ending, signal: signals.caught, outputClosed: out.failed))
        out.flush()
        if let failure { throw ExitCode(failure.status) }
    }

    private func endingText(_ ending: LiveEnding, signal: Int32, outputClosed: Bool) -> String {
        switch ending {
        case .ended: "the sample ended"
        case .durationReached(let d): "\(formatSeconds(d / .seconds(1))) done"
        case .failed: "capture failed"
        case .stopped:
            outputClosed ? "the output was closed" : signal == SIGTERM ? "stopped by SIGTERM" : "stopped by Ctrl-C"
        }
    }

    /// The source, and where to take the microphones that came and went since the last look (on the
    /// reading thread: listen's own).
    private func openSource(
        display: LiveDisplay
    ) throws -> (any AudioSource, (() -> [MicrophoneDeviceChange])?) {
        do {
            if sample { return (try BundledSample.source(pacing: .realTime), nil) }
            #if canImport(MicCheckPulse)
                recoverAbandonedDucking(server: microphone.server)
                // Reporting new microphones is a bonus: without a watcher listen still listens.
                let devices = try? MicrophoneDevices(server: microphone.server)
                let mic = try PulseAudioSource(
                    source: microphone.source, server: microphone.server, reconnectWindow: .wait(seconds: reconnect)
                ) { notice in
                    display.message("miccheck: \(notice).")
                    devices?.noticed(notice)
                }
                devices?.noticed(inUse: mic.microphone.source)
                guard voiceProcessing else { return (mic, devices?.take) }
                let processed = try VoiceProcessedSource(
                    microphone: mic.microphone, server: microphone.server, configuration: .call())
                for notice in processed.takeNotices() { display.message(notice) }
                return (processed, devices?.take)
            #else
                throw AudioSourceError(
                    .noServer, "live capture needs PulseAudio, which this build of miccheck does not include")
            #endif
        } catch {
            throw sourceFailure(error)
        }
    }

    /// With voice processing, echo residue does not start speech (`afterEchoCancellation`).
    private var analysisConfiguration: AnalysisConfiguration {
        speech.configuration(base: voiceProcessing ? .afterEchoCancellation : .default)
    }

    private func startDucking(display: LiveDisplay) throws -> ListenDucking? {
        guard let level = ducking.duckOthers else { return nil }
        #if canImport(MicCheckPulse)
            do {
                let session = try ListenDucking(
                    level: level, advanced: ducking.advancedDucking, server: microphone.server)
                let count = session.duckedStreams
                display.message(
                    "miccheck: ducking other audio (\(level.rawValue)\(ducking.advancedDucking ? ", advanced" : "")); "
                        + "\(count) playback stream\(count == 1 ? "" : "s") now")
                return session
            } catch {
                throw pulseFailure(error)
            }
        #else
            throw CommandFailure(
                message: "miccheck: ducking needs PulseAudio, which this build of miccheck does not include.",
                status: ExitStatus.unavailable)
        #endif
    }
}

/// SIGINT and SIGTERM stop a live session rather than the process; `caught` tells which came.
final class StopSignals {
    private var sources: [any DispatchSourceSignal] = []

    init(stop: @escaping @Sendable () -> Void) {
        Foundation.signal(SIGPIPE, SIG_IGN)
        let caught = CaughtSignal()
        sources = [SIGINT, SIGTERM].map { sig in
            Foundation.signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                caught.value.store(sig, ordering: .relaxed)
                stop()
            }
            source.resume()
            return source
        }
        self.caughtSignal = caught
    }

    private let caughtSignal: CaughtSignal
    /// The signal that came (0: none).
    var caught: Int32 { caughtSignal.value.load(ordering: .relaxed) }

    func cancel() { for source in sources { source.cancel() } }
}

/// The signal that ended a live command, set on a signal handler's queue.
final class CaughtSignal: Sendable {
    let value = Atomic<Int32>(0)
}

import ArgumentParser
import Dispatch
import Foundation
import MicCheck
import MicCheckLive
import MicCheckLivePulse
import Synchronization

#if canImport(MicCheckPulse)
    import MicCheckPulse
#endif

struct MicTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mic-test",
        abstract: "Test your microphone: record a few seconds, hear them back, and read how your voice came through.",
        discussion: """
            Records --seconds (5) from the PulseAudio source (or --input, a WAV file, or --sample, the \
            bundled sample), judges the recording with MicCheck's own analysis, and plays it back through \
            the default output (not for --input or --sample; --no-playback skips it). The verdict: clear, \
            too_quiet (with the source whose input volume to raise), clipping, noisy (the noise's kind and \
            how far below your voice), no_voice or dead. The recording is kept in memory only.

            text: the verdict's sentence on stdout, what is happening on stderr. json: one object with the \
            verdict's fields (verdict, sentence, recorded_seconds, speech_seconds, speech_level_db, \
            noise_level_db, and noise, clipped_percent, ceiling_db, reason where they apply) and source. \
            Exit status 0 when the test ran, whatever its verdict; with --fail-unless-clear, 1 unless clear.
            """
    )

    @OptionGroup var microphone: MicrophoneOptions

    @Option(help: "Test on a WAV file instead of a microphone (read as fast as possible; no playback).")
    var input: String?

    @Flag(help: "Test on the bundled sample instead of a microphone (no server needed; no playback).")
    var sample = false

    @Option(help: "Seconds to record, 1 to 10.")
    var seconds: Double = 5

    @Flag(help: "Do not play the recording back.")
    var noPlayback = false

    @Option(help: "Output format: text or json.")
    var format: TestFormat = .text

    @Flag(help: "Exit with status 1 unless the verdict is clear (for scripts).")
    var failUnlessClear = false

    enum TestFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func validate() throws {
        guard seconds.isFinite, (1...10).contains(seconds) else {
            throw ValidationError("--seconds must be from 1 to 10.")
        }
        if [input != nil, sample, microphone.isNamed].filter({ $0 }).count > 1 {
            throw ValidationError("use one of --input, --sample, or a PulseAudio source (--source, --server).")
        }
        if let input, input.isEmpty { throw ValidationError("--input needs a file.") }
    }

    func run() throws {
        let (audio, fromMicrophone) = try openSource()
        let text = format == .text
        if text {
            // "Say a sentence" is for a person at a microphone; a file or the sample is judged as it is.
            printError(
                fromMicrophone
                    ? "miccheck: recording \(formatSeconds(seconds)) from \(audio.label): say a sentence or two as you would in the call."
                    : "miccheck: testing the first \(formatSeconds(seconds)) of \(audio.label) as the microphone's recording."
            )
        }
        let result: MicrophoneTestResult
        do {
            result = try LiveMicrophoneTest.record(from: audio, configuration: .init(seconds: seconds))
        } catch {
            throw sourceFailure(error, sample: "miccheck mic-test --sample")
        }
        audio.stop()
        let source = fromMicrophone ? audio.label : nil
        if text {
            print(result.verdict.sentence(source: source))
        } else {
            print(
                JSONValue.object(result.verdict.jsonFields(source: source) + [("source", .string(audio.label))]).encoded
            )
        }
        if fromMicrophone, !noPlayback, !result.recording.isEmpty { playBack(result, announce: text) }
        if failUnlessClear, result.verdict.kind != .clear { throw ExitCode(ExitStatus.runtimeFailure) }
    }

    private func openSource() throws -> (any AudioSource, fromMicrophone: Bool) {
        do {
            if sample { return (try BundledSample.source(pacing: .asFastAsPossible), false) }
            if let input { return (try WAVFileSource(path: input, pacing: .asFastAsPossible), false) }
            #if canImport(MicCheckPulse)
                return (
                    try PulseAudioSource(
                        source: microphone.source, server: microphone.server, reconnectWindow: .seconds(2)), true
                )
            #else
                throw AudioSourceError(
                    .noServer, "recording needs PulseAudio, which this build of miccheck does not include")
            #endif
        } catch {
            throw sourceFailure(error, sample: "miccheck mic-test --sample")
        }
    }

    /// Plays the recording through the default output and waits until it has been heard.
    private func playBack(_ result: MicrophoneTestResult, announce: Bool) {
        #if canImport(MicCheckPulse)
            if announce { printError("miccheck: playing back your recording…") }
            let done = DispatchSemaphore(value: 0)
            let failure = FailureBox()
            _ = PulsePlayback.start(result.recording, sampleRate: result.sampleRate, server: microphone.server) {
                error in
                failure.set(error)
                done.signal()
            }
            done.wait()
            if let error = failure.error { printError("miccheck: the recording could not be played back: \(error).") }
        #endif
    }
}

#if canImport(MicCheckPulse)
    /// The playback's error, set once on its thread before the semaphore is signalled.
    private final class FailureBox: Sendable {
        private let value = Mutex<PulseError?>(nil)
        func set(_ error: PulseError?) { value.withLock { $0 = error } }
        var error: PulseError? { value.withLock { $0 } }
    }
#endif

import Dispatch
import Foundation
import MicCheck
import Synchronization
#if canImport(MicCheckPulse)
import MicCheckPulse
#endif
#if canImport(MicCheckVoiceProcessing)
import MicCheckVoiceProcessing
#endif

/// What one read of a live input brought.
enum LiveRead: Equatable {
    /// This many samples at the input's current rate are at the start of the buffer.
    case samples(Int)
    /// Nothing yet.
    case idle
    /// A new stream began, perhaps at another rate and after a gap.
    case restarted
    /// Stopped on request (a signal).
    case stopped
    /// The input has nothing more (the sample is over).
    case ended
}

/// A live source of mono samples, read from one thread; `stop()` may be called from any thread.
protocol LiveInput: AnyObject, Sendable {
    /// What the user is listening to ("VirtualMic (virtmic)").
    var label: String { get }
    var sampleRate: Int { get }
    /// Samples lost because the reader fell behind.
    var droppedSamples: Int { get }
    func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double) throws -> LiveRead
    func stop()
    /// A line for the end of the run about how the input went (nil: nothing to say).
    var closingNote: String? { get }
    /// The source, named as in `label`, when it is the monitor of an output rather than a microphone.
    var monitorSource: String? { get }
}

extension LiveInput {
    var closingNote: String? { nil }
    var monitorSource: String? { nil }
}

/// The bundled sample, delivered in real time in 10 ms blocks, as a microphone would deliver it;
/// played once, or over and over when given a way to reopen it.
final class SampleInput: LiveInput, @unchecked Sendable {
    // @unchecked Sendable: `reader`, `delivered` and `started` are used only by the reading thread (the
    // LiveInput contract); `stopping` is an `Atomic` and `wake` a semaphore, which is all `stop()` touches.
    private var reader: WAVReader
    private let reopen: (@Sendable () -> WAVReader?)?
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private var delivered = 0
    private var started: DispatchTime?
    let sampleRate: Int
    let label = "the bundled sample (played in real time)"
    var droppedSamples: Int { 0 }

    /// - Parameter reopen: makes a fresh reader of the same audio when one ends (nil: play once).
    init(reader: WAVReader, reopen: (@Sendable () -> WAVReader?)? = nil) {
        self.reader = reader
        self.reopen = reopen
        sampleRate = reader.format.sampleRate
    }

    func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double) throws -> LiveRead {
        if stopping.load(ordering: .acquiring) { return .stopped }
        let start = started ?? .now()
        started = start
        let block = sampleRate / LevelMeter.framesPerSecond
        let due = start + Double(delivered + block) / Double(sampleRate)
        let deadline = DispatchTime.now() + timeout
        if due > .now() {
            _ = wake.wait(timeout: min(due, deadline))
            if stopping.load(ordering: .acquiring) { return .stopped }
            if due > .now() { return .idle }
        }
        let slice = UnsafeMutableBufferPointer(rebasing: buffer[0..<min(block, buffer.count)])
        var n = try reader.read(into: slice)
        if n == 0, let next = reopen?(), next.format.sampleRate == sampleRate {
            reader = next
            n = try reader.read(into: slice)
        }
        if n == 0 { return .ended }
        delivered += n
        return .samples(n)
    }
}

/// The sentence and exit status for a live input that failed.
func liveFailure(_ error: any Error) -> (sentence: String, status: Int32) {
    #if canImport(MicCheckPulse)
    if let e = error as? PulseError { return pulseFailure(e) }
    #endif
    if let e = error as? AudioInputError { return ("miccheck: sample.wav: \(e.description).", ExitStatus.dataError) }
    return ("miccheck: capture failed: \(error).", ExitStatus.runtimeFailure)
}

#if canImport(MicCheckPulse)
/// A PulseAudio microphone as a live input.
final class PulseInput: LiveInput, @unchecked Sendable {
    // @unchecked Sendable: the wrapped `PulseMicrophone` is itself Sendable under the same contract
    // (one reading thread; `stop()` from anywhere); this class adds no state of its own.
    let microphone: PulseMicrophone

    init(microphone: PulseMicrophone) { self.microphone = microphone }

    var label: String {
        guard let s = microphone.source else { return "no source" }
        return "\(s.description) (\(s.name))"
    }
    var monitorSource: String? { microphone.monitorSource }
    var sampleRate: Int { microphone.sampleRate }
    var droppedSamples: Int { microphone.droppedSamples }
    func stop() { microphone.stop() }

    func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double) throws -> LiveRead {
        switch try microphone.read(into: buffer, timeout: timeout) {
        case .samples(let n): .samples(n)
        case .idle: .idle
        case .restarted: .restarted
        case .stopped: .stopped
        }
    }
}

/// The one sentence and exit status for a failure to talk to the server.
func pulseFailure(_ error: PulseError) -> (sentence: String, status: Int32) {
    switch error.kind {
    case .noServer:
        return ("miccheck: \(error.message). Start one (`pulseaudio --start`, or PipeWire's pipewire-pulse) or point "
                + "PULSE_SERVER at one; `miccheck listen --sample` works without one.", ExitStatus.unavailable)
    case .accessDenied:
        return ("miccheck: \(error.message).", ExitStatus.noPermission)
    case .noSuchSource:
        return ("miccheck: \(error.message); `miccheck devices` lists the sources.", ExitStatus.noInput)
    case .connectionLost:
        return ("miccheck: \(error.message).", ExitStatus.unavailable)
    case .failed:
        return ("miccheck: \(error.message).", ExitStatus.runtimeFailure)
    }
}
#endif

#if canImport(MicCheckPulse) && canImport(MicCheckVoiceProcessing)
/// A PulseAudio microphone through voice processing, with the default output's monitor (what the
/// loudspeakers play) as the echo reference. Delivers processed audio at 16 kHz.
final class VoiceProcessedInput: LiveInput, @unchecked Sendable {
    // @unchecked Sendable: `microphone` is Sendable under its own contract (one reading thread,
    // `stop()` from anywhere). Everything else (`far`, `stream`, buffers, counters) is used only by
    // `read(into:timeout:)`, on the one reading thread.
    let microphone: PulseMicrophone
    private let server: String?
    private let configuration: VoiceProcessingConfiguration
    private var far: PulseSinkMonitor?
    private var stream: VoiceProcessingStream
    private var nearBlock = [Float](repeating: 0, count: 2_048)
    private var farBlock = [Float](repeating: 0, count: 4_096)
    /// Samples each capture had dropped when last looked at (a stalled reader overflows its ring).
    private var nearDropped = 0
    private var farDropped = 0
    /// What to say about the echo reference, taken by the caller.
    private(set) var notices: [String] = []

    /// A near-end frame waits at most this long for the far end (late under load, or suspended);
    /// the far-end audio that arrives after that is skipped, so the two stay aligned.
    static let farWait = 0.1

    init(microphone: PulseMicrophone, server: String?, configuration: VoiceProcessingConfiguration) throws {
        self.microphone = microphone
        self.server = server
        self.configuration = configuration
        (far, stream) = try Self.connect(microphone: microphone, server: server, configuration: configuration)
        nearDropped = microphone.droppedSamples
        if far == nil { notices.append(Self.noReference) }
    }

    static let noReference = "miccheck: no echo reference (the default output has no monitor); echo cancellation has nothing to cancel."

    private static func connect(microphone: PulseMicrophone, server: String?, configuration: VoiceProcessingConfiguration)
        throws -> (PulseSinkMonitor?, VoiceProcessingStream)
    {
        let far = try? PulseSinkMonitor(server: server)
        // Start both from the same instant: the microphone has been capturing since it opened, and
        // pairing its backlog with the far end's first frames would put the echo that much later than
        // its reference (seconds under load, beyond what the canceller can find).
        microphone.discardBuffered()
        far?.discardBuffered()
        let stream = try VoiceProcessingStream(
            configuration: configuration, nearRate: microphone.sampleRate,
            farRate: far?.sampleRate ?? microphone.sampleRate, maximumFarWait: farWait)
        return (far, stream)
    }

    var monitorSource: String? { microphone.monitorSource }
    var label: String {
        guard let s = microphone.source else { return "no source" }
        return "\(s.description) (\(s.name)) through voice processing"
            + (far.map { ", echo reference \($0.sinkName)" } ?? "")
    }
    var sampleRate: Int { configuration.sampleRate }
    var droppedSamples: Int { microphone.droppedSamples }
    func stop() { microphone.stop() }

    func takeNotices() -> [String] { defer { notices = [] }; return notices }

    /// What the echo canceller measured: the echo delay, how much echo it removed, and how often
    /// the echo reference was missing or late. Read on the reading thread, after the last read.
    var closingNote: String? {
        guard far != nil else { return nil }
        let m = stream.processor.metrics
        var parts: [String] = []
        parts.append(stream.echoDelayMilliseconds.map { "echo delay \($0) ms" } ?? "no echo delay found")
        if let e = m.averageEchoReturnLossEnhancementDB { parts.append("echo removed \(fixed(Double(e), 1)) dB on average") }
        parts.append("\(stream.framesWithoutFar) frames without the echo reference")
        if stream.farSamplesDropped > 0 { parts.append("\(stream.farSamplesDropped) reference samples dropped") }
        return "miccheck: voice processing: " + parts.joined(separator: ", ") + "."
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double) throws -> LiveRead {
        // Processed audio is at most 16/8 of the near-end samples plus a frame: keep within `buffer`.
        let limit = min(nearBlock.count, max(1, (buffer.count - configuration.frameLength) / 2))
        let read = try nearBlock.withUnsafeMutableBufferPointer {
            try microphone.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<limit]), timeout: timeout)
        }
        switch read {
        case .samples(let n):
            // Dropped blocks are gaps in time: keep the two captures paired across them.
            let nearLost = microphone.droppedSamples - nearDropped
            nearDropped += nearLost
            stream.nearSamplesLost(nearLost)
            drainFar()
            var made = 0
            try nearBlock.withUnsafeBufferPointer { near in
                try stream.pushNear(UnsafeBufferPointer(rebasing: near[0..<n])) { processed in
                    for (i, x) in processed.enumerated() where made + i < buffer.count { buffer[made + i] = x }
                    made += processed.count
                }
            }
            return made > 0 ? .samples(min(made, buffer.count)) : .idle
        case .idle:
            drainFar()
            return .idle
        case .restarted:
            // A new stream, perhaps at another rate, perhaps on a new server: start again.
            far?.close()
            (far, stream) = try Self.connect(microphone: microphone, server: server, configuration: configuration)
            (nearDropped, farDropped) = (microphone.droppedSamples, 0)
            if far == nil { notices.append(Self.noReference) }
            return .restarted
        case .stopped:
            far?.close()
            return .stopped
        }
    }

    private func drainFar() {
        guard let far else { return }
        let farLost = far.stream.ring.droppedSamples - farDropped
        farDropped += farLost
        stream.farSamplesLost(farLost)
        while true {
            let m = farBlock.withUnsafeMutableBufferPointer { far.read(into: $0) }
            if m == 0 { break }
            farBlock.withUnsafeBufferPointer { stream.pushFar(UnsafeBufferPointer(rebasing: $0[0..<m])) }
        }
    }
}
#endif

#if canImport(MicCheckPulse)
extension PulseMicrophone {
    /// The source, as "Description (name)", when it is an output's monitor rather than a microphone.
    var monitorSource: String? { source.flatMap { $0.isMonitor ? "\($0.description) (\($0.name))" : nil } }
}
#endif

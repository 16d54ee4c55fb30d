// The kernel's C ABI for WebAssembly: what the page's AudioWorklet calls (Web/sdk/kernel.js wraps
// it). scripts/build-wasm.sh compiles these functions and the kernel's sources as one Embedded Swift module
// into miccheck.wasm; natively they build as the MicCheckWasm target, so that every build type-checks them.
//
// A session is one analysis of one microphone track: the page writes samples into its input buffer, calls
// process, and reads the records that call decided, in time order, as eight Float64 each:
//   [kind, t, level_db, peak_db, probability, speech, speaking, 0]   kind 0, a frame
//   [kind, t, 0, 0, 0, 0, text offset, text length]                  kind 1, an event: its JSON Lines text
// The event's text is the line `miccheck analyze --format jsonl` prints for it (UTF-8, in the text buffer).
#if !hasFeature(Embedded)
    import MicCheckKernel
#endif

/// One analysis and its buffers. A class so that the page holds it by an address; nothing in it is shared
/// between threads (a page's worklet is one thread; natively nothing calls these functions).
final class KernelSession {
    var analysis: StreamingAnalysis
    var input: [Float]
    var records: [Double] = []
    var text: [UInt8] = []

    init(analysis: StreamingAnalysis, capacity: Int) {
        self.analysis = analysis
        input = [Float](repeating: 0, count: capacity)
        records.reserveCapacity(8 * 64)
        text.reserveCapacity(1024)
    }

    func add(_ record: AnalysisOutput) {
        switch record {
        case .frame(let f):
            records.append(0)
            records.append(f.time)
            records.append(Double(f.levelDB))
            records.append(Double(f.peakDB))
            records.append(Double(f.probability))
            records.append(f.isSpeech ? 1 : 0)
            records.append(f.isSpeaking ? 1 : 0)
            records.append(0)
        case .event(let e):
            let line = JSONLines.event(e)
            let offset = text.count
            text.append(contentsOf: line.utf8)
            records.append(1)
            records.append(e.time)
            records.append(0)
            records.append(0)
            records.append(0)
            records.append(0)
            records.append(Double(offset))
            records.append(Double(text.count - offset))
        }
    }

    func clear() {
        records.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
    }
}

/// The most samples one process call takes (a page's render quantum is 128; a second at 96 kHz fits).
let maximumBlock = 96_000

private func session(_ handle: UnsafeMutableRawPointer) -> KernelSession {
    Unmanaged<KernelSession>.fromOpaque(handle).takeUnretainedValue()
}

/// A new analysis of samples at `sampleRate` (Hz), taking up to `capacity` samples a call; null when the rate
/// is not one of the supported rates or the capacity is not 1 to 96,000.
@_cdecl("miccheck_create")
public func miccheckCreate(_ sampleRate: Int32, _ capacity: Int32) -> UnsafeMutableRawPointer? {
    guard capacity > 0, capacity <= maximumBlock else { return nil }
    let analysis: StreamingAnalysis
    do throws(AnalysisError) { analysis = try StreamingAnalysis(sampleRate: Int(sampleRate)) } catch { return nil }
    return Unmanaged.passRetained(KernelSession(analysis: analysis, capacity: Int(capacity))).toOpaque()
}

/// Frees a session.
@_cdecl("miccheck_destroy")
public func miccheckDestroy(_ handle: UnsafeMutableRawPointer) {
    Unmanaged<KernelSession>.fromOpaque(handle).release()
}

/// Where the page writes the samples of the next process call (mono, −1...1, `capacity` of them at most).
@_cdecl("miccheck_input")
public func miccheckInput(_ handle: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Float>? {
    session(handle).input.withUnsafeMutableBufferPointer { $0.baseAddress }
}

/// Analyses the first `count` samples of the input buffer; returns how many records they decided.
@_cdecl("miccheck_process")
public func miccheckProcess(_ handle: UnsafeMutableRawPointer, _ count: Int32) -> Int32 {
    let s = session(handle)
    s.clear()
    let n = max(0, min(Int(count), s.input.count))
    s.input.withUnsafeBufferPointer { b in
        s.analysis.process(UnsafeBufferPointer(rebasing: b[0..<n])) { s.add($0) }
    }
    return Int32(s.records.count / 8)
}

/// Ends the input (what the resampler holds, an utterance in progress); returns how many records that decided.
@_cdecl("miccheck_finish")
public func miccheckFinish(_ handle: UnsafeMutableRawPointer) -> Int32 {
    let s = session(handle)
    s.clear()
    s.analysis.finish { s.add($0) }
    return Int32(s.records.count / 8)
}

/// The records of the last process or finish call, eight Float64 each.
@_cdecl("miccheck_records")
public func miccheckRecords(_ handle: UnsafeMutableRawPointer) -> UnsafePointer<Double>? {
    session(handle).records.withUnsafeBufferPointer { $0.baseAddress }
}

/// The events' JSON Lines text of the last process or finish call.
@_cdecl("miccheck_text")
public func miccheckText(_ handle: UnsafeMutableRawPointer) -> UnsafePointer<UInt8>? {
    session(handle).text.withUnsafeBufferPointer { $0.baseAddress }
}

// MARK: - The microphone as the page shows it (MicrophoneChannel)
//
// A channel is one participant's microphone: the analysis, the call's rules and the microphone test, saying
// what the page shows as the call protocol's messages (`microphone`, `muted_notice`, `typing_notice`,
// `microphone_test`), byte for byte what `miccheck serve` says when it analyses. Each call returns how many
// bytes of messages it made: JSON texts, one a line, at miccheck_channel_messages.

/// One channel and its buffers; held by address, used by one thread (see KernelSession).
final class ChannelSession {
    var channel: MicrophoneChannel
    var input: [Float]
    var messages: [UInt8] = []

    init(channel: MicrophoneChannel, capacity: Int) {
        self.channel = channel
        input = [Float](repeating: 0, count: capacity)
        messages.reserveCapacity(4096)
    }

    func add(_ m: MicrophoneChannel.Message) {
        messages.append(contentsOf: m.text.utf8)
        messages.append(10)
    }

    /// Runs `change` on the channel with a fresh message buffer; returns the bytes of messages it made.
    func run(_ change: (inout MicrophoneChannel, (MicrophoneChannel.Message) -> Void) -> Void) -> Int32 {
        messages.removeAll(keepingCapacity: true)
        // In place: the messages are another stored property, so the closure may append to them.
        change(&channel) { self.add($0) }
        return Int32(messages.count)
    }
}

private func channelSession(_ handle: UnsafeMutableRawPointer) -> ChannelSession {
    Unmanaged<ChannelSession>.fromOpaque(handle).takeUnretainedValue()
}

/// A new channel for audio at `sampleRate` (Hz), up to `capacity` samples a call; `audioOn`, `maySendAudio`:
/// 1 or 0; `now`: seconds on the page's clock. Null for a rate or capacity it does not take.
@_cdecl("miccheck_channel_create")
public func miccheckChannelCreate(
    _ sampleRate: Int32, _ capacity: Int32, _ audioOn: Int32, _ maySendAudio: Int32, _ now: Double
) -> UnsafeMutableRawPointer? {
    guard capacity > 0, capacity <= maximumBlock else { return nil }
    let channel: MicrophoneChannel
    do throws(AnalysisError) {
        channel = try MicrophoneChannel(
            sampleRate: Int(sampleRate), audioOn: audioOn != 0, maySendAudio: maySendAudio != 0, now: now)
    } catch {
        return nil
    }
    return Unmanaged.passRetained(ChannelSession(channel: channel, capacity: Int(capacity))).toOpaque()
}

/// Frees a channel.
@_cdecl("miccheck_channel_destroy")
public func miccheckChannelDestroy(_ handle: UnsafeMutableRawPointer) {
    Unmanaged<ChannelSession>.fromOpaque(handle).release()
}

/// Where the page writes the next block of samples.
@_cdecl("miccheck_channel_input")
public func miccheckChannelInput(_ handle: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Float>? {
    channelSession(handle).input.withUnsafeMutableBufferPointer { $0.baseAddress }
}

/// The messages of the last call (UTF-8, one JSON text a line).
@_cdecl("miccheck_channel_messages")
public func miccheckChannelMessages(_ handle: UnsafeMutableRawPointer) -> UnsafePointer<UInt8>? {
    channelSession(handle).messages.withUnsafeBufferPointer { $0.baseAddress }
}

/// Whether the participant speaks now: 1 or 0.
@_cdecl("miccheck_channel_speaking")
public func miccheckChannelSpeaking(_ handle: UnsafeMutableRawPointer) -> Int32 {
    channelSession(handle).channel.isSpeaking ? 1 : 0
}

/// Whether a microphone test records now: 1 or 0.
@_cdecl("miccheck_channel_testing")
public func miccheckChannelTesting(_ handle: UnsafeMutableRawPointer) -> Int32 {
    channelSession(handle).channel.isTesting ? 1 : 0
}

/// Analyses the first `count` samples of the input buffer, received at `now`, rounded first to the 16 bits a
/// microphone delivers: a browser's processing leaves float noise far below one step on an idle converter's zeros
/// (1e-7), which no device made and which would hide a dead microphone (the server's path rounds to 16 bits too).
/// Here, not in the page's script: one instruction a sample in WebAssembly.
@_cdecl("miccheck_channel_audio")
public func miccheckChannelAudio(_ handle: UnsafeMutableRawPointer, _ count: Int32, _ now: Double) -> Int32 {
    let s = channelSession(handle)
    let n = max(0, min(Int(count), s.input.count))
    s.input.withUnsafeMutableBufferPointer { b in
        // A tie goes to the even step (where JavaScript's Math.round went up: one step, at exact half steps only);
        // NaN is silence, not a full-scale sample.
        for i in 0..<n {
            let r = (b[i] * 32768).rounded(.toNearestOrEven)
            b[i] = r.isNaN ? 0 : min(32767, max(-32768, r)) / 32768
        }
    }
    return s.input.withUnsafeBufferPointer { b in
        s.run { channel, emit in channel.audio(UnsafeBufferPointer(rebasing: b[0..<n]), now: now, emit: emit) }
    }
}

/// The microphone's toggle: `on` 1 or 0; `cause` of a mute 0 (the user), 1 (push-to-talk), 2 (a host).
@_cdecl("miccheck_channel_set_microphone")
public func miccheckChannelSetMicrophone(
    _ handle: UnsafeMutableRawPointer, _ on: Int32, _ cause: Int32, _ now: Double
) -> Int32 {
    let mute: MuteCause? =
        on != 0 ? nil : cause == 1 ? .pushToTalk : cause == 2 ? .host(name: "") : .selfMuted
    return channelSession(handle).run { channel, emit in
        channel.setMicrophone(on: on != 0, cause: mute, now: now, emit: emit)
    }
}

/// The participant joined the call (1) or is in the lobby (0).
@_cdecl("miccheck_channel_enter")
public func miccheckChannelEnter(_ handle: UnsafeMutableRawPointer, _ inCall: Int32) -> Int32 {
    channelSession(handle).run { channel, _ in channel.enter(inCall != 0 ? .call : .lobby) }
}

/// "Don't show again for this call."
@_cdecl("miccheck_channel_silence_muted_notice")
public func miccheckChannelSilenceMutedNotice(_ handle: UnsafeMutableRawPointer) -> Int32 {
    channelSession(handle).run { channel, emit in channel.silenceMutedNotice(emit: emit) }
}

/// The page's clock moved (every 250 ms or so): stalls, the meter at rest.
@_cdecl("miccheck_channel_tick")
public func miccheckChannelTick(_ handle: UnsafeMutableRawPointer, _ now: Double) -> Int32 {
    channelSession(handle).run { channel, emit in channel.tick(now: now, emit: emit) }
}

/// "Test your microphone" for `seconds` (1 to 10); a refusal is a `microphone_test` message in the buffer
/// with the state `refused` and the reason.
@_cdecl("miccheck_channel_test_start")
public func miccheckChannelTestStart(_ handle: UnsafeMutableRawPointer, _ seconds: Double, _ now: Double) -> Int32 {
    channelSession(handle).run { channel, emit in
        if let refusal = channel.startTest(seconds: seconds, now: now, emit: emit) {
            let text = JSONValue.object([
                ("type", .string("microphone_test")), ("state", .string("refused")), ("reason", .string(refusal)),
            ]).encoded
            emit(MicrophoneChannel.Message(text: text, isLevel: false))
        }
    }
}

/// Stops a microphone test that is recording.
@_cdecl("miccheck_channel_test_cancel")
public func miccheckChannelTestCancel(_ handle: UnsafeMutableRawPointer) -> Int32 {
    channelSession(handle).run { channel, emit in channel.cancelTest(emit: emit) }
}

#if hasFeature(Embedded)
    /// Swift's hashing seed in the page. wasi-libc's own arc4random_buf would bring its stdio (for an assertion
    /// message) and three WASI imports into a module that otherwise imports nothing. The seed only orders the
    /// buckets of sets and dictionaries, which the analysis does not iterate; a fixed seed is no weaker here,
    /// where every input is the page's own microphone.
    @_cdecl("arc4random_buf")
    func arc4randomBuffer(_ buffer: UnsafeMutableRawPointer?, _ count: Int) {
        guard let buffer else { return }
        var x: UInt32 = 0x9E37_79B9
        for i in 0..<count {
            x = x &* 1_664_525 &+ 1_013_904_223
            buffer.storeBytes(of: UInt8(truncatingIfNeeded: x >> 24), toByteOffset: i, as: UInt8.self)
        }
    }
#endif

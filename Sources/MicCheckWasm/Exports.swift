// The kernel's C ABI for WebAssembly: what the page's AudioWorklet calls (Resources/web/sdk/kernel.js wraps
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

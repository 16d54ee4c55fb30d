// An app on MicCheck's analysis kernel alone: no Foundation, no native library, the same code the page's
// WebAssembly runs. Raw 16-bit mono PCM at 16 kHz on standard input, each event on standard output.
//
//   sox talk.wav -t raw -r 16000 -c 1 -e signed -b 16 - | swift run core-only
import MicCheckKernel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

var analysis = try StreamingAnalysis(sampleRate: 16_000)
let show: (AnalysisOutput) -> Void = { record in
    guard case .event(let event) = record else { return }
    let centiseconds = Int((event.time * 100).rounded())
    print("\(centiseconds / 100).\(centiseconds % 100 < 10 ? "0" : "")\(centiseconds % 100) s  \(event.name)")
}
let input = fdopen(0, "rb")
var pcm = [Int16](repeating: 0, count: 1_600)  // 100 ms
var samples = [Float](repeating: 0, count: 1_600)
while case let n = fread(&pcm, 2, pcm.count, input), n > 0 {
    for i in 0..<n { samples[i] = Float(Int16(littleEndian: pcm[i])) / 32_768 }
    samples.withUnsafeBufferPointer { analysis.process(UnsafeBufferPointer(rebasing: $0[0..<n]), emit: show) }
}
analysis.finish(emit: show)

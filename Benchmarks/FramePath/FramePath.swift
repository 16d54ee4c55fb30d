import Benchmark
import MicCheck
import MicCheckTesting

// One second of audio per benchmark iteration: throughput in x real time is 1 s / (time per iteration),
// and allocations per frame are the mallocs per iteration divided by 100. Targets: 0 allocations.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
                                           maxDuration: .seconds(3), maxIterations: 1_000)

    let rate16 = 16_000
    let speech16 = Signals.syllables(rmsDB: -25, seconds: 1, sampleRate: rate16)
    let speech48 = Signals.syllables(rmsDB: -25, seconds: 1, sampleRate: 48_000)

    // The harness's own allocations per iteration: subtract them from the rows below.
    Benchmark("Baseline: an empty iteration") { benchmark in
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(i) }
    }

    Benchmark("Voice activity detector, 1 s of 16 kHz audio (100 frames)") { benchmark in
        var vad = VoiceActivityDetector()
        let frames = stride(from: 0, to: speech16.count - 159, by: 160).map { Array(speech16[$0..<$0 + 160]) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for f in frames { blackHole(f.withUnsafeBufferPointer { vad.process(frame: $0) }) }
        }
    }

    Benchmark("Whole analysis, 1 s of 16 kHz audio") { benchmark in
        var analyzer = Analyzer(inputRate: rate16)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            speech16.withUnsafeBufferPointer { analyzer.process($0) { blackHole($0) } }
        }
    }

    Benchmark("Whole analysis, 1 s of 48 kHz audio (resampled)") { benchmark in
        var analyzer = Analyzer(inputRate: 48_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            speech48.withUnsafeBufferPointer { analyzer.process($0) { blackHole($0) } }
        }
    }
}

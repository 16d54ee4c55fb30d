import Benchmark
import Foundation
import MicCheck
import MicCheckTesting

// One second of audio per benchmark iteration: throughput in x real time is 1 s / (time per iteration),
// and allocations per frame are the mallocs per iteration divided by 100. Targets: 0 allocations.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
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

    // The speed comparison with Silero VAD (scripts/bench-vad-speed.sh): the detector over the frames of
    // one 16 kHz WAV, the same file the script times Silero on. One iteration is the whole file.
    if let path = ProcessInfo.processInfo.environment["MICCHECK_BENCH_WAV"] {
        let samples = wavSamples16k(path)
        let frames = stride(from: 0, to: samples.count - 159, by: 160).map { Array(samples[$0..<$0 + 160]) }
        Benchmark(
            "Voice activity detector, the comparison WAV (\(frames.count) frames)",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
                maxDuration: .seconds(10), maxIterations: 200)
        ) { benchmark in
            var vad = VoiceActivityDetector()
            benchmark.startMeasurement()
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

/// The samples of a 16 kHz WAV file, for the comparison benchmark; stops the run with a sentence otherwise.
func wavSamples16k(_ path: String) -> [Float] {
    do {
        let reader = try WAVReader(path: path)
        guard reader.format.sampleRate == 16_000 else {
            fatalError("\(path): the comparison WAV must be 16 kHz (it is \(reader.format.sampleRate) Hz)")
        }
        return try reader.readRest()
    } catch {
        fatalError("\(path): \(error)")
    }
}

import ArgumentParser
import Foundation
import MicCheck

/// Writes the voice detector's per-frame features as raw little-endian float32 rows, for
/// `training/train_vad.py`: the model is trained on exactly what the Swift code computes.
struct Features: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the voice detector's features of a WAV file (float32 rows) for training.",
        shouldDisplay: false
    )

    @Argument(help: "WAV file.")
    var file: String

    @Option(help: "Output file for the float32 rows.")
    var output: String

    func run() throws {
        let reader: WAVReader
        switch openWAV(file) {
        case .success(let r): reader = r
        case .failure(let f): printError(f.sentence); throw ExitCode(f.status)
        }
        let rate = reader.format.sampleRate
        var resampler = rate == 16_000 ? nil : Resampler(inputRate: rate, outputRate: 16_000)
        var extractor = VoiceFeatureExtractor()
        var rows: [Float] = []
        var frame: [Float] = []
        var vector = [Float](repeating: 0, count: VoiceFeatureExtractor.count)
        var input = [Float](repeating: 0, count: Resampler.maxInputBlock)
        var out = [Float](repeating: 0, count: resampler?.maxOutput(forInput: Resampler.maxInputBlock) ?? 0)
        func take(_ xs: ArraySlice<Float>) {
            for x in xs {
                frame.append(x)
                if frame.count == VoiceFeatureExtractor.frameLength {
                    frame.withUnsafeBufferPointer { f in vector.withUnsafeMutableBufferPointer { extractor.process(frame: f, into: $0) } }
                    rows += vector
                    frame.removeAll(keepingCapacity: true)
                }
            }
        }
        do {
            while true {
                let n = try input.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
                if n == 0 { break }
                if resampler != nil {
                    let m = input.withUnsafeBufferPointer { i in
                        out.withUnsafeMutableBufferPointer { resampler?.process(UnsafeBufferPointer(rebasing: i[0..<n]), output: $0) ?? 0 }
                    }
                    take(out[0..<m])
                } else {
                    take(input[0..<n])
                }
            }
        } catch {
            printError(failure(file, error).sentence)
            throw ExitCode(ExitStatus.dataError)
        }
        let data = rows.withUnsafeBufferPointer { Data(buffer: $0) }
        try data.write(to: URL(fileURLWithPath: output))
    }
}

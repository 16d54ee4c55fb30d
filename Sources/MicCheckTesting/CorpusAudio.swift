import Foundation
public import MicCheck

/// Audio from the public corpus (`../shared/corpus` beside the repository) and whole-file helpers.
public enum CorpusAudio {
    /// The corpus folder, found from this source file's place in the repository.
    public static let directory: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("shared/corpus").path
    }()

    /// Whether the corpus is there.
    public static var isPresent: Bool { FileManager.default.fileExists(atPath: directory + "/manifest.json") }

    /// The first `seconds` (all when nil) of corpus file `name` (without extension), mono, at
    /// `sampleRate`. Nil when the file is not there.
    public static func mono(_ name: String, seconds: Double? = nil, sampleRate: Int = 16_000) throws -> [Float]? {
        let path = "\(directory)/\(name).wav"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try readMono(path: path, seconds: seconds, sampleRate: sampleRate)
    }

    /// A WAV file's first `seconds` (all when nil), downmixed to mono and resampled to `sampleRate`.
    public static func readMono(path: String, seconds: Double? = nil, sampleRate: Int) throws -> [Float] {
        let reader = try WAVReader(path: path)
        var resampler = Resampler(inputRate: reader.format.sampleRate, outputRate: sampleRate)
        let limit = seconds.map { Int($0 * Double(reader.format.sampleRate)) } ?? Int.max
        var input = [Float](repeating: 0, count: WAVReader.blockFrames)
        var output = [Float](repeating: 0, count: resampler.maxOutput(forInput: WAVReader.blockFrames))
        var result: [Float] = []
        var consumed = 0
        while consumed < limit {
            var got = try input.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if got == 0 { break }
            got = min(got, limit - consumed)
            consumed += got
            let made = input.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer {
                    resampler.process(UnsafeBufferPointer(rebasing: i[0..<got]), output: $0)
                }
            }
            result += output[0..<made]
        }
        let made = output.withUnsafeMutableBufferPointer { resampler.flush(output: $0) }
        result += output[0..<made]
        return result
    }

    /// `samples` at `inputRate` converted to `outputRate`, whole.
    public static func resample(_ samples: [Float], from inputRate: Int, to outputRate: Int) -> [Float] {
        var resampler = Resampler(inputRate: inputRate, outputRate: outputRate)
        var output = [Float](repeating: 0, count: resampler.maxOutput(forInput: Resampler.maxInputBlock))
        var result: [Float] = []
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + Resampler.maxInputBlock)
            let made = samples.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer {
                    resampler.process(UnsafeBufferPointer(rebasing: i[start..<end]), output: $0)
                }
            }
            result += output[0..<made]
            start = end
        }
        let made = output.withUnsafeMutableBufferPointer { resampler.flush(output: $0) }
        return result + output[0..<made]
    }

    /// What a loudspeaker playing `far` puts into a microphone: `far` delayed by `delaySeconds`, at
    /// `gainDB`, through a short room response (a direct path and three reflections decaying over
    /// 15 ms, as on a laptop). Same length as `far`.
    public static func echo(of far: [Float], delaySeconds: Double, gainDB: Double, sampleRate: Int) -> [Float] {
        let delay = Int(delaySeconds * Double(sampleRate))
        let ms = Double(sampleRate) / 1_000
        let taps: [(Int, Double)] = [(0, 1), (Int(3 * ms), -0.35), (Int(7 * ms), 0.2), (Int(15 * ms), -0.1)]
        let norm = taps.reduce(0) { $0 + $1.1 * $1.1 }.squareRoot()
        let gain = Double(Decibels.amplitude(gainDB)) / norm
        var out = [Float](repeating: 0, count: far.count)
        for (offset, weight) in taps {
            let shift = delay + offset
            guard shift < far.count else { continue }
            let w = Float(weight * gain)
            for i in shift..<far.count { out[i] += w * far[i - shift] }
        }
        return out
    }
}

extension WAVReader {
    /// Everything left in the file, mono at the file's rate, read `blockSize` frames at a time.
    public func readRest(blockSize: Int = WAVReader.blockFrames) throws -> [Float] {
        var all: [Float] = []
        var block = [Float](repeating: 0, count: blockSize)
        while true {
            let n = try block.withUnsafeMutableBufferPointer { try read(into: $0) }
            if n == 0 { return all }
            all += block[0..<n]
        }
    }
}

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
        let rows: [Float]
        do {
            rows = try TrainingFeatures.rows(of: reader)
        } catch {
            printError(failure(file, error).sentence)
            throw ExitCode(ExitStatus.dataError)
        }
        let data = rows.withUnsafeBufferPointer { Data(buffer: $0) }
        try data.write(to: URL(fileURLWithPath: output))
    }
}

import ArgumentParser
import Foundation
import MicCheck

/// Writes the voice detector's per-frame features as raw little-endian float32 rows, for
/// `training/train_vad.py`: the model is trained on exactly what the Swift code computes.
struct Features: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the voice detector's features of a WAV file (float32 rows) for training."
    )

    @Argument(help: "WAV file.")
    var file: String?

    @Option(help: "Output file for the float32 rows.")
    var output: String?

    @Flag(help: "Print the features' names, in order, as a JSON array (the layout a model file names).")
    var names = false

    func validate() throws {
        if names { return }
        if file == nil || output == nil { throw ValidationError("Name a WAV file and --output, or use --names.") }
    }

    func run() throws {
        guard let file, let output, !names else {
            print(JSONValue.array(VoiceFeatureExtractor.names.map { .string($0) }).encoded)
            return
        }
        let reader: WAVReader
        switch openWAV(file) {
        case .success(let r): reader = r
        case .failure(let f): throw CommandFailure(f)
        }
        let rows: [Float]
        do {
            rows = try TrainingFeatures.rows(of: reader)
        } catch {
            throw CommandFailure(message: failure(file, error).sentence, status: ExitStatus.dataError)
        }
        let data = rows.withUnsafeBufferPointer { Data(buffer: $0) }
        try data.write(to: URL(fileURLWithPath: output))
    }
}

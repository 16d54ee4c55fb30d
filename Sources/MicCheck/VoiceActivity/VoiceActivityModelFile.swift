public import Foundation

/// Model files: a voice activity model written by `training/train_vad.py` as JSON (the bundled model's
/// file is this module's resource `VoiceActivityModel.json`; the kernel holds the same weights in its source).
extension VoiceActivityModel {
    private struct File: Decodable {
        struct Layer: Decodable {
            let inputs: Int
            let outputs: Int
            let weights: [Float]
            let bias: [Float]
        }
        struct GRU: Decodable {
            let inputs: Int
            let hidden: Int
            let inputWeights: [Float]
            let recurrentWeights: [Float]
            let inputBias: [Float]
            let recurrentBias: [Float]
        }
        let format: String
        let version: Int
        let features: Int
        /// The feature layout the model was trained on (older files have none).
        let featureNames: [String]?
        let lookahead: Int?
        let inputMean: [Float]
        let inputScale: [Float]
        let dense: Layer
        let gru: GRU
        let output: Layer
    }

    /// Decodes a model written by `training/train_vad.py`, checking every shape and, when the file names
    /// them, the features it reads.
    public init(json data: Data) throws(LoadError) {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw .notAModel(DecodingError.sentence(for: error, whole: "the model"))
        }
        guard file.format == "miccheck-vad", file.version == 1 else {
            throw .notAModel("format \(file.format) version \(file.version)")
        }
        try self.init(
            weights: Weights(
                features: file.features, featureNames: file.featureNames, lookahead: file.lookahead ?? 0,
                inputMean: file.inputMean, inputScale: file.inputScale, denseInputs: file.dense.inputs,
                denseOutputs: file.dense.outputs, denseWeights: file.dense.weights, denseBias: file.dense.bias,
                gruInputs: file.gru.inputs, hidden: file.gru.hidden, gruInputWeights: file.gru.inputWeights,
                gruRecurrentWeights: file.gru.recurrentWeights, gruInputBias: file.gru.inputBias,
                gruRecurrentBias: file.gru.recurrentBias, outputInputs: file.output.inputs,
                outputOutputs: file.output.outputs, outputWeights: file.output.weights, outputBias: file.output.bias))
    }

    /// Loads a model file.
    public init(contentsOf url: URL) throws(LoadError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .unreadable(error.localizedDescription) }
        try self.init(json: data)
    }

    /// Where the package's resources keep the trained model's file (the weights `VoiceActivityModel.bundled` holds).
    public static var bundledURL: URL? { Bundle.module.url(forResource: "VoiceActivityModel", withExtension: "json") }
}

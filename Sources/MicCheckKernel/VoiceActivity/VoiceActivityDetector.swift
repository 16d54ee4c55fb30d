/// Streaming voice activity detector: a speech probability for every 10 ms frame of 16 kHz audio.
///
/// ``VoiceFeatureExtractor`` describes each frame and about a second of context; a small recurrent
/// network (``VoiceActivityModel``, trained by `training/train_vad.py`, shipped as a package resource)
/// maps that to a probability, keeping its own memory of the stream in a GRU state. Turning
/// probabilities into speech segments and events is ``SpeechEventDetector``'s job.
///
/// - Complexity: O(1) per frame; nothing is allocated after `init`. Look-ahead: the model's
///   (``VoiceActivityModel/lookahead``, at most 3 frames): `process` then answers for an earlier frame.
public struct VoiceActivityDetector: Sendable {
    /// The feature extractor, which holds the last frame's level, band levels, flatness and harmonicity.
    public private(set) var features: VoiceFeatureExtractor
    /// The model that maps the features to a probability.
    public let model: VoiceActivityModel
    private var state: VoiceActivityModel.State
    private var vector: [Float]

    /// A detector with the model trained for MicCheck.
    public init() { self.init(model: .bundled) }

    /// A detector with another model (it must read ``VoiceFeatureExtractor/count`` or
    /// ``VoiceFeatureExtractor/coreCount`` features).
    public init(model: VoiceActivityModel) {
        precondition(
            VoiceFeatureExtractor.supports(featureCount: model.featureCount),
            "the model must read the extractor's features")
        features = VoiceFeatureExtractor()
        self.model = model
        state = VoiceActivityModel.State(for: model)
        // Room for the articulation features only when the model reads them (the extractor skips them otherwise).
        vector = [Float](repeating: 0, count: model.featureCount)
    }

    /// Consumes one frame (``VoiceFeatureExtractor/frameLength`` samples at 16 kHz) and returns the
    /// probability that it holds speech; with a look-ahead model, that the frame `model.lookahead`
    /// frames before it does.
    public mutating func process(frame: UnsafeBufferPointer<Float>) -> Float {
        vector.withUnsafeMutableBufferPointer { features.process(frame: frame, into: $0) }
        return vector.withUnsafeBufferPointer { model.predict($0, state: &state) }
    }

    /// The last frame's feature vector (for training and inspection).
    public var lastFeatures: [Float] { vector }
}

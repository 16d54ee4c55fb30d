public import Foundation

/// The voice activity model: standardised features, a dense tanh layer, one GRU layer and a sigmoid
/// output. Its weights are a JSON resource of the package (`Resources/VoiceActivityModel.json`),
/// written by `training/train_vad.py`; ``bundled`` loads it once.
///
/// The GRU follows the usual equations (PyTorch's gate order r, z, n):
/// r = σ(Wᵢᵣx + bᵢᵣ + Wₕᵣh + bₕᵣ), z = σ(Wᵢ𝓏x + bᵢ𝓏 + Wₕ𝓏h + bₕ𝓏),
/// n = tanh(Wᵢₙx + bᵢₙ + r ⊙ (Wₕₙh + bₕₙ)), h′ = (1 − z) ⊙ n + z ⊙ h.
public struct VoiceActivityModel: Sendable, Equatable {
    /// A row-major matrix with each row padded to a multiple of 8 columns, so rows are read eight
    /// lanes at a time.
    struct Matrix: Sendable, Equatable {
        let rows: Int
        let columns: Int
        let stride: Int
        let values: [Float]

        init(rows: Int, columns: Int, values: [Float]) {
            self.rows = rows
            self.columns = columns
            stride = (columns + 7) / 8 * 8
            var padded = [Float](repeating: 0, count: rows * stride)
            for r in 0..<rows {
                for c in 0..<columns { padded[r * stride + c] = values[r * columns + c] }
            }
            self.values = padded
        }
    }

    public let featureCount: Int
    public let denseWidth: Int
    public let hiddenWidth: Int
    let inputMean: [Float]
    let inputScale: [Float]
    let dense: Matrix
    let denseBias: [Float]
    let inputGates: Matrix       // 3·hidden × dense
    let recurrentGates: Matrix   // 3·hidden × hidden
    let inputGateBias: [Float]
    let recurrentGateBias: [Float]
    let output: [Float]
    let outputBias: Float

    /// What can be wrong with a model file.
    public enum LoadError: Error, Equatable, CustomStringConvertible {
        case unreadable(String)
        case notAModel(String)
        case shape(String)

        public var description: String {
            switch self {
            case .unreadable(let why): "the voice activity model could not be read: \(why)"
            case .notAModel(let why): "this is not a MicCheck voice activity model: \(why)"
            case .shape(let why): "the voice activity model's shapes do not fit: \(why)"
            }
        }
    }

    private struct File: Decodable {
        struct Layer: Decodable { let inputs: Int; let outputs: Int; let weights: [Float]; let bias: [Float] }
        struct GRU: Decodable {
            let inputs: Int; let hidden: Int
            let inputWeights: [Float]; let recurrentWeights: [Float]; let inputBias: [Float]; let recurrentBias: [Float]
        }
        let format: String
        let version: Int
        let features: Int
        let inputMean: [Float]
        let inputScale: [Float]
        let dense: Layer
        let gru: GRU
        let output: Layer
    }

    /// Decodes a model written by `training/train_vad.py`, checking every shape.
    public init(json data: Data) throws(LoadError) {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw .notAModel("\(error)")
        }
        guard file.format == "miccheck-vad", file.version == 1 else {
            throw .notAModel("format \(file.format) version \(file.version)")
        }
        let d = file.features, w = file.dense.outputs, h = file.gru.hidden
        guard d > 0, w > 0, h > 0 else { throw .shape("empty layers") }
        func check(_ ok: Bool, _ what: String) throws(LoadError) { if !ok { throw .shape(what) } }
        try check(file.inputMean.count == d && file.inputScale.count == d, "input standardisation")
        try check(file.dense.inputs == d && file.dense.weights.count == w * d && file.dense.bias.count == w, "dense layer")
        try check(file.gru.inputs == w && file.gru.inputWeights.count == 3 * h * w && file.gru.recurrentWeights.count == 3 * h * h
                  && file.gru.inputBias.count == 3 * h && file.gru.recurrentBias.count == 3 * h, "GRU layer")
        try check(file.output.inputs == h && file.output.outputs == 1 && file.output.weights.count == h
                  && file.output.bias.count == 1, "output layer")
        let all = [file.inputMean, file.inputScale, file.dense.weights, file.dense.bias, file.gru.inputWeights,
                   file.gru.recurrentWeights, file.gru.inputBias, file.gru.recurrentBias, file.output.weights, file.output.bias]
        try check(all.allSatisfy { $0.allSatisfy(\.isFinite) }, "a weight is not a finite number")
        featureCount = d; denseWidth = w; hiddenWidth = h
        inputMean = file.inputMean; inputScale = file.inputScale
        dense = Matrix(rows: w, columns: d, values: file.dense.weights)
        denseBias = file.dense.bias
        inputGates = Matrix(rows: 3 * h, columns: w, values: file.gru.inputWeights)
        recurrentGates = Matrix(rows: 3 * h, columns: h, values: file.gru.recurrentWeights)
        inputGateBias = file.gru.inputBias
        recurrentGateBias = file.gru.recurrentBias
        output = file.output.weights
        outputBias = file.output.bias[0]
    }

    /// Loads a model file.
    public init(contentsOf url: URL) throws(LoadError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .unreadable(error.localizedDescription) }
        try self.init(json: data)
    }

    /// Where the package's resources keep the trained model.
    public static var bundledURL: URL? { Bundle.module.url(forResource: "VoiceActivityModel", withExtension: "json") }

    /// The model trained for MicCheck, from the package's resources (loaded once).
    public static let bundled: VoiceActivityModel = {
        guard let url = bundledURL else {
            preconditionFailure("MicCheck's resource bundle has no VoiceActivityModel.json; the installation is incomplete")
        }
        do { return try VoiceActivityModel(contentsOf: url) } catch {
            preconditionFailure("MicCheck's bundled voice activity model is damaged: \(error)")
        }
    }()

    /// Scratch and recurrent state for running the model on a stream; allocated once.
    public struct State: Sendable {
        var x: [Float]
        var a: [Float]
        var gi: [Float]
        var gh: [Float]
        var h: [Float]

        public init(for model: VoiceActivityModel) {
            x = [Float](repeating: 0, count: model.dense.stride)
            a = [Float](repeating: 0, count: model.inputGates.stride)
            gi = [Float](repeating: 0, count: 3 * model.hiddenWidth)
            gh = [Float](repeating: 0, count: 3 * model.hiddenWidth)
            h = [Float](repeating: 0, count: model.recurrentGates.stride)
        }

        /// Forgets the stream so far.
        public mutating func reset() {
            for i in h.indices { h[i] = 0 }
        }
    }

    /// Advances the model by one frame of ``featureCount`` features; returns the speech probability.
    /// Allocates nothing.
    public func predict(_ features: UnsafeBufferPointer<Float>, state: inout State) -> Float {
        precondition(features.count >= featureCount, "too few features")
        let h = hiddenWidth
        return state.x.withUnsafeMutableBufferPointer { x in
            state.a.withUnsafeMutableBufferPointer { a in
                state.gi.withUnsafeMutableBufferPointer { gi in
                    state.gh.withUnsafeMutableBufferPointer { gh in
                        state.h.withUnsafeMutableBufferPointer { hs in
                            inputMean.withUnsafeBufferPointer { m in
                                inputScale.withUnsafeBufferPointer { s in
                                    for i in 0..<featureCount { x[i] = (features[i] - m[i]) * s[i] }
                                }
                            }
                            Self.multiply(dense, x, bias: denseBias, into: a)
                            for i in 0..<denseWidth { a[i] = Self.tanh(a[i]) }
                            Self.multiply(inputGates, a, bias: inputGateBias, into: gi)
                            Self.multiply(recurrentGates, hs, bias: recurrentGateBias, into: gh)
                            var out = outputBias
                            output.withUnsafeBufferPointer { wo in
                                for j in 0..<h {
                                    let r = Self.sigmoid(gi[j] + gh[j])
                                    let z = Self.sigmoid(gi[h + j] + gh[h + j])
                                    let n = Self.tanh(gi[2 * h + j] + r * gh[2 * h + j])
                                    let v = (1 - z) * n + z * hs[j]
                                    hs[j] = v
                                    out += wo[j] * v
                                }
                            }
                            return Self.sigmoid(out)
                        }
                    }
                }
            }
        }
    }

    /// y = M·x + b, eight columns at a time (rows are padded with zeros; x's padding is zero too).
    @inline(__always)
    private static func multiply(_ m: Matrix, _ x: UnsafeMutableBufferPointer<Float>, bias: [Float],
                                 into y: UnsafeMutableBufferPointer<Float>) {
        let blocks = m.stride / 8
        m.values.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                let wp = UnsafeRawPointer(w.baseAddress!)   // non-empty: rows, columns > 0
                let xp = UnsafeRawPointer(x.baseAddress!)   // sized to the stride in State.init
                for r in 0..<m.rows {
                    var acc = SIMD8<Float>()
                    let row = r * m.stride
                    for k in 0..<blocks {
                        let wv = wp.loadUnaligned(fromByteOffset: (row + 8 * k) * 4, as: SIMD8<Float>.self)
                        let xv = xp.loadUnaligned(fromByteOffset: 32 * k, as: SIMD8<Float>.self)
                        acc += wv * xv
                    }
                    y[r] = acc.sum() + b[r]
                }
            }
        }
    }

    @inline(__always)
    static func sigmoid(_ v: Float) -> Float { 1 / (1 + Foundation.exp(-v)) }

    @inline(__always)
    static func tanh(_ v: Float) -> Float { Foundation.tanh(v) }
}

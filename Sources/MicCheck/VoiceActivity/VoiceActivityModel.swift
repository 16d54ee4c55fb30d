public import Foundation

/// The voice activity model: standardised features, a dense tanh layer, one GRU layer and a sigmoid
/// output. Its weights are a JSON resource of the package (`Resources/VoiceActivityModel.json`),
/// written by `training/train_vad.py`; ``bundled`` loads it once.
///
/// The GRU follows the usual equations (PyTorch's gate order r, z, n):
/// r = σ(Wᵢᵣx + bᵢᵣ + Wₕᵣh + bₕᵣ), z = σ(Wᵢ𝓏x + bᵢ𝓏 + Wₕ𝓏h + bₕ𝓏),
/// n = tanh(Wᵢₙx + bᵢₙ + r ⊙ (Wₕₙh + bₕₙ)), h′ = (1 − z) ⊙ n + z ⊙ h.
///
/// The dense layer runs in Float. The GRU's two products, whose inputs (the dense layer's tanh and the
/// state) lie in [−1, 1], run in 16-bit integers with 32-bit sums (`PairedMatrix`): twice the products
/// an instruction on baseline x86-64, and half the memory. Over the public corpus no probability moved
/// by more than 0.001 from Float's (as `analyze` prints them, to three decimals).
public struct VoiceActivityModel: Sendable, Equatable {
    /// A column-major matrix whose columns are padded to a multiple of 8 rows, so that eight outputs
    /// are computed at once with no horizontal sums. `place` says where each logical row goes, which lets
    /// a GRU's three gates each start on a multiple of 8.
    struct Matrix: Sendable, Equatable {
        let columns: Int
        /// Padded rows per column, a multiple of 8.
        let height: Int
        let values: [Float]

        init(rows: Int, columns: Int, values: [Float], height: Int, place: (Int) -> Int = { $0 }) {
            self.columns = columns
            self.height = height
            var padded = [Float](repeating: 0, count: columns * height)
            for r in 0..<rows {
                for c in 0..<columns { padded[c * height + place(r)] = values[r * columns + c] }
            }
            self.values = padded
        }
    }

    /// A matrix for inputs in [−1, 1] (the dense layer's tanh and the GRU state), quantised to 16-bit
    /// integers so that SSE2's multiply-add of pairs (8 products a instruction against 4 in Float) does
    /// the work. Rows are laid out as ``Matrix``'s; columns go in pairs: values[2·(p·height + r) + j] is
    /// row r, column 2p + j. Each row has its own scale, chosen so that no sum can overflow 32 bits (see
    /// ``init(rows:columns:values:height:place:)``), and ``rowScale`` undoes both scales.
    struct PairedMatrix: Sendable, Equatable {
        let pairs: Int
        /// Padded rows, a multiple of 8.
        let height: Int
        let values: [Int16]
        /// Per padded row: 1 / (the row's weight scale × ``inputScale``).
        let rowScale: [Float]
        /// Inputs in [−1, 1] become integers in [−16384, 16384].
        static let inputScale: Float = 16_384

        init(rows: Int, columns: Int, values: [Float], height: Int, place: (Int) -> Int = { $0 }) {
            pairs = (columns + 1) / 2
            self.height = height
            var q = [Int16](repeating: 0, count: 2 * pairs * height)
            var scales = [Float](repeating: 1 / Self.inputScale, count: height)
            for r in 0..<rows {
                let row = values[(r * columns)..<(r * columns + columns)]
                let largest = row.reduce(Float(0)) { max($0, abs($1)) }
                guard largest > 0 else { continue }
                let total = row.reduce(Float(0)) { $0 + abs($1) }
                // |Σ q·x| ≤ (scale·total + columns/2)·16384 ≤ 2^30 + 8192·columns < 2^31 for any inputs in
                // [−1, 1] (each rounded weight is off by at most 1/2), and no weight exceeds 32767.
                let scale = min(32_767 / largest, 1_073_741_824 / (Self.inputScale * total))
                for c in 0..<columns {
                    q[2 * ((c / 2) * height + place(r)) + c % 2] = Int16((row[row.startIndex + c] * scale).rounded())
                }
                scales[place(r)] = 1 / (scale * Self.inputScale)
            }
            self.values = q
            rowScale = scales
        }
    }

    /// `n` rounded up to a multiple of 8.
    static func padded(_ n: Int) -> Int { (n + 7) / 8 * 8 }

    /// Lays a vector out the way ``Matrix`` lays out its rows, zeros in the padding.
    static func spread(_ v: [Float], count: Int, place: (Int) -> Int = { $0 }) -> [Float] {
        var out = [Float](repeating: 0, count: count)
        for (i, x) in v.enumerated() { out[place(i)] = x }
        return out
    }

    public let featureCount: Int
    /// Frames (10 ms each) of audio after a frame that the model hears before deciding it, 0...3: its
    /// output after frame n is frame n − lookahead's probability.
    public let lookahead: Int
    /// The most look-ahead a model may have (30 ms).
    public static let maximumLookahead = 3
    /// The widest layer a model file may have (a model of 1 MB is far narrower).
    public static let maximumWidth = 4_096
    public let denseWidth: Int
    public let hiddenWidth: Int
    let inputMean: [Float]
    let inputScale: [Float]
    let dense: Matrix
    let denseBias: [Float]  // padded like dense's rows
    let inputGates: PairedMatrix  // 3·hidden × dense, each gate padded to a multiple of 8 rows
    let recurrentGates: PairedMatrix  // 3·hidden × hidden, padded the same way
    let inputGateBias: [Float]
    let recurrentGateBias: [Float]
    let output: [Float]  // hidden, padded
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

    private static func firstDifference(_ a: [String], _ b: [String]) -> String {
        guard let i = a.indices.first(where: { $0 < b.count && a[$0] != b[$0] }) else {
            return "\(a.count) names, \(b.count) expected"
        }
        return "feature \(i) is \(a[i]), expected \(b[i])"
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
        let d = file.features
        let w = file.dense.outputs
        let h = file.gru.hidden
        guard d > 0, w > 0, h > 0 else { throw .shape("empty layers") }
        // Before any product of widths: a width near Int.max would overflow them (found by fuzzing).
        guard d <= Self.maximumWidth, w <= Self.maximumWidth, h <= Self.maximumWidth else {
            throw .shape("a layer wider than \(Self.maximumWidth) units")
        }
        func check(_ ok: Bool, _ what: String) throws(LoadError) { if !ok { throw .shape(what) } }
        try check(file.inputMean.count == d && file.inputScale.count == d, "input standardisation")
        try check(
            file.dense.inputs == d && file.dense.weights.count == w * d && file.dense.bias.count == w, "dense layer")
        try check(
            file.gru.inputs == w && file.gru.inputWeights.count == 3 * h * w
                && file.gru.recurrentWeights.count == 3 * h * h
                && file.gru.inputBias.count == 3 * h && file.gru.recurrentBias.count == 3 * h, "GRU layer")
        try check(
            file.output.inputs == h && file.output.outputs == 1 && file.output.weights.count == h
                && file.output.bias.count == 1, "output layer")
        let all = [
            file.inputMean, file.inputScale, file.dense.weights, file.dense.bias, file.gru.inputWeights,
            file.gru.recurrentWeights, file.gru.inputBias, file.gru.recurrentBias, file.output.weights,
            file.output.bias,
        ]
        try check(all.allSatisfy { $0.allSatisfy(\.isFinite) }, "a weight is not a finite number")
        if let names = file.featureNames {
            let expected = Array(VoiceFeatureExtractor.names.prefix(d))
            try check(
                names == expected,
                "the model was trained on other features than this MicCheck computes (\(Self.firstDifference(names, expected)))"
            )
        }
        let lookahead = file.lookahead ?? 0
        try check(
            (0...Self.maximumLookahead).contains(lookahead),
            "a look-ahead of \(lookahead) frames (at most \(Self.maximumLookahead))")
        self.lookahead = lookahead
        featureCount = d
        denseWidth = w
        hiddenWidth = h
        inputMean = file.inputMean
        inputScale = file.inputScale
        // Each gate's h rows start at a multiple of 8: gate g, unit j goes to g·hp + j.
        let wp = Self.padded(w)
        let hp = Self.padded(h)
        let gate = { (r: Int) in r / h * hp + r % h }
        dense = Matrix(rows: w, columns: d, values: file.dense.weights, height: wp)
        denseBias = Self.spread(file.dense.bias, count: wp)
        inputGates = PairedMatrix(rows: 3 * h, columns: w, values: file.gru.inputWeights, height: 3 * hp, place: gate)
        recurrentGates = PairedMatrix(
            rows: 3 * h, columns: h, values: file.gru.recurrentWeights, height: 3 * hp, place: gate)
        inputGateBias = Self.spread(file.gru.inputBias, count: 3 * hp, place: gate)
        recurrentGateBias = Self.spread(file.gru.recurrentBias, count: 3 * hp, place: gate)
        output = Self.spread(file.output.weights, count: hp)
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
            preconditionFailure(
                "MicCheck's resource bundle has no VoiceActivityModel.json; the installation is incomplete")
        }
        do { return try VoiceActivityModel(contentsOf: url) } catch {
            preconditionFailure("MicCheck's bundled voice activity model is damaged: \(error)")
        }
    }()
}

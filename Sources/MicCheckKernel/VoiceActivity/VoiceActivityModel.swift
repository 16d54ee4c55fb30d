/// The voice activity model: standardised features, a dense tanh layer, one GRU layer and a sigmoid
/// output. `training/train_vad.py` writes its weights as a JSON file (MicCheck's
/// `Resources/VoiceActivityModel.json`), and `scripts/embed-model.py` writes the same weights into this
/// module's source (`BundledVoiceActivityModel.swift`), so that ``bundled`` needs no file: the kernel
/// runs where there is no file system (WebAssembly in a page). MicCheck's tests check that the two agree.
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

    /// Features a frame the model reads (`VoiceFeatureExtractor.count` or `coreCount`).
    public let featureCount: Int
    /// Frames (10 ms each) of audio after a frame that the model hears before deciding it, 0...3: its
    /// output after frame n is frame n − lookahead's probability.
    public let lookahead: Int
    /// The most look-ahead a model may have (30 ms).
    public static let maximumLookahead = 3
    /// The widest layer a model file may have (a model of 1 MB is far narrower).
    public static let maximumWidth = 4_096
    /// Units of the dense layer.
    public let denseWidth: Int
    /// Units of the GRU layer: the size of its state.
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
        /// The file could not be read; why.
        case unreadable(String)
        /// The data is not a model (not JSON of format `miccheck-vad`, version 1); why.
        case notAModel(String)
        /// The weights do not fit: a layer's size, a weight that is not finite, the features or the
        /// look-ahead; which.
        case shape(String)

        /// The error in words.
        public var description: String {
            switch self {
            case .unreadable(let why): "the voice activity model could not be read: \(why)"
            case .notAModel(let why): "this is not a MicCheck voice activity model: \(why)"
            case .shape(let why): "the voice activity model's shapes do not fit: \(why)"
            }
        }
    }

    /// Feature names compared byte for byte (they are ASCII; String's `==`, which compares canonical
    /// equivalence, would bring Unicode's normalisation tables into the page's WebAssembly).
    private static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

    private static func firstDifference(_ a: [String], _ b: [String]) -> String {
        guard let i = a.indices.first(where: { $0 < b.count && !same(a[$0], b[$0]) }) else {
            return "\(a.count) names, \(b.count) expected"
        }
        return "feature \(i) is \(a[i]), expected \(b[i])"
    }

    /// A model's weights, as `training/train_vad.py` writes them (row-major, PyTorch's GRU gate order r, z, n).
    public struct Weights: Sendable {
        /// Features a frame the model reads.
        public var features: Int
        /// The feature layout the model was trained on (older files have none).
        public var featureNames: [String]?
        /// Frames (10 ms each) the model hears after a frame before deciding it, 0...3.
        public var lookahead: Int
        /// Per feature, the mean subtracted before the dense layer.
        public var inputMean: [Float]
        /// Per feature, the factor applied after the mean is subtracted (1 / its standard deviation in
        /// training).
        public var inputScale: [Float]
        /// Inputs of the dense layer: `features`.
        public var denseInputs: Int
        /// Units of the dense layer.
        public var denseOutputs: Int
        /// The dense layer's weights, `denseOutputs` × `denseInputs`.
        public var denseWeights: [Float]
        /// The dense layer's bias, one a unit.
        public var denseBias: [Float]
        /// Inputs of the GRU layer: `denseOutputs`.
        public var gruInputs: Int
        /// Units of the GRU layer.
        public var hidden: Int
        /// The GRU's input weights, 3·`hidden` × `gruInputs` (gates r, z, n).
        public var gruInputWeights: [Float]
        /// The GRU's recurrent weights, 3·`hidden` × `hidden` (gates r, z, n).
        public var gruRecurrentWeights: [Float]
        /// The GRU's input bias, 3·`hidden`.
        public var gruInputBias: [Float]
        /// The GRU's recurrent bias, 3·`hidden`.
        public var gruRecurrentBias: [Float]
        /// Inputs of the output layer: `hidden`.
        public var outputInputs: Int
        /// Outputs of the output layer: 1, the speech probability's logit.
        public var outputOutputs: Int
        /// The output layer's weights, one a GRU unit.
        public var outputWeights: [Float]
        /// The output layer's bias, one value.
        public var outputBias: [Float]

        /// Weights from their parts; `VoiceActivityModel(weights:)` checks their shapes.
        public init(
            features: Int, featureNames: [String]?, lookahead: Int, inputMean: [Float], inputScale: [Float],
            denseInputs: Int, denseOutputs: Int, denseWeights: [Float], denseBias: [Float], gruInputs: Int,
            hidden: Int, gruInputWeights: [Float], gruRecurrentWeights: [Float], gruInputBias: [Float],
            gruRecurrentBias: [Float], outputInputs: Int, outputOutputs: Int, outputWeights: [Float],
            outputBias: [Float]
        ) {
            self.features = features
            self.featureNames = featureNames
            self.lookahead = lookahead
            self.inputMean = inputMean
            self.inputScale = inputScale
            self.denseInputs = denseInputs
            self.denseOutputs = denseOutputs
            self.denseWeights = denseWeights
            self.denseBias = denseBias
            self.gruInputs = gruInputs
            self.hidden = hidden
            self.gruInputWeights = gruInputWeights
            self.gruRecurrentWeights = gruRecurrentWeights
            self.gruInputBias = gruInputBias
            self.gruRecurrentBias = gruRecurrentBias
            self.outputInputs = outputInputs
            self.outputOutputs = outputOutputs
            self.outputWeights = outputWeights
            self.outputBias = outputBias
        }
    }

    /// A model from its weights, checking every shape and, when the weights name them, the features it reads.
    public init(weights file: Weights) throws(LoadError) {
        let d = file.features
        let w = file.denseOutputs
        let h = file.hidden
        guard d > 0, w > 0, h > 0 else { throw .shape("empty layers") }
        // Before any product of widths: a width near Int.max would overflow them (found by fuzzing).
        guard d <= Self.maximumWidth, w <= Self.maximumWidth, h <= Self.maximumWidth else {
            throw .shape("a layer wider than \(Self.maximumWidth) units")
        }
        func check(_ ok: Bool, _ what: String) throws(LoadError) { if !ok { throw .shape(what) } }
        try check(file.inputMean.count == d && file.inputScale.count == d, "input standardisation")
        try check(
            file.denseInputs == d && file.denseWeights.count == w * d && file.denseBias.count == w, "dense layer")
        try check(
            file.gruInputs == w && file.gruInputWeights.count == 3 * h * w
                && file.gruRecurrentWeights.count == 3 * h * h
                && file.gruInputBias.count == 3 * h && file.gruRecurrentBias.count == 3 * h, "GRU layer")
        try check(
            file.outputInputs == h && file.outputOutputs == 1 && file.outputWeights.count == h
                && file.outputBias.count == 1, "output layer")
        let all = [
            file.inputMean, file.inputScale, file.denseWeights, file.denseBias, file.gruInputWeights,
            file.gruRecurrentWeights, file.gruInputBias, file.gruRecurrentBias, file.outputWeights,
            file.outputBias,
        ]
        try check(all.allSatisfy { $0.allSatisfy { $0.isFinite } }, "a weight is not a finite number")
        if let names = file.featureNames {
            let expected = Array(VoiceFeatureExtractor.names.prefix(d))
            try check(
                names.count == expected.count && zip(names, expected).allSatisfy { Self.same($0, $1) },
                "the model was trained on other features than this MicCheck computes (\(Self.firstDifference(names, expected)))"
            )
        }
        let lookahead = file.lookahead
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
        dense = Matrix(rows: w, columns: d, values: file.denseWeights, height: wp)
        denseBias = Self.spread(file.denseBias, count: wp)
        inputGates = PairedMatrix(rows: 3 * h, columns: w, values: file.gruInputWeights, height: 3 * hp, place: gate)
        recurrentGates = PairedMatrix(
            rows: 3 * h, columns: h, values: file.gruRecurrentWeights, height: 3 * hp, place: gate)
        inputGateBias = Self.spread(file.gruInputBias, count: 3 * hp, place: gate)
        recurrentGateBias = Self.spread(file.gruRecurrentBias, count: 3 * hp, place: gate)
        output = Self.spread(file.outputWeights, count: hp)
        outputBias = file.outputBias[0]
    }

    /// The model trained for MicCheck, built into the module (made once).
    public static let bundled: VoiceActivityModel = {
        do throws(LoadError) { return try VoiceActivityModel(weights: bundledWeights) } catch {
            preconditionFailure("MicCheck's bundled voice activity model is damaged")
        }
    }()
}

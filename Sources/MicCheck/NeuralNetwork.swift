import Foundation

/// A small fully connected network: tanh hidden layers, a sigmoid output.
///
/// Inputs are standardised with the training set's mean and scale first. Activations live in two
/// buffers allocated in `init`; ``predict(_:)`` allocates nothing.
public struct DenseNetwork: Sendable {
    /// One layer: `weights` is row-major, `outputs` rows of `inputs` columns.
    public struct Layer: Sendable {
        public var inputs: Int
        public var outputs: Int
        public var weights: [Float]
        public var bias: [Float]

        public init(inputs: Int, outputs: Int, weights: [Float], bias: [Float]) {
            precondition(weights.count == inputs * outputs && bias.count == outputs, "layer shape mismatch")
            self.inputs = inputs; self.outputs = outputs; self.weights = weights; self.bias = bias
        }
    }

    public let inputMean: [Float]
    public let inputScale: [Float]
    public let layers: [Layer]
    private var a: [Float]
    private var b: [Float]

    public init(inputMean: [Float], inputScale: [Float], layers: [Layer]) {
        precondition(!layers.isEmpty && inputMean.count == layers[0].inputs && inputScale.count == inputMean.count)
        for i in 1..<layers.count { precondition(layers[i].inputs == layers[i - 1].outputs, "layers do not chain") }
        precondition(layers[layers.count - 1].outputs == 1, "the last layer must have one output")
        self.inputMean = inputMean; self.inputScale = inputScale; self.layers = layers
        let width = max(inputMean.count, layers.map(\.outputs).max() ?? 1)
        a = [Float](repeating: 0, count: width)
        b = [Float](repeating: 0, count: width)
    }

    public var inputCount: Int { inputMean.count }

    /// The network's output for one input vector, in 0…1.
    public mutating func predict(_ input: UnsafeBufferPointer<Float>) -> Float {
        let n = inputMean.count
        a.withUnsafeMutableBufferPointer { a in
            for i in 0..<n { a[i] = (input[i] - inputMean[i]) * inputScale[i] }
        }
        var out: Float = 0
        for (li, layer) in layers.enumerated() {
            let last = li == layers.count - 1
            a.withUnsafeMutableBufferPointer { x in
                b.withUnsafeMutableBufferPointer { y in
                    layer.weights.withUnsafeBufferPointer { w in
                        for o in 0..<layer.outputs {
                            var s = layer.bias[o]
                            let row = o * layer.inputs
                            for i in 0..<layer.inputs { s += w[row + i] * x[i] }
                            if last { out = 1 / (1 + exp(-s)) } else { y[o] = tanh(s) }
                        }
                    }
                }
            }
            if !last { swap(&a, &b) }
        }
        return out
    }
}

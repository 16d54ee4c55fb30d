import Foundation
import MicCheckTesting
import Testing

@testable import MicCheck

/// A model file in the format `training/train_vad.py` writes, with chosen weights.
func modelJSON(
    features: Int = 2, dense: Int = 1, hidden: Int = 1, mean: [Float]? = nil, scale: [Float]? = nil,
    denseWeights: [Float]? = nil, inputWeights: [Float]? = nil, recurrentWeights: [Float]? = nil,
    inputBias: [Float]? = nil, recurrentBias: [Float]? = nil, output: [Float]? = nil,
    outputBias: Float = 0, format: String = "miccheck-vad", lookahead: Int? = nil
) -> Data {
    func list(_ v: [Float]) -> String { "[" + v.map { $0.isFinite ? "\($0)" : "\"nan\"" }.joined(separator: ",") + "]" }
    let text = """
        {"format":"\(format)","version":1,"features":\(features),\(lookahead.map { "\"lookahead\":\($0)," } ?? "")
         "inputMean":\(list(mean ?? [Float](repeating: 0, count: features))),
         "inputScale":\(list(scale ?? [Float](repeating: 1, count: features))),
         "dense":{"inputs":\(features),"outputs":\(dense),"weights":\(list(denseWeights ?? [Float](repeating: 0.5, count: features * dense))),"bias":\(list([Float](repeating: 0, count: dense)))},
         "gru":{"inputs":\(dense),"hidden":\(hidden),
                "inputWeights":\(list(inputWeights ?? [Float](repeating: 0.3, count: 3 * hidden * dense))),
                "recurrentWeights":\(list(recurrentWeights ?? [Float](repeating: 0.2, count: 3 * hidden * hidden))),
                "inputBias":\(list(inputBias ?? [Float](repeating: 0, count: 3 * hidden))),
                "recurrentBias":\(list(recurrentBias ?? [Float](repeating: 0, count: 3 * hidden)))},
         "output":{"inputs":\(hidden),"outputs":1,"weights":\(list(output ?? [Float](repeating: 1, count: hidden))),"bias":[\(outputBias)]}}
        """
    return Data(text.utf8)
}

/// A small valid model file with one field's text replaced.
func widened(_ field: String, _ replacement: String) -> Data {
    Data(String(decoding: modelJSON(), as: UTF8.self).replacingOccurrences(of: field, with: replacement).utf8)
}

@Suite("Voice activity model")
struct VoiceActivityModelTests {
    @Test("the bundled model reads all the extractor's features, and its file in the resources is under 1 MB")
    func bundled() throws {
        let model = VoiceActivityModel.bundled
        #expect(model.featureCount == VoiceFeatureExtractor.count)
        #expect(model.hiddenWidth > 0)
        let url = try #require(VoiceActivityModel.bundledURL)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(size < 1_000_000)
    }

    @Test("the model built into the kernel is the JSON file's, weight for weight (scripts/embed-model.py is current)")
    func builtInEqualsFile() throws {
        let url = try #require(VoiceActivityModel.bundledURL)
        let file = try VoiceActivityModel(contentsOf: url)
        // Equatable over every stored weight, quantised matrices included; a model retrained without
        // running embed-model.py differs here.
        #expect(file == VoiceActivityModel.bundled)
        // and the comparison can tell two models apart: one weight's last bit moved
        var weights = VoiceActivityModel.bundledWeights
        weights.outputBias[0] = weights.outputBias[0].nextUp
        #expect(try VoiceActivityModel(weights: weights) != file)
    }

    @Test("one GRU step equals the equations worked out by hand")
    func gruStep() throws {
        // features (2) → dense 1 (tanh) → GRU 1 → sigmoid; every weight distinct.
        let model = try VoiceActivityModel(
            json: modelJSON(
                mean: [1, -1], scale: [0.5, 2], denseWeights: [0.4, -0.3], inputWeights: [0.7, -0.2, 0.9],
                recurrentWeights: [0.5, 0.6, -0.8], inputBias: [0.1, 0.2, -0.1], recurrentBias: [0.05, -0.05, 0.3],
                output: [1.5], outputBias: -0.2))
        func sig(_ v: Double) -> Double { 1 / (1 + exp(-v)) }
        var h = 0.0
        var state = VoiceActivityModel.State(for: model)
        for input in [[3.0, 0.5], [-2.0, 1.0], [0.0, 0.0]] {
            let x0 = (input[0] - 1) * 0.5
            let x1 = (input[1] + 1) * 2
            let a = tanh(0.4 * x0 - 0.3 * x1)
            let r = sig(0.7 * a + 0.1 + 0.5 * h + 0.05)
            let z = sig(-0.2 * a + 0.2 + 0.6 * h - 0.05)
            let n = tanh(0.9 * a - 0.1 + r * (-0.8 * h + 0.3))
            h = (1 - z) * n + z * h
            let expected = sig(1.5 * h - 0.2)
            let f = input.map { Float($0) }
            let got = f.withUnsafeBufferPointer { model.predict($0, state: &state) }
            #expect(abs(Double(got) - expected) < 1e-5, "got \(got), expected \(expected)")
        }
        // Forgetting the stream gives the first answer again.
        state.reset()
        let again = [Float(3), 0.5].withUnsafeBufferPointer { model.predict($0, state: &state) }
        var fresh = VoiceActivityModel.State(for: model)
        let first = [Float(3), 0.5].withUnsafeBufferPointer { model.predict($0, state: &fresh) }
        #expect(again == first)
    }

    /// `modelJSON`'s model (zero means, unit scales, zero dense bias) computed in Double, step by step.
    struct Reference {
        let d: Int, w: Int, hw: Int
        let dw: [Float], iw: [Float], rw: [Float], ib: [Float], rb: [Float], ow: [Float]

        var json: Data {
            modelJSON(
                features: d, dense: w, hidden: hw, denseWeights: dw, inputWeights: iw, recurrentWeights: rw,
                inputBias: ib, recurrentBias: rb, output: ow)
        }

        func probabilities(_ inputs: [[Float]]) -> [Double] {
            var h = [Double](repeating: 0, count: hw)
            return inputs.map { x in
                let a = (0..<w).map { o in tanh((0..<d).reduce(0.0) { $0 + Double(dw[o * d + $1]) * Double(x[$1]) }) }
                func gi(_ row: Int) -> Double {
                    (0..<w).reduce(Double(ib[row])) { $0 + Double(iw[row * w + $1]) * a[$1] }
                }
                func gh(_ row: Int) -> Double {
                    (0..<hw).reduce(Double(rb[row])) { $0 + Double(rw[row * hw + $1]) * h[$1] }
                }
                var next = h
                for j in 0..<hw {
                    let r = 1 / (1 + exp(-(gi(j) + gh(j))))
                    let z = 1 / (1 + exp(-(gi(hw + j) + gh(hw + j))))
                    let n = tanh(gi(2 * hw + j) + r * gh(2 * hw + j))
                    next[j] = (1 - z) * n + z * h[j]
                }
                h = next
                return 1 / (1 + exp(-(0..<hw).reduce(0.0) { $0 + Double(ow[$1]) * h[$1] }))
            }
        }

        /// The largest difference between the model's answers and the reference's.
        func worstError(_ inputs: [[Float]]) throws -> Double {
            let model = try VoiceActivityModel(json: json)
            var state = VoiceActivityModel.State(for: model)
            let got = inputs.map { x in x.withUnsafeBufferPointer { model.predict($0, state: &state) } }
            return zip(got, probabilities(inputs)).map { abs(Double($0) - $1) }.max() ?? 0
        }
    }

    // The GRU's products run in 16 bits: inputs to 1/16384, weights to 1/32767 of their row's largest or
    // finer, which moves a probability by about 1e-5 here (and by at most 0.001 over the public corpus).
    @Test(
        "widths that are not multiples of eight are padded without changing the result",
        arguments: [(11, 3, 5), (20, 10, 12), (9, 17, 19)])
    func padding(d: Int, w: Int, hw: Int) throws {
        func values(_ n: Int, _ seed: Int) -> [Float] { (0..<n).map { Float(sin(Double($0 * 7 + seed))) * 0.5 } }
        let reference = Reference(
            d: d, w: w, hw: hw, dw: values(w * d, 1), iw: values(3 * hw * w, 2),
            rw: values(3 * hw * hw, 3), ib: values(3 * hw, 4), rb: values(3 * hw, 5), ow: values(hw, 6))
        #expect(try reference.worstError((0..<4).map { values(d, 10 + $0) }) < 5e-5)
    }

    @Test("the 16-bit gate products cannot overflow: the largest possible sums come out right")
    func largestSums() throws {
        // Every dense output saturates at ±1 and every gate weight is ±40 with one sign per gate, so each
        // gate's sum is as large as its weights allow. Had the weights been scaled to fill 16 bits
        // (32767), 6 and 5 columns of them times 16384 would pass 2^31 and wrap to the other sign: the
        // reset and candidate gates would flip and the update gate open, and the state and the answer
        // would change sign. Inputs alternate in sign so that both extremes are reached.
        let d = 4
        let w = 6
        let hw = 5
        let gates = (0..<3 * hw).map { $0 / hw == 1 ? Float(-40) : 40 }  // z closed, r and n open
        let reference = Reference(
            d: d, w: w, hw: hw, dw: [Float](repeating: 30, count: w * d),
            iw: (0..<3 * hw * w).map { gates[$0 / w] }, rw: (0..<3 * hw * hw).map { gates[$0 / hw] },
            ib: [Float](repeating: 0, count: 3 * hw), rb: [Float](repeating: 0, count: 3 * hw),
            ow: [Float](repeating: 0.3, count: hw))
        let inputs = (0..<6).map { step in [Float](repeating: step % 2 == 0 ? 1 : -1, count: d) }
        let expected = reference.probabilities(inputs)
        #expect(expected.allSatisfy { abs($0 - 0.5) > 0.3 })  // a sign flip would show
        #expect(try reference.worstError(inputs) < 1e-4)
    }

    @Test("the eight-lane tanh and sigmoid agree with the library's to within 5e-7 (a few units in the last place)")
    func activations() {
        var worstTanh: Float = 0
        var worstSigmoid: Float = 0
        for i in -4000...4000 {
            let x = Float(i) / 200  // -20 ... 20
            let v = SIMD8<Float>(repeating: x)
            worstTanh = max(worstTanh, abs(VoiceActivityModel.tanh(v)[3] - Foundation.tanh(x)))
            worstSigmoid = max(worstSigmoid, abs(VoiceActivityModel.sigmoid(v)[5] - 1 / (1 + Foundation.exp(-x))))
        }
        #expect(worstTanh < 5e-7)
        #expect(worstSigmoid < 5e-7)
        // Odd, saturating, and exactly 0 at 0 (the padding lanes rely on tanh(0) = 0 and σ(0) = 1/2).
        let t = VoiceActivityModel.tanh(SIMD8<Float>(0, 1, -1, 50, -50, 1e-3, -1e-3, 0.5))
        #expect(t[0] == 0 && t[1] == -t[2] && t[3] == 1 && t[4] == -1)
        #expect(VoiceActivityModel.sigmoid(SIMD8<Float>(repeating: 0))[0] == 0.5)
    }

    @Test(
        "damaged model files are refused with a reason, never loaded",
        arguments: [
            ("not json", Data("{".utf8)),
            ("another format", modelJSON(format: "onnx")),
            ("dense weights short", modelJSON(denseWeights: [0.1])),
            ("GRU weights short", modelJSON(inputWeights: [0.1, 0.2])),
            ("standardisation short", modelJSON(mean: [0])),
            ("a weight not a number", modelJSON(output: [Float.nan])),
            ("more than 30 ms of look-ahead", modelJSON(lookahead: 4)),
            ("a negative look-ahead", modelJSON(lookahead: -1)),
            // Widths whose products overflow (the first found by fuzzing: scripts/fuzz.sh model).
            (
                "a dense layer of 2,555,555,555,555,555,555 units",
                widened("\"outputs\":1,\"weights\"", "\"outputs\":2555555555555555555,\"weights\"")
            ),
            ("a GRU of 4e18 units", widened("\"hidden\":1", "\"hidden\":4000000000000000000")),
            ("a layer of 4,097 units", modelJSON(dense: 4_097)),
        ])
    func refused(what: String, data: Data) {
        #expect(throws: VoiceActivityModel.LoadError.self, "\(what)") { try VoiceActivityModel(json: data) }
    }

    @Test("a model's look-ahead is read from its file, none when the file has none", arguments: [nil, 0, 3])
    func lookahead(frames: Int?) throws {
        #expect(try VoiceActivityModel(json: modelJSON(lookahead: frames)).lookahead == (frames ?? 0))
    }

    @Test("a missing model file is unreadable, with the system's reason")
    func missingFile() {
        #expect {
            try VoiceActivityModel(contentsOf: URL(fileURLWithPath: "/nonexistent/model.json"))
        } throws: { error in
            guard case .unreadable = error as? VoiceActivityModel.LoadError else { return false }
            return true
        }
    }
}

@Suite("Voice features")
struct VoiceFeatureTests {
    /// The mean of feature `index` over frames `from...` of `x` (16 kHz).
    func meanFeature(_ index: Int, of x: [Float], from: Int) -> Float {
        var extractor = VoiceFeatureExtractor()
        var vector = [Float](repeating: 0, count: VoiceFeatureExtractor.count)
        var sum: Float = 0
        var count = 0
        for (i, start) in stride(
            from: 0, to: x.count - VoiceFeatureExtractor.frameLength + 1,
            by: VoiceFeatureExtractor.frameLength
        ).enumerated() {
            x[start..<start + VoiceFeatureExtractor.frameLength].withUnsafeBufferPointer { f in
                vector.withUnsafeMutableBufferPointer { extractor.process(frame: f, into: $0) }
            }
            if i >= from {
                sum += vector[index]
                count += 1
            }
        }
        return sum / Float(max(1, count))
    }

    @Test(
        "the band pattern changes faster in syllables of changing vowels than in a held, vibrato vowel",
        arguments: [(44, Float(2)), (45, 2), (46, 1.4)])
    func shapeChange(feature: Int, ratio: Float) {
        let rate = 16_000
        let floor = Signals.pinkNoise(rmsDB: -70, seconds: 4, sampleRate: rate)
        let speech = zip(
            Signals.syllables(vowels: Signals.vowelFormants, rmsDB: -25, seconds: 4, sampleRate: rate), floor
        ).map { $0 + $1 }
        let bleat = zip(Signals.heldVowel(rmsDB: -25, seconds: 4, sampleRate: rate), floor).map { $0 + $1 }
        let speechChange = meanFeature(feature, of: speech, from: 200)
        let bleatChange = meanFeature(feature, of: bleat, from: 200)
        // Over 40 ms (46) a syllable's own vowel is mostly steady, so the margin is smaller.
        #expect(speechChange > ratio * bleatChange, "syllables \(speechChange), held vowel \(bleatChange)")
    }
}

@Suite("Articulation features")
struct ArticulationFeatureTests {
    let features = VoiceFeatureTests()

    @Test(
        "a voice flips between voiced and unvoiced, and between its fricative and formant bands, far more than a held vowel",
        arguments: [(47, Float(3)), (48, 3)])
    func voiceAgainstHeldVowel(feature: Int, ratio: Float) {
        let rate = 16_000
        let floor = Signals.pinkNoise(rmsDB: -70, seconds: 6, sampleRate: rate)
        let voice = zip(Signals.voice(rmsDB: -25, seconds: 6, sampleRate: rate), floor).map { $0 + $1 }
        let bleat = zip(Signals.heldVowel(rmsDB: -25, seconds: 6, sampleRate: rate), floor).map { $0 + $1 }
        let spoken = features.meanFeature(feature, of: voice, from: 200)
        let held = features.meanFeature(feature, of: bleat, from: 200)
        #expect(spoken > ratio * held, "voice \(spoken), held vowel \(held)")
    }

    @Test(
        "unvoiced frames with the fricative bands evenly above their floor count as consonants; a tone up there does not"
    )
    func consonantShare() {
        let rate = 16_000
        let floor = Signals.pinkNoise(rmsDB: -70, seconds: 4, sampleRate: rate)
        // 60 ms hiss bursts every 250 ms (as /s/ between syllables) against a 5 kHz whistle in the same rhythm.
        func bursts(_ source: [Float]) -> [Float] {
            source.enumerated().map { i, x in (i % 4_000) < 960 ? x : 0 }
        }
        let hiss = zip(bursts(Signals.whiteNoise(rmsDB: -30, seconds: 4, sampleRate: rate)), floor).map { $0 + $1 }
        let whistle = zip(bursts(Signals.sine(frequency: 5_000, rmsDB: -30, seconds: 4, sampleRate: rate)), floor).map {
            $0 + $1
        }
        let fricative = features.meanFeature(49, of: hiss, from: 200)
        let tone = features.meanFeature(49, of: whistle, from: 200)
        #expect(fricative > 0.5, "hiss bursts \(fricative)")
        #expect(tone < 0.1 * fricative, "whistle \(tone)")
    }

    @Test(
        "given room for the core features only, the extractor writes the same core features as with the articulation features"
    )
    func coreUnchanged() {
        let x = Signals.voice(rmsDB: -25, seconds: 3, sampleRate: 16_000)
        var withArticulation = VoiceFeatureExtractor()
        var coreOnly = VoiceFeatureExtractor()
        var full = [Float](repeating: 0, count: VoiceFeatureExtractor.count)
        var core = [Float](repeating: -1, count: VoiceFeatureExtractor.coreCount)
        var differing = 0
        var articulated = 0
        for start in stride(
            from: 0, to: x.count - VoiceFeatureExtractor.frameLength + 1, by: VoiceFeatureExtractor.frameLength)
        {
            x[start..<start + VoiceFeatureExtractor.frameLength].withUnsafeBufferPointer { f in
                full.withUnsafeMutableBufferPointer { withArticulation.process(frame: f, into: $0) }
                core.withUnsafeMutableBufferPointer { coreOnly.process(frame: f, into: $0) }
            }
            differing += zip(full, core).filter { $0 != $1 }.count
            if full[VoiceFeatureExtractor.coreCount...].contains(where: { $0 != 0 }) { articulated += 1 }
        }
        #expect(differing == 0)
        #expect(articulated > 200, "frames with articulation features: \(articulated)")
    }

    @Test("a model of the core features runs without the articulation features and answers as one that weighs them 0")
    func coreModel() throws {
        let core = VoiceFeatureExtractor.coreCount
        let all = VoiceFeatureExtractor.count
        let weights = (0..<core).map { Float($0 % 5) * 0.1 - 0.2 }
        let short = try VoiceActivityModel(json: modelJSON(features: core, denseWeights: weights))
        let long = try VoiceActivityModel(
            json: modelJSON(features: all, denseWeights: weights + [Float](repeating: 0, count: all - core)))
        let heavy = try VoiceActivityModel(
            json: modelJSON(features: all, denseWeights: weights + [Float](repeating: 1, count: all - core)))
        var a = VoiceActivityDetector(model: short)
        var b = VoiceActivityDetector(model: long)
        var c = VoiceActivityDetector(model: heavy)
        #expect(a.lastFeatures.count == core && b.lastFeatures.count == all)
        let x = Signals.voice(rmsDB: -25, seconds: 2, sampleRate: 16_000)
        var same = 0
        var moved = 0
        var frames = 0
        for start in stride(
            from: 0, to: x.count - VoiceFeatureExtractor.frameLength + 1, by: VoiceFeatureExtractor.frameLength)
        {
            x[start..<start + VoiceFeatureExtractor.frameLength].withUnsafeBufferPointer { f in
                let p = a.process(frame: f)
                let q = b.process(frame: f)
                let r = c.process(frame: f)
                if p == q { same += 1 }
                if r != q { moved += 1 }
            }
            frames += 1
        }
        #expect(same == frames)
        #expect(moved > frames / 2, "the articulation features reach the model that weighs them: \(moved) of \(frames)")
    }
}

/// The model file names the features it reads; MicCheck refuses a model trained on another layout.
@Suite struct FeatureLayoutTests {
    @Test func theExtractorNamesEveryFeatureOnce() {
        #expect(VoiceFeatureExtractor.names.count == VoiceFeatureExtractor.count)
        #expect(Set(VoiceFeatureExtractor.names).count == VoiceFeatureExtractor.count)
        #expect(VoiceFeatureExtractor.names.allSatisfy { !$0.isEmpty && $0 == $0.lowercased() && !$0.contains(" ") })
    }

    @Test func theBundledModelNamesTheLayoutItReads() throws {
        let url = try #require(VoiceActivityModel.bundledURL)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        #expect(json["featureNames"] as? [String] == VoiceFeatureExtractor.names)
    }

    @Test func aModelOfAnotherLayoutIsRefusedWithTheFirstDifference() throws {
        var names = VoiceFeatureExtractor.names
        names.swapAt(4, 5)
        let swapped = try ModelFiles.bundled { $0["featureNames"] = names }
        #expect(
            throws: VoiceActivityModel.LoadError.shape(
                "the model was trained on other features than this MicCheck computes (feature 4 is pitch, expected harmonicity)"
            )
        ) {
            try VoiceActivityModel(json: swapped)
        }
        // A model that names no layout (written before names existed) still loads.
        let unnamed = try ModelFiles.bundled { $0["featureNames"] = nil }
        #expect(try VoiceActivityModel(json: unnamed).featureCount == VoiceFeatureExtractor.count)
        // Names that do not cover every feature the model reads are refused.
        let short = try ModelFiles.bundled { $0["featureNames"] = Array(VoiceFeatureExtractor.names.prefix(40)) }
        #expect(throws: VoiceActivityModel.LoadError.self) { try VoiceActivityModel(json: short) }
    }
}

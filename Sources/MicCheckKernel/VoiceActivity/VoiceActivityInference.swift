// libm (Math.swift says why this and not Foundation).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// Running the model: the GRU step, with 16-bit paired weights and SIMD activations. The numeric kernel
/// of the voice detector; nothing here allocates.
extension VoiceActivityModel {
    /// Scratch and recurrent state for running the model on a stream; allocated once.
    public struct State: Sendable {
        var x: [Float]
        var a: [Float]
        var gi: [Float]
        var gh: [Float]
        var h: [Float]
        /// `a` and `h` quantised for `PairedMatrix`: each pair of values as 16-bit integers, repeated
        /// four times (16 bytes a pair).
        var aPairs: [Int16]
        var hPairs: [Int16]

        /// State for running `model` from the start of a stream (a zero GRU state).
        public init(for model: VoiceActivityModel) {
            x = [Float](repeating: 0, count: model.featureCount)
            a = [Float](repeating: 0, count: model.dense.height)
            gi = [Float](repeating: 0, count: model.inputGates.height)
            gh = [Float](repeating: 0, count: model.recurrentGates.height)
            h = [Float](repeating: 0, count: model.output.count)
            // The vectors are padded to multiples of 8, so they hold every pair the matrices read.
            aPairs = [Int16](repeating: 0, count: 4 * model.dense.height)
            hPairs = [Int16](repeating: 0, count: 4 * model.output.count)
        }

        /// Forgets the stream so far.
        public mutating func reset() {
            for i in h.indices { h[i] = 0 }  // hPairs is made from h anew every frame
        }
    }

    /// Advances the model by one frame of ``featureCount`` features; returns the speech probability.
    /// Allocates nothing.
    public func predict(_ features: UnsafeBufferPointer<Float>, state: inout State) -> Float {
        precondition(features.count >= featureCount, "too few features")
        let blocks = output.count / 8
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
                            Self.multiply(dense, UnsafeBufferPointer(x), bias: denseBias, into: a)
                            let ap = UnsafeMutableRawPointer(a.baseAddress!)  // sized in State.init, never empty
                            for k in 0..<(dense.height / 8) {
                                let v = ap.loadUnaligned(fromByteOffset: 32 * k, as: SIMD8<Float>.self)
                                ap.storeBytes(of: Self.tanh(v), toByteOffset: 32 * k, as: SIMD8<Float>.self)
                            }
                            state.aPairs.withUnsafeMutableBufferPointer { pairs in
                                Self.pairUp(UnsafeBufferPointer(a), into: pairs)
                                Self.multiply(inputGates, UnsafeBufferPointer(pairs), bias: inputGateBias, into: gi)
                            }
                            state.hPairs.withUnsafeMutableBufferPointer { pairs in
                                Self.pairUp(UnsafeBufferPointer(hs), into: pairs)
                                Self.multiply(
                                    recurrentGates, UnsafeBufferPointer(pairs), bias: recurrentGateBias, into: gh)
                            }
                            let ip = UnsafeRawPointer(gi.baseAddress!)
                            let rp = UnsafeRawPointer(gh.baseAddress!)
                            let hp = UnsafeMutableRawPointer(hs.baseAddress!)
                            var out = SIMD8<Float>()
                            output.withUnsafeBufferPointer { wo in
                                let op = UnsafeRawPointer(wo.baseAddress!)
                                for k in 0..<blocks {
                                    func gate(_ g: Int, _ p: UnsafeRawPointer) -> SIMD8<Float> {
                                        p.loadUnaligned(fromByteOffset: 32 * (g * blocks + k), as: SIMD8<Float>.self)
                                    }
                                    let r = Self.sigmoid(gate(0, ip) + gate(0, rp))
                                    let z = Self.sigmoid(gate(1, ip) + gate(1, rp))
                                    let n = Self.tanh(gate(2, ip) + r * gate(2, rp))
                                    let old = hp.loadUnaligned(fromByteOffset: 32 * k, as: SIMD8<Float>.self)
                                    let v = (1 - z) * n + z * old
                                    hp.storeBytes(of: v, toByteOffset: 32 * k, as: SIMD8<Float>.self)
                                    out += op.loadUnaligned(fromByteOffset: 32 * k, as: SIMD8<Float>.self) * v
                                }
                            }
                            return Self.sigmoid(out.sum() + outputBias)
                        }
                    }
                }
            }
        }
    }

    /// y = M·x + b, eight rows at a time: each block of rows accumulates column × x[column]. Four
    /// blocks go together, so each x[column] is read once per 32 rows.
    @inline(__always)
    private static func multiply(
        _ m: Matrix, _ x: UnsafeBufferPointer<Float>, bias: [Float],
        into y: UnsafeMutableBufferPointer<Float>
    ) {
        m.values.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                let wp = UnsafeRawPointer(w.baseAddress!)  // non-empty: rows, columns > 0
                let bp = UnsafeRawPointer(b.baseAddress!)  // height > 0
                let yp = UnsafeMutableRawPointer(y.baseAddress!)  // sized to the height in State.init
                let columnBytes = m.height * 4
                let blocks = m.height / 8
                var k = 0
                while k + 4 <= blocks {
                    var a0 = bp.loadUnaligned(fromByteOffset: 32 * k, as: SIMD8<Float>.self)
                    var a1 = bp.loadUnaligned(fromByteOffset: 32 * k + 32, as: SIMD8<Float>.self)
                    var a2 = bp.loadUnaligned(fromByteOffset: 32 * k + 64, as: SIMD8<Float>.self)
                    var a3 = bp.loadUnaligned(fromByteOffset: 32 * k + 96, as: SIMD8<Float>.self)
                    var offset = 32 * k
                    for c in 0..<m.columns {
                        let v = x[c]
                        a0 += wp.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * v
                        a1 += wp.loadUnaligned(fromByteOffset: offset + 32, as: SIMD8<Float>.self) * v
                        a2 += wp.loadUnaligned(fromByteOffset: offset + 64, as: SIMD8<Float>.self) * v
                        a3 += wp.loadUnaligned(fromByteOffset: offset + 96, as: SIMD8<Float>.self) * v
                        offset += columnBytes
                    }
                    yp.storeBytes(of: a0, toByteOffset: 32 * k, as: SIMD8<Float>.self)
                    yp.storeBytes(of: a1, toByteOffset: 32 * k + 32, as: SIMD8<Float>.self)
                    yp.storeBytes(of: a2, toByteOffset: 32 * k + 64, as: SIMD8<Float>.self)
                    yp.storeBytes(of: a3, toByteOffset: 32 * k + 96, as: SIMD8<Float>.self)
                    k += 4
                }
                while k < blocks {
                    var acc = bp.loadUnaligned(fromByteOffset: 32 * k, as: SIMD8<Float>.self)
                    var offset = 32 * k
                    for c in 0..<m.columns {
                        acc += wp.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * x[c]
                        offset += columnBytes
                    }
                    yp.storeBytes(of: acc, toByteOffset: 32 * k, as: SIMD8<Float>.self)
                    k += 1
                }
            }
        }
    }

    /// Quantises `x` (a multiple of 8 values, each in [−1, 1]) for `PairedMatrix`: each pair becomes two
    /// 16-bit integers, written four times over. Values outside [−1, 1] are clamped, and NaN reads as 0.
    @inline(__always)
    private static func pairUp(_ x: UnsafeBufferPointer<Float>, into pairs: UnsafeMutableBufferPointer<Int16>) {
        let xp = UnsafeRawPointer(x.baseAddress!)  // sized in State.init, never empty
        let pp = UnsafeMutableRawPointer(pairs.baseAddress!)  // four times x's count
        let one = SIMD8<Float>(repeating: 1)
        for k in 0..<(x.count / 8) {
            var v = xp.loadUnaligned(fromByteOffset: 32 * k, as: SIMD8<Float>.self)
            v.replace(with: one, where: v .> one)
            v.replace(with: -one, where: v .< -one)
            v.replace(with: 0, where: v .!= v)
            // Rounded to the nearest integer by adding 1.5 · 2^23: |v · 16384| < 2^22, so the sum's low
            // mantissa bits are that integer (the generic Float-to-Int32 vector conversion goes lane by lane).
            let shifted = v * PairedMatrix.inputScale + 12_582_912
            let q = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B40_0000
            // Lanes 2i and 2i + 1 as one 32-bit word (low half first), repeated over 16 bytes.
            let low = q.evenHalf & 0xFFFF
            let high = q.oddHalf &<< 16
            let words = SIMD4<UInt32>(truncatingIfNeeded: low | high)
            for i in 0..<4 {
                pp.storeBytes(
                    of: SIMD4<UInt32>(repeating: words[i]), toByteOffset: 64 * k + 16 * i, as: SIMD4<UInt32>.self)
            }
        }
    }

    /// y = M·x + b for a `PairedMatrix` and inputs made by `pairUp(_:into:)`: each column pair adds the
    /// multiply-add of pairs into 32-bit sums, four rows a vector and 32 rows at a time, so each pair of
    /// inputs is read once per 32 rows; the sums are scaled back to Float at the end.
    @inline(__always)
    private static func multiply(
        _ m: PairedMatrix, _ pairs: UnsafeBufferPointer<Int16>, bias: [Float],
        into y: UnsafeMutableBufferPointer<Float>
    ) {
        /// Four rows' sums over one column pair: w holds the rows' pairs, x the input pair four times.
        @inline(__always) func madd(_ w: SIMD8<Int16>, _ x: SIMD8<Int16>) -> SIMD4<Int32> {
            let p = SIMD8<Int32>(truncatingIfNeeded: w) &* SIMD8<Int32>(truncatingIfNeeded: x)
            return p.evenHalf &+ p.oddHalf  // compiles to one pmaddwd
        }
        m.values.withUnsafeBufferPointer { w in
            m.rowScale.withUnsafeBufferPointer { sc in
                bias.withUnsafeBufferPointer { b in
                    let wp = UnsafeRawPointer(w.baseAddress!)  // non-empty: rows, columns > 0
                    let xp = UnsafeRawPointer(pairs.baseAddress!)  // sized in State.init
                    let sp = UnsafeRawPointer(sc.baseAddress!)
                    let bp = UnsafeRawPointer(b.baseAddress!)  // height > 0
                    let yp = UnsafeMutableRawPointer(y.baseAddress!)  // sized to the height in State.init
                    let pairBytes = m.height &* 4
                    func finish(_ sums: SIMD4<Int32>, _ block: Int) {
                        let o = 16 &* block
                        let v =
                            SIMD4<Float>(sums) * sp.loadUnaligned(fromByteOffset: o, as: SIMD4<Float>.self)
                            + bp.loadUnaligned(fromByteOffset: o, as: SIMD4<Float>.self)
                        yp.storeBytes(of: v, toByteOffset: o, as: SIMD4<Float>.self)
                    }
                    let blocks = m.height / 4
                    var k = 0
                    while k + 8 <= blocks {
                        var s0 = SIMD4<Int32>()
                        var s1 = SIMD4<Int32>()
                        var s2 = SIMD4<Int32>()
                        var s3 = SIMD4<Int32>()
                        var s4 = SIMD4<Int32>()
                        var s5 = SIMD4<Int32>()
                        var s6 = SIMD4<Int32>()
                        var s7 = SIMD4<Int32>()
                        var offset = 16 &* k
                        for p in 0..<m.pairs {
                            let x = xp.loadUnaligned(fromByteOffset: 16 &* p, as: SIMD8<Int16>.self)
                            func row(_ i: Int) -> SIMD8<Int16> {
                                wp.loadUnaligned(fromByteOffset: offset &+ 16 &* i, as: SIMD8<Int16>.self)
                            }
                            s0 &+= madd(row(0), x)
                            s1 &+= madd(row(1), x)
                            s2 &+= madd(row(2), x)
                            s3 &+= madd(row(3), x)
                            s4 &+= madd(row(4), x)
                            s5 &+= madd(row(5), x)
                            s6 &+= madd(row(6), x)
                            s7 &+= madd(row(7), x)
                            offset &+= pairBytes
                        }
                        finish(s0, k)
                        finish(s1, k + 1)
                        finish(s2, k + 2)
                        finish(s3, k + 3)
                        finish(s4, k + 4)
                        finish(s5, k + 5)
                        finish(s6, k + 6)
                        finish(s7, k + 7)
                        k += 8
                    }
                    while k < blocks {
                        var s = SIMD4<Int32>()
                        var offset = 16 &* k
                        for p in 0..<m.pairs {
                            s &+= madd(
                                wp.loadUnaligned(fromByteOffset: offset, as: SIMD8<Int16>.self),
                                xp.loadUnaligned(fromByteOffset: 16 &* p, as: SIMD8<Int16>.self))
                            offset &+= pairBytes
                        }
                        finish(s, k)
                        k += 1
                    }
                }
            }
        }
    }

    /// A rational approximation of tanh (a 13/6 Padé-type fit, as in Eigen), good to a few units in the
    /// last place of a Float over the whole line and free of `exp`, eight lanes at a time.
    @inline(__always)
    package static func tanh(_ v: SIMD8<Float>) -> SIMD8<Float> {
        // Clamped to ±7.905311 with masks (`clamped` is an out-of-line call per vector here).
        let limit = SIMD8<Float>(repeating: 7.905311)
        var x = v
        x.replace(with: limit, where: x .> limit)
        x.replace(with: -limit, where: x .< -limit)
        let x2 = x * x
        var p = x2 * -2.76076847742355e-16 + 2.00018790482477e-13
        p = p * x2 + -8.60467152213735e-11
        p = p * x2 + 5.12229709037114e-08
        p = p * x2 + 1.48572235717979e-05
        p = p * x2 + 6.37261928875436e-04
        p = p * x2 + 4.89352455891786e-03
        p = p * x
        var q = x2 * 1.19825839466702e-06 + 1.18534705686654e-04
        q = q * x2 + 2.26843463243900e-03
        q = q * x2 + 4.89352518554385e-03
        return p / q
    }

    /// σ(v) = (1 + tanh(v/2)) / 2, eight lanes at a time.
    @inline(__always)
    package static func sigmoid(_ v: SIMD8<Float>) -> SIMD8<Float> { 0.5 + 0.5 * tanh(0.5 * v) }

    @inline(__always)
    package static func sigmoid(_ v: Float) -> Float { 1 / (1 + exp(-v)) }
}

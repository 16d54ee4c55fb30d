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

/// Forward FFT of a real signal whose length is a power of two, through a complex FFT of half the
/// length. Buffers are allocated once in `init`; ``transform(_:)`` allocates nothing.
///
/// - Complexity: O(n log n) per transform.
public struct RealFFT: Sendable {
    /// Length of the real input.
    public let size: Int
    private let half: Int
    private let stageCos: [Float]  // twiddles of the half-size complex FFT, stage by stage from length 8
    private let stageSin: [Float]
    private let splitCos: [Float]  // twiddles for the real split, k = 0..<half
    private let splitSin: [Float]
    private let bitReverse: [Int]
    private let quarterReverse: [Int]  // 4 · (m bit-reversed over the quarter's bits), m < half / 4
    private var zr: [Float]
    private var zi: [Float]
    /// Real and imaginary parts of bins 0 ... size/2 after ``transform(_:)``.
    public private(set) var real: [Float]
    /// Imaginary parts of bins 0 ... size/2 after `transform(_:)`.
    public private(set) var imaginary: [Float]

    /// A transform of `size` real samples: a power of two, at least 4.
    public init(size: Int) {
        precondition(size >= 4 && size & (size - 1) == 0, "FFT size must be a power of two, at least 4")
        self.size = size
        half = size / 2
        var sc: [Float] = []
        var ss: [Float] = []
        var len = 8
        while len <= size / 2 {
            for j in 0..<len / 2 {
                sc.append(Float(cos(-2 * Double.pi * Double(j) / Double(len))))
                ss.append(Float(sin(-2 * Double.pi * Double(j) / Double(len))))
            }
            len *= 2
        }
        stageCos = sc
        stageSin = ss
        splitCos = (0..<size / 2).map { Float(cos(-2 * Double.pi * Double($0) / Double(size))) }
        splitSin = (0..<size / 2).map { Float(sin(-2 * Double.pi * Double($0) / Double(size))) }
        /// `i`'s lowest `bits` bits in reverse order.
        func reversed(_ i: Int, bits: Int) -> Int {
            var r = 0
            for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
            return r
        }
        let bits = (size / 2).trailingZeroBitCount
        bitReverse = (0..<size / 2).map { reversed($0, bits: bits) }
        quarterReverse = (0..<max(1, size / 8)).map { 4 * reversed($0, bits: max(0, bits - 2)) }
        zr = [Float](repeating: 0, count: size / 2)
        zi = [Float](repeating: 0, count: size / 2)
        real = [Float](repeating: 0, count: size / 2 + 1)
        imaginary = [Float](repeating: 0, count: size / 2 + 1)
    }

    /// Transforms `input` (exactly ``size`` samples) into ``real`` and ``imaginary``.
    public mutating func transform(_ input: UnsafeBufferPointer<Float>) {
        precondition(input.count == size, "input must hold exactly size samples")
        let n = half
        zr.withUnsafeMutableBufferPointer { zr in
            zi.withUnsafeMutableBufferPointer { zi in
                if n >= 32, let inp = input.baseAddress, let zrp = zr.baseAddress, let zip = zi.baseAddress {
                    // Bit reversal and the first two stages in one pass, eight groups at a time: group
                    // rev(m) takes x[m], x[m + 2q], x[m + q], x[m + 3q] (q = n/4) in that order, read
                    // contiguously across m; only the results are scattered.
                    let q = n / 4
                    quarterReverse.withUnsafeBufferPointer { qr in
                        var m = 0
                        while m < q {
                            Self.firstStages(inp, m, q, qr, zrp, zip)
                            m += 8
                        }
                    }
                } else {
                    bitReverse.withUnsafeBufferPointer { rev in
                        for i in 0..<n {
                            zr[rev[i]] = input[2 * i]
                            zi[rev[i]] = input[2 * i + 1]
                        }
                    }
                    // Lengths 2 and 4 together: their twiddles are 1 and -i, so no multiplications.
                    var start = 0
                    while start + 3 < n {
                        let a0r = zr[start] + zr[start + 1]
                        let a0i = zi[start] + zi[start + 1]
                        let a1r = zr[start] - zr[start + 1]
                        let a1i = zi[start] - zi[start + 1]
                        let b0r = zr[start + 2] + zr[start + 3]
                        let b0i = zi[start + 2] + zi[start + 3]
                        let b1r = zr[start + 2] - zr[start + 3]
                        let b1i = zi[start + 2] - zi[start + 3]
                        zr[start] = a0r + b0r
                        zi[start] = a0i + b0i
                        zr[start + 2] = a0r - b0r
                        zi[start + 2] = a0i - b0i
                        // (b1r + i b1i)(-i) = b1i - i b1r
                        zr[start + 1] = a1r + b1i
                        zi[start + 1] = a1i - b1r
                        zr[start + 3] = a1r - b1i
                        zi[start + 3] = a1i + b1r
                        start += 4
                    }
                }
                if n == 2 {
                    let ar = zr[0]
                    let ai = zi[0]
                    zr[0] = ar + zr[1]
                    zi[0] = ai + zi[1]
                    zr[1] = ar - zr[1]
                    zi[1] = ai - zi[1]
                }
                // Longer stages: each stage's twiddles lie contiguously, so the inner loop runs over
                // consecutive memory only (and vectorises). Stages go two at a time (radix 4) while two
                // remain, with the same operations as two radix-2 passes but one trip through memory.
                stageCos.withUnsafeBufferPointer { ct in
                    stageSin.withUnsafeBufferPointer { st in
                        guard let zrp = zr.baseAddress, let zip = zi.baseAddress,
                            let cp = ct.baseAddress, let sp = st.baseAddress
                        else { return }
                        var len = 8
                        var offset = 0
                        while len <= n {
                            let halfLen = len / 2
                            let pair = 2 * len <= n
                            var start = 0
                            while start < n {
                                let ar = zrp + start
                                let ai = zip + start
                                let wr = cp + offset
                                let wi = sp + offset
                                if pair {
                                    if halfLen >= 8 {
                                        var j = 0
                                        while j < halfLen {
                                            Self.twoStages(SIMD8<Float>.self, ar + j, ai + j, halfLen, wr + j, wi + j)
                                            j += 8
                                        }
                                    } else {
                                        Self.twoStages(SIMD4<Float>.self, ar, ai, halfLen, wr, wi)
                                    }
                                    start += 2 * len
                                    continue
                                }
                                let br = ar + halfLen
                                let bi = ai + halfLen
                                if halfLen >= 8 {
                                    // Eight butterflies at a time (halfLen is a power of two ≥ 8).
                                    var j = 0
                                    while j < halfLen {
                                        Self.butterflies(
                                            SIMD8<Float>.self, ar + j, ai + j, br + j, bi + j, wr + j, wi + j)
                                        j += 8
                                    }
                                } else {
                                    Self.butterflies(SIMD4<Float>.self, ar, ai, br, bi, wr, wi)
                                }
                                start += len
                            }
                            // The next stage's twiddles follow this stage's halfLen; a pair used both.
                            offset += pair ? halfLen + len : halfLen
                            len *= pair ? 4 : 2
                        }
                    }
                }
                real.withUnsafeMutableBufferPointer { xr in
                    imaginary.withUnsafeMutableBufferPointer { xi in
                        splitCos.withUnsafeBufferPointer { sc in
                            splitSin.withUnsafeBufferPointer { ss in
                                xr[0] = zr[0] + zi[0]
                                xi[0] = 0
                                xr[n] = zr[0] - zi[0]
                                xi[n] = 0
                                guard let zrp = zr.baseAddress, let zip = zi.baseAddress, let xrp = xr.baseAddress,
                                    let xip = xi.baseAddress, let cp = sc.baseAddress, let sp = ss.baseAddress
                                else { return }
                                // Eight bins at a time; Z[n-k] is read backwards (a lane reversal).
                                var k = 1
                                while k + 8 <= n {
                                    Self.split8(k, n, zrp, zip, cp, sp, xrp, xip)
                                    k += 8
                                }
                                while k < n {
                                    let ar = zr[k]
                                    let ai = zi[k]
                                    let br = zr[n - k]
                                    let bi = -zi[n - k]  // conj(Z[n-k])
                                    let er = (ar + br) * 0.5
                                    let ei = (ai + bi) * 0.5
                                    let or = (ai - bi) * 0.5
                                    let oi = (br - ar) * 0.5  // (Z[k] - conj(Z[n-k])) / 2i
                                    let wr = sc[k]
                                    let wi = ss[k]
                                    xr[k] = er + or * wr - oi * wi
                                    xi[k] = ei + or * wi + oi * wr
                                    k += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Bins k ..< k + `V.scalarCount` of the real transform from the half-size complex one:
    /// X[k] = E + W^k·O with E = (Z[k] + conj Z[n−k]) / 2 and O = (Z[k] − conj Z[n−k]) / 2i.
    @inline(__always)
    private static func split8(
        _ k: Int, _ n: Int, _ zr: UnsafeMutablePointer<Float>, _ zi: UnsafeMutablePointer<Float>,
        _ wr: UnsafePointer<Float>, _ wi: UnsafePointer<Float>,
        _ xr: UnsafeMutablePointer<Float>, _ xi: UnsafeMutablePointer<Float>
    ) {
        typealias V = SIMD8<Float>
        // Its own eight-lane load: through the generic `load`, this loop compiled to about 220 more
        // instructions per frame (callgrind, 2026-11-22).
        func load(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }
        func reversed(_ v: V) -> V { V(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0]) }
        let back = n - k - 7  // Z[n-k-7 ... n-k], reversed, lines up with k ... k+7
        let ar = load(zr + k)
        let ai = load(zi + k)
        let br = reversed(load(zr + back))
        let bi = -reversed(load(zi + back))
        let er = (ar + br) * 0.5
        let ei = (ai + bi) * 0.5
        let or = (ai - bi) * 0.5
        let oi = (br - ar) * 0.5
        let cr = load(wr + k)
        let ci = load(wi + k)
        store(er + or * cr - oi * ci, xr + k)
        store(ei + or * ci + oi * cr, xi + k)
    }

    /// The first two radix-2 stages (twiddles 1 and −i) for groups rev(m) ..< rev(m + 8), straight
    /// from the interleaved input.
    @inline(__always)
    private static func firstStages(
        _ input: UnsafePointer<Float>, _ m: Int, _ q: Int, _ quarterReverse: UnsafeBufferPointer<Int>,
        _ zr: UnsafeMutablePointer<Float>, _ zi: UnsafeMutablePointer<Float>
    ) {
        func load(_ k: Int) -> (SIMD8<Float>, SIMD8<Float>) {
            let v = UnsafeRawPointer(input + 2 * k).loadUnaligned(as: SIMD16<Float>.self)
            return (v.evenHalf, v.oddHalf)
        }
        let (ar, ai) = load(m)
        let (cr, ci) = load(m + 2 * q)
        let (br, bi) = load(m + q)
        let (dr, di) = load(m + 3 * q)
        let a0r = ar + cr
        let a0i = ai + ci
        let a1r = ar - cr
        let a1i = ai - ci
        let b0r = br + dr
        let b0i = bi + di
        let b1r = br - dr
        let b1i = bi - di
        let o0r = a0r + b0r
        let o0i = a0i + b0i
        let o2r = a0r - b0r
        let o2i = a0i - b0i
        let o1r = a1r + b1i
        let o1i = a1i - b1r
        let o3r = a1r - b1i
        let o3i = a1i + b1r
        // Group m + l's four outputs are lane l of o0…o3: a 4 × 8 transpose into eight 4-wide stores.
        let r = transposed(o0r, o1r, o2r, o3r)
        let i = transposed(o0i, o1i, o2i, o3i)
        let zrRaw = UnsafeMutableRawPointer(zr)
        let ziRaw = UnsafeMutableRawPointer(zi)
        func store(_ l: Int, _ re: SIMD4<Float>, _ im: SIMD4<Float>) {
            let offset = quarterReverse[m &+ l] &* 4
            zrRaw.storeBytes(of: re, toByteOffset: offset, as: SIMD4<Float>.self)
            ziRaw.storeBytes(of: im, toByteOffset: offset, as: SIMD4<Float>.self)
        }
        store(0, r.0, i.0)
        store(1, r.1, i.1)
        store(2, r.2, i.2)
        store(3, r.3, i.3)
        store(4, r.4, i.4)
        store(5, r.5, i.5)
        store(6, r.6, i.6)
        store(7, r.7, i.7)
    }

    /// The columns of the 4 × 8 matrix with rows `a`, `b`, `c`, `d`: lane l of each, as eight 4-vectors.
    /// Built from even/odd-half shuffles only, which compile to vector shuffles.
    @inline(__always)
    private static func transposed(
        _ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>, _ d: SIMD8<Float>
    )
        -> (
            SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>,
            SIMD4<Float>
        )
    {
        /// The 4 × 4 transpose of rows w, x, y, z: (w0 x0 y0 z0), (w1 x1 y1 z1), (w2 …), (w3 …).
        func transpose4(
            _ w: SIMD4<Float>, _ x: SIMD4<Float>, _ y: SIMD4<Float>, _ z: SIMD4<Float>
        )
            -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
        {
            let wx = SIMD8(lowHalf: w, highHalf: x)
            let yz = SIMD8(lowHalf: y, highHalf: z)
            let even = SIMD8(lowHalf: wx.evenHalf, highHalf: yz.evenHalf)  // w0 w2 x0 x2 y0 y2 z0 z2
            let odd = SIMD8(lowHalf: wx.oddHalf, highHalf: yz.oddHalf)  // w1 w3 x1 x3 y1 y3 z1 z3
            return (even.evenHalf, odd.evenHalf, even.oddHalf, odd.oddHalf)
        }
        let low = transpose4(a.lowHalf, b.lowHalf, c.lowHalf, d.lowHalf)
        let high = transpose4(a.highHalf, b.highHalf, c.highHalf, d.highHalf)
        return (low.0, low.1, low.2, low.3, high.0, high.1, high.2, high.3)
    }

    /// Two radix-2 stages at once, lengths 2h and 4h, on the four quarters a, b, c, d (h apart) of a
    /// 4h-long group: a, b and c, d combine with the first stage's twiddles (`wr`, `wi`, then the next
    /// stage's follow h later), then a, c and b, d with the second's. The operations, and so the
    /// results, are exactly those of two ``butterflies(_:_:_:_:_:_:_:)`` passes.
    @inline(__always)
    private static func twoStages<V: SIMD>(
        _: V.Type, _ ar: UnsafeMutablePointer<Float>, _ ai: UnsafeMutablePointer<Float>,
        _ h: Int, _ wr: UnsafePointer<Float>, _ wi: UnsafePointer<Float>
    ) where V.Scalar == Float {
        let w1r: V = load(wr)
        let w1i: V = load(wi)
        let (a1r, a1i, b1r, b1i) = butterfly(load(ar), load(ai), load(ar + h), load(ai + h), w1r, w1i)
        let (c1r, c1i, d1r, d1i) = butterfly(
            load(ar + 2 * h), load(ai + 2 * h), load(ar + 3 * h), load(ai + 3 * h), w1r, w1i)
        // The second stage's twiddles: j (for a, c) and j + h (for b, d), after this stage's h.
        let (a2r, a2i, c2r, c2i) = butterfly(a1r, a1i, c1r, c1i, load(wr + h), load(wi + h))
        let (b2r, b2i, d2r, d2i) = butterfly(b1r, b1i, d1r, d1i, load(wr + 2 * h), load(wi + 2 * h))
        store(a2r, ar)
        store(a2i, ai)
        store(b2r, ar + h)
        store(b2i, ai + h)
        store(c2r, ar + 2 * h)
        store(c2i, ai + 2 * h)
        store(d2r, ar + 3 * h)
        store(d2i, ai + 3 * h)
    }

    /// `V.scalarCount` radix-2 butterflies: b ← a − w·b, a ← a + w·b, on split real and imaginary parts.
    @inline(__always)
    private static func butterflies<V: SIMD>(
        _: V.Type, _ ar: UnsafeMutablePointer<Float>, _ ai: UnsafeMutablePointer<Float>,
        _ br: UnsafeMutablePointer<Float>, _ bi: UnsafeMutablePointer<Float>,
        _ wr: UnsafePointer<Float>, _ wi: UnsafePointer<Float>
    ) where V.Scalar == Float {
        let xr: V = load(br)
        let xi: V = load(bi)
        let cr: V = load(wr)
        let ci: V = load(wi)
        let (sumR, sumI, differenceR, differenceI) = butterfly(load(ar), load(ai), xr, xi, cr, ci)
        store(differenceR, br)
        store(differenceI, bi)
        store(sumR, ar)
        store(sumI, ai)
    }

    /// One radix-2 butterfly on values: (yr + i yi) ± (xr + i xi)(cr + i ci), as (sum, difference).
    @inline(__always)
    private static func butterfly<V: SIMD>(_ yr: V, _ yi: V, _ xr: V, _ xi: V, _ cr: V, _ ci: V) -> (V, V, V, V)
    where V.Scalar == Float {
        let tr = xr * cr - xi * ci
        let ti = xr * ci + xi * cr
        return (yr + tr, yi + ti, yr - tr, yi - ti)
    }

    @inline(__always)
    private static func load<V: SIMD>(_ p: UnsafePointer<Float>) -> V where V.Scalar == Float {
        UnsafeRawPointer(p).loadUnaligned(as: V.self)
    }

    @inline(__always)
    private static func store<V: SIMD>(_ v: V, _ p: UnsafeMutablePointer<Float>) where V.Scalar == Float {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self)
    }
}

import Foundation

/// Forward FFT of a real signal whose length is a power of two, through a complex FFT of half the
/// length. Buffers are allocated once in `init`; ``transform(_:)`` allocates nothing.
///
/// - Complexity: O(n log n) per transform.
public struct RealFFT: Sendable {
    /// Length of the real input.
    public let size: Int
    private let half: Int
    private let stageCos: [Float]   // twiddles of the half-size complex FFT, stage by stage from length 8
    private let stageSin: [Float]
    private let splitCos: [Float]   // twiddles for the real split, k = 0..<half
    private let splitSin: [Float]
    private let bitReverse: [Int]
    private var zr: [Float]
    private var zi: [Float]
    /// Real and imaginary parts of bins 0 ... size/2 after ``transform(_:)``.
    public private(set) var real: [Float]
    public private(set) var imaginary: [Float]

    public init(size: Int) {
        precondition(size >= 4 && size & (size - 1) == 0, "FFT size must be a power of two, at least 4")
        self.size = size
        half = size / 2
        var sc: [Float] = [], ss: [Float] = []
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
        let bits = (size / 2).trailingZeroBitCount
        bitReverse = (0..<size / 2).map { i in
            var r = 0
            for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
            return r
        }
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
                bitReverse.withUnsafeBufferPointer { rev in
                    for i in 0..<n {
                        zr[rev[i]] = input[2 * i]
                        zi[rev[i]] = input[2 * i + 1]
                    }
                }
                // Lengths 2 and 4 together: their twiddles are 1 and -i, so no multiplications.
                var start = 0
                while start + 3 < n {
                    let a0r = zr[start] + zr[start + 1], a0i = zi[start] + zi[start + 1]
                    let a1r = zr[start] - zr[start + 1], a1i = zi[start] - zi[start + 1]
                    let b0r = zr[start + 2] + zr[start + 3], b0i = zi[start + 2] + zi[start + 3]
                    let b1r = zr[start + 2] - zr[start + 3], b1i = zi[start + 2] - zi[start + 3]
                    zr[start] = a0r + b0r; zi[start] = a0i + b0i
                    zr[start + 2] = a0r - b0r; zi[start + 2] = a0i - b0i
                    // (b1r + i b1i)(-i) = b1i - i b1r
                    zr[start + 1] = a1r + b1i; zi[start + 1] = a1i - b1r
                    zr[start + 3] = a1r - b1i; zi[start + 3] = a1i + b1r
                    start += 4
                }
                if n == 2 {
                    let ar = zr[0], ai = zi[0]
                    zr[0] = ar + zr[1]; zi[0] = ai + zi[1]
                    zr[1] = ar - zr[1]; zi[1] = ai - zi[1]
                }
                // Longer stages: each stage's twiddles lie contiguously, so the inner loop runs over
                // consecutive memory only (and vectorises).
                stageCos.withUnsafeBufferPointer { ct in
                    stageSin.withUnsafeBufferPointer { st in
                        guard let zrp = zr.baseAddress, let zip = zi.baseAddress,
                              let cp = ct.baseAddress, let sp = st.baseAddress else { return }
                        var len = 8
                        var offset = 0
                        while len <= n {
                            let halfLen = len / 2
                            var start = 0
                            while start < n {
                                let ar = zrp + start, ai = zip + start
                                let br = ar + halfLen, bi = ai + halfLen
                                let wr = cp + offset, wi = sp + offset
                                for j in 0..<halfLen {
                                    let tr = br[j] * wr[j] - bi[j] * wi[j]
                                    let ti = br[j] * wi[j] + bi[j] * wr[j]
                                    br[j] = ar[j] - tr; bi[j] = ai[j] - ti
                                    ar[j] += tr; ai[j] += ti
                                }
                                start += len
                            }
                            offset += halfLen
                            len *= 2
                        }
                    }
                }
                real.withUnsafeMutableBufferPointer { xr in
                    imaginary.withUnsafeMutableBufferPointer { xi in
                        splitCos.withUnsafeBufferPointer { sc in
                            splitSin.withUnsafeBufferPointer { ss in
                                xr[0] = zr[0] + zi[0]; xi[0] = 0
                                xr[n] = zr[0] - zi[0]; xi[n] = 0
                                for k in 1..<n {
                                    let ar = zr[k], ai = zi[k]
                                    let br = zr[n - k], bi = -zi[n - k]   // conj(Z[n-k])
                                    let er = (ar + br) / 2, ei = (ai + bi) / 2
                                    // (Z[k] - conj(Z[n-k])) / 2i
                                    let or = (ai - bi) / 2, oi = -(ar - br) / 2
                                    let wr = sc[k], wi = ss[k]
                                    xr[k] = er + or * wr - oi * wi
                                    xi[k] = ei + or * wi + oi * wr
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

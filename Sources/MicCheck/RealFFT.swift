import Foundation

/// Forward FFT of a real signal whose length is a power of two, through a complex FFT of half the
/// length. Buffers are allocated once in `init`; ``transform(_:)`` allocates nothing.
///
/// - Complexity: O(n log n) per transform.
public struct RealFFT: Sendable {
    /// Length of the real input.
    public let size: Int
    private let half: Int
    private let cosTable: [Float]   // twiddles for the half-size complex FFT
    private let sinTable: [Float]
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
        cosTable = (0..<half / 2).map { Float(cos(-2 * Double.pi * Double($0) / Double(size / 2))) }
        sinTable = (0..<half / 2).map { Float(sin(-2 * Double.pi * Double($0) / Double(size / 2))) }
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
                cosTable.withUnsafeBufferPointer { ct in
                    sinTable.withUnsafeBufferPointer { st in
                        var len = 2
                        while len <= n {
                            let halfLen = len / 2
                            let stride = n / len
                            var start = 0
                            while start < n {
                                for j in 0..<halfLen {
                                    let wr = ct[j * stride], wi = st[j * stride]
                                    let a = start + j, b = a + halfLen
                                    let tr = zr[b] * wr - zi[b] * wi
                                    let ti = zr[b] * wi + zi[b] * wr
                                    zr[b] = zr[a] - tr; zi[b] = zi[a] - ti
                                    zr[a] += tr; zi[a] += ti
                                }
                                start += len
                            }
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

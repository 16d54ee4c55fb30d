import Foundation
import MicCheck
import Testing

@Suite("Real FFT")
struct RealFFTTests {
    @Test(
        "matches a direct DFT on random input at every size the code path distinguishes",
        arguments: [4, 8, 16, 32, 64, 128, 256, 512, 1024])
    func matchesDFT(size: Int) {
        var rng = SystemRandomNumberGenerator()
        let x = (0..<size).map { _ in Float.random(in: -1...1, using: &rng) }
        var fft = RealFFT(size: size)
        x.withUnsafeBufferPointer { fft.transform($0) }
        var worst = 0.0
        for k in 0...(size / 2) {
            var re = 0.0
            var im = 0.0
            for (i, v) in x.enumerated() {
                let a = -2 * Double.pi * Double(k * i) / Double(size)
                re += Double(v) * cos(a)
                im += Double(v) * sin(a)
            }
            worst = max(worst, abs(re - Double(fft.real[k])), abs(im - Double(fft.imaginary[k])))
        }
        #expect(worst < 1e-4 * Double(size), "largest error \(worst)")
    }

    @Test("a sine lands in its bin with amplitude n/2")
    func sine() {
        let n = 512
        let bin = 37
        let x = (0..<n).map { Float(sin(2 * Double.pi * Double(bin * $0) / Double(n))) }
        var fft = RealFFT(size: n)
        x.withUnsafeBufferPointer { fft.transform($0) }
        let mags = (0...(n / 2)).map { hypot(fft.real[$0], fft.imaginary[$0]) }
        #expect(abs(mags[bin] - Float(n / 2)) < 0.01)
        #expect(mags.enumerated().filter { $0.offset != bin }.allSatisfy { $0.element < 0.01 })
    }
}

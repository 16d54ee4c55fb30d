/// Calls `body` with consecutive blocks of `samples`, their sizes taken from `sizes` in turn (cycled):
/// for tests that a stream's result does not depend on how its input is split.
public func forEachBlock(of samples: [Float], sizes: [Int], _ body: (UnsafeBufferPointer<Float>) -> Void) {
    precondition(!sizes.isEmpty && sizes.allSatisfy { $0 > 0 }, "block sizes must be positive")
    samples.withUnsafeBufferPointer { all in
        var start = 0
        var k = 0
        while start < all.count {
            let end = min(all.count, start + sizes[k % sizes.count])
            body(UnsafeBufferPointer(rebasing: all[start..<end]))
            start = end
            k += 1
        }
    }
}

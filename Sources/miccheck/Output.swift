import Foundation

/// Buffered writer for standard output: records are written in large blocks, or line by line when
/// `flushEachLine` is set (live use).
final class OutputWriter {
    private var buffer: [UInt8] = []
    var flushEachLine = false
    /// Whether a write failed (the reader went away): live commands stop then.
    private(set) var failed = false

    init() { buffer.reserveCapacity(1 << 16) }

    func line(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        buffer.append(10)
        if flushEachLine || buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `s` as it is (no newline) and flushes: for redrawing a line in place.
    func raw(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        flush()
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(1, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if n <= 0 { failed = true; break }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}


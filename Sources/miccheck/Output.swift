import Foundation
import MicCheck
import MicCheckTerminal

/// Buffered writer for standard output: records are written in large blocks, or line by line when
/// `flushEachLine` is set (live use).
final class OutputWriter {
    private var buffer: [UInt8] = []
    var flushEachLine = false
    /// Whether a write failed (the reader went away, a full disk): live commands stop then.
    var failed: Bool { failure != nil }
    /// Why the last write failed: the system's reason, and whether the reader went away (EPIPE).
    private(set) var failure: (reason: String, closed: Bool)?

    init(flushEachLine: Bool = false) {
        self.flushEachLine = flushEachLine
        buffer.reserveCapacity(1 << 16)
    }

    func line(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        endLine()
    }

    /// Writes a frame record's line (JSON Lines), straight into the buffer.
    func frame(_ f: AnalysisFrame, precise: Bool = false) {
        if precise { JSONLines.appendPreciseFrame(f, to: &buffer) } else { JSONLines.appendFrame(f, to: &buffer) }
        endLine()
    }

    /// Ends the record just written: a newline, then a flush when live or when the buffer is full.
    private func endLine() {
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
        if failure == nil, let code = buffer.withUnsafeBytes({ writeAll(1, $0) }) {
            failure = (systemReason(code), code == EPIPE)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes; when standard output could not be written for another reason than a reader that went
    /// away (a redirect to a full disk), says so and ends with status 1.
    func finish() throws {
        flush()
        if let failure, !failure.closed {
            throw CommandFailure(
                message: "miccheck: the output cannot be written (\(failure.reason)).",
                status: ExitStatus.runtimeFailure)
        }
    }

    deinit { flush() }
}

extension OutputWriter: ReportOutput {
    func write(frame: AnalysisFrame) { self.frame(frame) }
    func message(_ s: String) { printError(s) }
}

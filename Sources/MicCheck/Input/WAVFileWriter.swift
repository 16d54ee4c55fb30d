import Foundation
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Writes mono 16-bit PCM WAV files, streamed: samples are written as they come, and the sizes in the
/// header are filled in by ``finish()``.
///
/// Samples are clipped to [-1, 1] and rounded to the nearest 16-bit step.
public final class WAVFileWriter {
    /// Why a file could not be written.
    public struct WriteError: Error, CustomStringConvertible, Sendable {
        public let path: String
        public let reason: String
        public var description: String { "\(path): cannot be written (\(reason))" }
    }

    public let path: String
    public let sampleRate: Int
    /// Samples written so far.
    public private(set) var sampleCount = 0
    private let fd: Int32
    private var bytes: [UInt8]
    private var finished = false

    /// Creates (or truncates) the file at `path`.
    public init(path: String, sampleRate: Int) throws(WriteError) {
        guard sampleRate > 0 else { throw WriteError(path: path, reason: "sample rate must be positive") }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: path, reason: createFailureReason(errno)) }
        self.path = path
        self.sampleRate = sampleRate
        self.fd = fd
        bytes = []
        bytes.reserveCapacity(8_192)
        try write(Self.header(sampleRate: sampleRate, sampleCount: 0))
    }

    deinit { if !finished { close(fd) } }

    /// The 44-byte header of a mono 16-bit PCM file holding `sampleCount` samples.
    public static func header(sampleRate: Int, sampleCount: Int) -> [UInt8] {
        let dataBytes = UInt32(clamping: sampleCount * 2)
        var h: [UInt8] = Array("RIFF".utf8) + le32(dataBytes &+ 36) + Array("WAVEfmt ".utf8)
        h += le32(16) + le16(1) + le16(1) + le32(UInt32(sampleRate)) + le32(UInt32(sampleRate * 2)) + le16(2) + le16(16)
        h += Array("data".utf8) + le32(dataBytes)
        return h
    }

    /// Appends samples.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(WriteError) {
        bytes.removeAll(keepingCapacity: true)
        for s in samples {
            let clipped = s.isNaN ? 0 : min(1, max(-1, s))
            let v = Int16((clipped * 32_767).rounded())
            bytes.append(UInt8(truncatingIfNeeded: v))
            bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        }
        try write(bytes)
        sampleCount += samples.count
    }

    /// Fills in the header's sizes and closes the file. Call once; later calls do nothing.
    public func finish() throws(WriteError) {
        guard !finished else { return }
        finished = true
        defer { close(fd) }
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        try write(Self.header(sampleRate: sampleRate, sampleCount: sampleCount))
        // The data reaches the disk, or the error (a full disk on a network file system) is reported here.
        guard fsync(fd) == 0 || errno == EINVAL else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Writes all of `data`, or throws the system's reason (a full disk, a file size limit).
    private func write(_ data: [UInt8]) throws(WriteError) {
        if let reason = data.withUnsafeBytes({ writeAll(fd, $0) }) { throw WriteError(path: path, reason: reason) }
    }


    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xFF) } }
}

/// Writes all of `bytes` to `fd`, through short writes and interruptions; returns the system's reason
/// when it cannot (a full disk, a file size limit), or nil.
package func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> String? {
    var done = 0
    while done < bytes.count {
        let n = systemWrite(fd, bytes.baseAddress.map { $0 + done }, bytes.count - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return String(cString: strerror(errno)) }
        done += n
    }
    return nil
}

/// Why a file could not be created, from `open(2)`'s errno, in the words MicCheck's errors use.
package func createFailureReason(_ errno: Int32) -> String {
    switch errno {
    case ENOENT: "no such folder"
    case EISDIR: "it is a directory"
    case EACCES, EPERM: "permission denied"
    default: String(cString: strerror(errno))
    }
}

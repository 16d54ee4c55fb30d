import Foundation

/// Writes mono 16-bit PCM WAV files, streamed: samples are written as they come, and the sizes in the
/// header are filled in by ``finish()``.
///
/// Samples are clipped to [-1, 1] and rounded to the nearest 16-bit step.
public final class WAVFileWriter {
    /// Why a file could not be written.
    public struct WriteError: Error, CustomStringConvertible, Sendable {
        /// The file that could not be written.
        public let path: String
        /// The system's reason ("No space left on device").
        public let reason: String
        /// "PATH: cannot be written (REASON)".
        public var description: String { "\(path): cannot be written (\(reason))" }
    }

    /// The file being written.
    public let path: String
    /// Its sample rate (Hz).
    public let sampleRate: Int
    /// Samples written so far.
    public private(set) var sampleCount = 0
    private let handle: FileHandle
    private var bytes: [UInt8]
    private var finished = false

    /// Creates (or truncates) the file at `path`.
    public init(path: String, sampleRate: Int) throws(WriteError) {
        guard sampleRate > 0 else { throw WriteError(path: path, reason: "sample rate must be positive") }
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw WriteError(path: path, reason: Self.reasonForCreate(path))
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw WriteError(path: path, reason: "cannot open it for writing")
        }
        self.path = path
        self.sampleRate = sampleRate
        self.handle = handle
        bytes = []
        bytes.reserveCapacity(8_192)
        try write(Self.header(sampleRate: sampleRate, sampleCount: 0))
    }

    deinit { try? handle.close() }

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
        do {
            defer { try? handle.close() }
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: Self.header(sampleRate: sampleRate, sampleCount: sampleCount))
            // The data reaches the disk, or the error (a full disk on a network file system) is reported here.
            try handle.synchronize()
        } catch {
            throw WriteError(path: path, reason: Self.reason(error))
        }
    }

    /// Writes all of `data`, or throws the system's reason (a full disk, a file size limit).
    private func write(_ data: [UInt8]) throws(WriteError) {
        do { try handle.write(contentsOf: data) } catch {
            throw WriteError(path: path, reason: Self.reason(error))
        }
    }

    /// The operating system's own words for a failed write ("No space left on device", "File too large"),
    /// which Foundation keeps as the underlying error.
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        return (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription ?? error.localizedDescription
    }

    private static func reasonForCreate(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            return "no such folder"
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a directory"
        }
        return "permission denied"
    }

    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xFF) } }
}

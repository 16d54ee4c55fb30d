import Foundation

/// A sequential stream of bytes: a file, or memory in tests.
public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes; returns how many were read, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(AudioInputError) -> Int
}

extension ByteSource {
    /// Reads until `buffer` is full or the stream ends; returns how many bytes were read.
    func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(AudioInputError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// Reads until `bytes[range]` (all of `bytes` when nil) is full or the stream ends; returns how many bytes
    /// were read.
    func readFully(into bytes: inout [UInt8], _ range: Range<Int>? = nil) throws(AudioInputError) -> Int {
        let result = bytes.withUnsafeMutableBytes { raw in
            Result { () throws(AudioInputError) in
                try readFully(into: UnsafeMutableRawBufferPointer(rebasing: raw[range ?? 0..<raw.count]))
            }
        }
        return try result.get()
    }

    /// Skips `count` bytes; returns how many were skipped (fewer at the end of the stream).
    func skip(_ count: Int) throws(AudioInputError) -> Int {
        var scratch = [UInt8](repeating: 0, count: Swift.min(count, 65_536))
        var skipped = 0
        while skipped < count {
            let want = Swift.min(scratch.count, count - skipped)
            let n = try readFully(into: &scratch, 0..<want)
            if n == 0 { break }
            skipped += n
        }
        return skipped
    }
}

/// Bytes held in memory.
public final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    /// Bytes to read from the start.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Copies up to `buffer.count` of the bytes not read yet; returns how many, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let n = min(buffer.count, bytes.count - position)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { src in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[position..<position + n]))
        }
        position += n
        return n
    }
}

/// Bytes read from a file, block by block; the file is never loaded whole. Opened and read through the C
/// library's `open` and `read` (which Foundation brings on every platform it runs on), so that each failure
/// is the system's own reason, not a Foundation error's text.
public final class FileByteSource: ByteSource {
    private let fd: Int32

    /// Opens `path` for reading (close-on-exec: a child process never inherits it).
    /// - Throws: ``AudioInputError/noSuchFile``, ``AudioInputError/permissionDenied``,
    ///   ``AudioInputError/notAFile(_:)`` for a directory, or ``AudioInputError/readFailed(_:)`` with the
    ///   system's reason.
    public init(path: String) throws(AudioInputError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw .noSuchFile
            case EACCES, EPERM: throw .permissionDenied
            case EISDIR: throw .notAFile("a directory")
            default: throw .readFailed(String(cString: strerror(code)))
            }
        }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw .notAFile("a directory")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Reads up to `buffer.count` bytes from the file (again when interrupted); returns how many, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(AudioInputError) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        while true {
            let n = Foundation.read(fd, base, buffer.count)
            if n >= 0 { return n }
            let code = errno
            if code != EINTR { throw .readFailed(String(cString: strerror(code))) }
        }
    }
}

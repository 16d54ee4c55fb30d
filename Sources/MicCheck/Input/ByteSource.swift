import Foundation

/// A sequential stream of bytes: a file, or memory in tests.
public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes; returns how many were read, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension ByteSource {
    /// Reads until `buffer` is full or the stream ends; returns how many bytes were read.
    func readFully(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// Skips `count` bytes; returns how many were skipped (fewer at the end of the stream).
    func skip(_ count: Int) throws -> Int {
        var scratch = [UInt8](repeating: 0, count: Swift.min(count, 65_536))
        var skipped = 0
        while skipped < count {
            let want = Swift.min(scratch.count, count - skipped)
            let n = try scratch.withUnsafeMutableBytes { raw throws in
                try readFully(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<want]))
            }
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

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - position)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { src in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[position..<position + n]))
        }
        position += n
        return n
    }
}

/// Bytes read from a file, block by block; the file is never loaded whole.
public final class FileByteSource: ByteSource {
    private let handle: FileHandle

    /// Opens `path` for reading.
    /// - Throws: `AudioInputError.readFailed` when the file cannot be opened.
    public init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw AudioInputError.readFailed("the file cannot be opened")
        }
        self.handle = handle
    }

    deinit { try? handle.close() }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let data: Data?
        do {
            data = try handle.read(upToCount: buffer.count)
        } catch {
            throw AudioInputError.readFailed(String(describing: error))
        }
        guard let data, !data.isEmpty else { return 0 }
        data.withUnsafeBytes { buffer.copyMemory(from: $0) }
        return data.count
    }
}

import Foundation
import MicCheck
import MicCheckLive

/// Why one input could not be analysed, with the exit status it maps to.
struct InputFailure: Error {
    var file: String
    var message: String
    var status: Int32

    init(file: String, message: String, status: Int32) {
        self.file = file
        self.message = message
        self.status = status
    }

    /// A source's failure; its message names the file.
    init(_ error: AudioSourceError) {
        self.init(file: "", message: error.message, status: sourceFailure(error).status)
    }

    /// The one sentence printed on stderr.
    var sentence: String { file.isEmpty ? "miccheck: \(message)." : "miccheck: \(file): \(message)." }
}

/// Opens `path` as a WAV reader, mapping every way it can fail onto one sentence (the library's) and a status.
func openWAV(_ path: String) -> Result<WAVReader, InputFailure> {
    Result { () throws(AudioFileError) in try WAVReader(path: path) }.mapError { InputFailure(WAVFileSource.error($0)) }
}

/// A reader's error on `path` as one sentence and a status (the mapping every WAV source uses).
func failure(_ path: String, _ error: AudioInputError) -> InputFailure {
    InputFailure(WAVFileSource.error(error, name: path))
}

/// Writes to stderr, unbuffered.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Whether stderr is a terminal (progress is shown only then).
var stderrIsTerminal: Bool { isatty(2) == 1 }

/// The bundled sample, read as fast as possible.
func openSample() -> Result<WAVFileSource, InputFailure> {
    Result { () throws(AudioSourceError) in try BundledSample.source(pacing: .asFastAsPossible) }.mapError(
        InputFailure.init)
}

/// What is at `path`, in words, when it is not a regular file ("a directory", "a FIFO", "a character device"),
/// or nil for a regular file or nothing at all.
func nonRegularKind(_ path: String) -> String? {
    var s = stat()
    guard stat(path, &s) == 0 else { return nil }
    switch s.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "a directory"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    default: return "not a regular file"
    }
}

/// Why `path` cannot be an output file that is written beside it and renamed into place (`process --out`,
/// `analyze --plot`), or nil when it can be tried: its folder is missing or is not a folder, or the path is a
/// directory or anything but a regular file (a device or a FIFO would be replaced by the rename).
func outputProblem(_ path: String) -> String? {
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else { return "no such folder" }
        guard isDirectory.boolValue else { return "\(folder) is not a folder" }
        guard access(folder, W_OK) == 0 else { return "its folder cannot be written: \(systemReason(errno))" }
    }
    if let kind = nonRegularKind(path) { return "it is \(kind), not a regular file" }
    return nil
}

/// A small file read whole (a call description, a voice model), at most `limit` bytes, or why not: missing,
/// a directory, unreadable (66), or larger than `limit` (65: `/dev/zero` is refused rather than read forever).
func readSmallFile(_ path: String, limit: Int, what: String) -> Result<Data, InputFailure> {
    if let missing = missingOrDirectory(path, what: what) { return .failure(missing) }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
        return .failure(
            InputFailure(file: path, message: "cannot be read (\(systemReason(errno)))", status: ExitStatus.noInput))
    }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    var data = Data()
    do {
        while data.count <= limit, let chunk = try handle.read(upToCount: 65_536), !chunk.isEmpty { data.append(chunk) }
    } catch {
        return .failure(
            InputFailure(
                file: path, message: "cannot be read (\(error.localizedDescription))", status: ExitStatus.noInput))
    }
    guard data.count <= limit else {
        return .failure(
            InputFailure(
                file: path, message: "is larger than \(limit / 1_048_576) MiB, too large for \(what)",
                status: ExitStatus.dataError))
    }
    return .success(data)
}

/// Where an output file is written before it is renamed into place: beside it, hidden, named after this
/// process, so that an interrupted run leaves no half-written file under the name the user gave.
func partialPath(for path: String) -> String {
    let url = URL(fileURLWithPath: path)
    return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial").path
}

/// Writes `data` to `path` through ``partialPath(for:)`` and a rename; returns why it failed (a full disk,
/// a file size limit, no permission), with nothing left behind, or nil.
func writeReplacing(_ path: String, _ data: Data) -> String? {
    let temporary = partialPath(for: path)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return createFailureReason(errno) }
    var failure = data.withUnsafeBytes { writeAll(fd, $0) }.map(systemReason)
    if failure == nil, fsync(fd) != 0, errno != EINVAL { failure = systemReason(errno) }
    close(fd)
    if failure == nil, rename(temporary, path) != 0 { failure = systemReason(errno) }
    if failure != nil { unlink(temporary) }
    return failure
}

/// Writes all of `bytes` to `fd`, through short writes and interruptions; returns the errno when it cannot
/// (ENOSPC: a full disk, EFBIG: a file size limit, EPIPE: the reader went away), or nil.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var done = 0
    while done < bytes.count {
        let n = write(fd, bytes.baseAddress.map { $0 + done }, bytes.count - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return n == 0 ? EIO : errno }
        done += n
    }
    return nil
}

/// The system's sentence for an errno ("No space left on device").
func systemReason(_ code: Int32) -> String { String(cString: strerror(code)) }

/// Why a file could not be created, from `open(2)`'s errno, in the words MicCheck's errors use.
func createFailureReason(_ errno: Int32) -> String {
    switch errno {
    case ENOENT: "no such folder"
    case EISDIR: "it is a directory"
    case EACCES, EPERM: "permission denied"
    default: systemReason(errno)
    }
}

/// An input that is not there, or is a directory rather than `what` ("an audio file"): 66 with its sentence.
func missingOrDirectory(_ path: String, what: String) -> InputFailure? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        return InputFailure(file: path, message: "no such file", status: ExitStatus.noInput)
    }
    return isDirectory.boolValue
        ? InputFailure(file: path, message: "is a directory, not \(what)", status: ExitStatus.noInput) : nil
}

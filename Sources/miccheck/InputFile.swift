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
        let (_, status) = sourceFailure(error)
        self.init(file: "", message: error.message, status: status)
    }

    /// The one sentence printed on stderr.
    var sentence: String { file.isEmpty ? "miccheck: \(message)." : "miccheck: \(file): \(message)." }
}

/// Opens `path` as a WAV reader, mapping every way it can fail onto one sentence and a status.
func openWAV(_ path: String) -> Result<WAVReader, InputFailure> {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        return .failure(InputFailure(file: path, message: "no such file", status: ExitStatus.noInput))
    }
    if isDirectory.boolValue {
        return .failure(InputFailure(file: path, message: "is a directory, not an audio file", status: ExitStatus.noInput))
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
        return .failure(InputFailure(file: path, message: "cannot be read (permission denied)", status: ExitStatus.noInput))
    }
    do {
        return .success(try WAVReader(path: path))
    } catch {
        return .failure(failure(path, error))
    }
}

/// A reader's error on `path` as one sentence and a status (the mapping every WAV source uses).
func failure(_ path: String, _ error: any Error) -> InputFailure {
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
    Result { () throws(AudioSourceError) in try BundledSample.source(pacing: .asFastAsPossible) }.mapError(InputFailure.init)
}

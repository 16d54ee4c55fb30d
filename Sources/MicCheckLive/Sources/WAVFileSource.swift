import Dispatch
public import MicCheck
import Synchronization

/// A WAV file (or any `WAVReader`) as an audio source: played in real time, 10 ms at a time as a
/// microphone delivers it, or read as fast as the reader can go (for analysing recordings).
public final class WAVFileSource: AudioSource, @unchecked Sendable {
    // @unchecked Sendable: `reader`, `delivered` and `started` are used only by the reading thread (the
    // AudioSource contract); `stopping` is an `Atomic` and `wake` a semaphore, which is all `stop()` touches.
    /// How fast the file is delivered.
    public enum Pacing: Sendable, Equatable {
        /// 10 ms blocks at the pace of the audio, as a microphone would deliver them.
        case realTime
        /// Blocks of `WAVReader.blockFrames` as fast as they are read.
        case asFastAsPossible
    }

    private var reader: WAVReader
    private let name: String
    private let pacing: Pacing
    private let reopen: (@Sendable () -> WAVReader?)?
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private var delivered = 0
    private var started: DispatchTime?
    /// The file's rate (Hz).
    public let sampleRate: Int
    /// What the user is listening to (the file's name unless given).
    public let label: String
    /// Always 0: a file waits for its reader, so nothing is dropped.
    public var droppedSamples: Int { 0 }
    /// The file's format.
    public let format: AudioFormat
    /// The length in frames that the file's header declares, if it does.
    public let declaredFrameCount: Int?

    /// - Parameters:
    ///   - name: the file as errors name it.
    ///   - label: what the user is listening to (default: `name`).
    ///   - reopen: makes a fresh reader of the same audio when one ends, to play it over and over
    ///     (nil: play once). A reader at another rate ends the source.
    public init(
        reader: WAVReader, name: String, label: String? = nil, pacing: Pacing,
        reopen: (@Sendable () -> WAVReader?)? = nil
    ) {
        self.reader = reader
        self.name = name
        self.label = label ?? name
        self.pacing = pacing
        self.reopen = reopen
        sampleRate = reader.format.sampleRate
        format = reader.format
        declaredFrameCount = reader.declaredFrameCount
    }

    /// Opens the WAV file at `path`.
    public convenience init(path: String, pacing: Pacing) throws(AudioSourceError) {
        do {
            self.init(reader: try WAVReader(path: path), name: path, pacing: pacing)
        } catch {
            throw Self.error(error)
        }
    }

    /// Makes the current or next read return `AudioRead.stopped`; callable from any thread.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Copies the next block into `buffer`: in real time a 10 ms block once it is due (`idle` when `timeout`
    /// passes first), otherwise as much as fits; `ended` at the end of the file (unless it is reopened).
    public func read(
        into buffer: UnsafeMutableBufferPointer<Float>, timeout: Duration
    ) throws(AudioSourceError) -> AudioRead {
        if stopping.load(ordering: .acquiring) { return .stopped }
        var wanted = buffer.count
        if pacing == .realTime {
            let start = started ?? .now()
            started = start
            let block = sampleRate / LevelMeter.framesPerSecond
            let due = start + Double(delivered + block) / Double(sampleRate)
            let deadline = DispatchTime.now() + timeout.seconds
            if due > .now() {
                _ = wake.wait(timeout: min(due, deadline))
                if stopping.load(ordering: .acquiring) { return .stopped }
                if due > .now() { return .idle }
            }
            wanted = min(block, buffer.count)
        }
        let slice = UnsafeMutableBufferPointer(rebasing: buffer[0..<wanted])
        do {
            var n = try reader.read(into: slice)
            if n == 0, let next = reopen?(), next.format.sampleRate == sampleRate {
                reader = next
                n = try reader.read(into: slice)
            }
            if n == 0 { return .ended }
            delivered += n
            return .samples(n)
        } catch {
            throw Self.error(error, name: name)
        }
    }

    /// A file whose data chunk was cut short: how much of it was there. Read after the last read.
    public var closingNote: String? { reader.cutShortNote(name: name) }

    /// A reader's error as a source error naming the file: unreadable when the file cannot be opened or read
    /// (missing, a directory, no permission, an I/O error), bad data otherwise. Its message is the
    /// reader's sentence.
    public static func error(_ error: AudioInputError, name: String) -> AudioSourceError {
        Self.error(AudioFileError(path: name, problem: error))
    }

    /// A file's error as a source error (see ``error(_:name:)``).
    public static func error(_ error: AudioFileError) -> AudioSourceError {
        switch error.problem {
        case .noSuchFile, .notAFile, .permissionDenied, .readFailed:
            AudioSourceError(.unreadable, error.description)
        default:
            AudioSourceError(.badData, error.description)
        }
    }
}

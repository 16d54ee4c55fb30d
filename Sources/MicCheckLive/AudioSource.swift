public import MicCheck

/// What one read of an ``AudioSource`` brought.
public enum AudioRead: Sendable, Equatable {
    /// This many mono samples, at the source's current ``AudioSource/sampleRate``, are at the start of
    /// the buffer; they follow the previous ones without a gap.
    case samples(Int)
    /// Nothing arrived within the timeout.
    case idle
    /// A new stream began, perhaps at another rate and after a gap (a reconnected server, a source
    /// that came back): the samples after this start a new stretch of time.
    case restarted
    /// Stopped on request (``AudioSource/stop()``).
    case stopped
    /// The source has nothing more (a file is over, a fed source was ended).
    case ended
}

/// Why a source cannot deliver audio, as one sentence and a kind a program can act on.
public struct AudioSourceError: MicCheckError, Sendable, Equatable {
    /// What went wrong, for a program to act on (an exit status, a retry, another source).
    public enum Kind: Sendable, Equatable {
        /// No audio server to talk to.
        case noServer
        /// The system refused to record (permission).
        case accessDenied
        /// The named device does not exist.
        case noSuchSource
        /// The server went away and did not come back in time.
        case connectionLost
        /// The file or path cannot be read (missing, a directory, no permission, an I/O error).
        case unreadable
        /// The audio is malformed or in an unsupported format.
        case badData
        /// Anything else.
        case failed
    }

    /// What went wrong.
    public var kind: Kind
    /// What went wrong, in words, naming the file or device (no leading "miccheck:", no final stop).
    public var message: String

    /// An error of `kind`, said by `message` (naming the file or device, without a final stop).
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

extension AudioSourceError {
    /// An analysis that cannot start on `label`'s audio (a sample rate MicCheck does not analyse): bad data.
    public init(_ error: AnalysisError, label: String) {
        self.init(.badData, "\(label): \(error)")
    }
}

/// A live source of mono samples: a microphone, a file played as a microphone would deliver it, or
/// blocks fed from outside (a network connection).
///
/// One thread reads (``LiveAnalysis`` owns that loop); ``stop()`` may be called from any thread and makes
/// the next or current read return ``AudioRead/stopped``.
public protocol AudioSource: AnyObject, Sendable {
    /// What the user is listening to, for people ("VirtualMic (virtmic)").
    var label: String { get }
    /// The rate of the samples that ``read(into:timeout:)`` delivers now; it may change at ``AudioRead/restarted``.
    var sampleRate: Int { get }
    /// Samples lost because the reader fell behind.
    var droppedSamples: Int { get }
    /// Waits up to `timeout` for samples and copies them into `buffer`.
    func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Duration) throws(AudioSourceError) -> AudioRead
    /// Ends reading, from any thread: the current or next read returns `AudioRead.stopped`.
    func stop()
    /// A line about how the source went, for the end of a run (nil: nothing to say). Read after the last read.
    var closingNote: String? { get }
    /// The source, named as in ``label``, when it is the monitor of an output (what the speakers play)
    /// rather than a microphone.
    var monitorSource: String? { get }
}

extension AudioSource {
    /// Nil: by default a source has nothing to say at the end.
    public var closingNote: String? { nil }
    /// Nil: by default a source is a microphone, not an output's monitor.
    public var monitorSource: String? { nil }
}

extension AudioSource {
    /// Waits up to `timeout` seconds for samples and copies them into `buffer`.
    @available(*, deprecated, message: "Pass a Duration: read(into:timeout: .milliseconds(100))")
    public func read(
        into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double
    ) throws(AudioSourceError) -> AudioRead {
        try read(into: buffer, timeout: .wait(seconds: timeout))
    }
}

public import Logging
import Synchronization

/// Keeps what a library logs through swift-log, so that a test can read it back: hand a ``logger(label:level:)`` to the
/// code under test, then read ``entries``.
public final class LogRecorder: Sendable {
    /// One call to `Logger.log`.
    public struct Entry: Sendable, Equatable {
        /// The level it was logged at.
        public var level: Logger.Level
        /// The message, as text.
        public var message: String
        /// The logger's metadata merged with the call's, each value as text.
        public var metadata: [String: String]

        /// An entry, to compare with what was recorded.
        public init(level: Logger.Level, message: String, metadata: [String: String] = [:]) {
            self.level = level
            self.message = message
            self.metadata = metadata
        }
    }

    private let kept = Mutex<[Entry]>([])

    /// An empty recorder.
    public init() {}

    /// A logger that records everything from `level` up (default: every level).
    public func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in Handler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    /// Everything logged so far, in order.
    public var entries: [Entry] { kept.withLock { $0 } }

    /// The messages logged at `level`, in order.
    public func messages(at level: Logger.Level) -> [String] {
        entries.filter { $0.level == level }.map(\.message)
    }

    fileprivate func record(_ entry: Entry) { kept.withLock { $0.append(entry) } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            recorder.record(
                Entry(
                    level: event.level, message: event.message.description,
                    metadata: merged.mapValues(\.description)))
        }
    }
}

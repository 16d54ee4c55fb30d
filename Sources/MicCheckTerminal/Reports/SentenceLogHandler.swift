import Foundation
public import Logging

/// A swift-log handler for a command-line tool: each message is one line for the person at the terminal,
/// "miccheck: the ducking journal … is damaged; it was set aside as ….corrupt.", on standard error.
///
/// The libraries log sentences (`PulseMicrophone.Notice`, the ducking journal's warnings), so the line is the
/// message with the tool's name before it and a full stop after; metadata, which repeats what the sentence
/// names, is left out.
public struct SentenceLogHandler: LogHandler {
    /// The name put before each message ("miccheck").
    public let prefix: String
    /// The lowest level written (default: info).
    public var logLevel: Logger.Level
    /// Kept for the protocol; not written.
    public var metadata: Logger.Metadata = [:]
    private let write: @Sendable (String) -> Void

    /// Writes a line to standard error.
    public static let standardError: @Sendable (String) -> Void = {
        FileHandle.standardError.write(Data(($0 + "\n").utf8))
    }

    /// A handler that writes each line through `write` (default: standard error).
    public init(
        prefix: String = "miccheck", logLevel: Logger.Level = .info,
        write: @escaping @Sendable (String) -> Void = SentenceLogHandler.standardError
    ) {
        self.prefix = prefix
        self.logLevel = logLevel
        self.write = write
    }

    /// A metadata value of this handler's own.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes "PREFIX: MESSAGE." (no second stop when the message ends with one).
    public func log(event: LogEvent) {
        let message = event.message.description
        write("\(prefix): \(message)\(message.hasSuffix(".") ? "" : ".")")
    }
}

extension Logger {
    /// A logger that writes sentences for the person at the terminal through `SentenceLogHandler`.
    public static func sentences(
        label: String = "miccheck", level: Logger.Level = .info,
        write: @escaping @Sendable (String) -> Void = SentenceLogHandler.standardError
    ) -> Logger {
        Logger(label: label) { _ in SentenceLogHandler(prefix: label, logLevel: level, write: write) }
    }
}

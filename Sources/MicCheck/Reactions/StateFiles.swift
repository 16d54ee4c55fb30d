import Foundation

/// Where MicCheck keeps small state files: `$XDG_STATE_HOME/miccheck` (by default
/// `~/.local/state/miccheck`), following the XDG base directory rules.
public enum StateDirectory {
    /// The folder `name` under MicCheck's state folder, for `environment` (default: this process's).
    /// A relative `XDG_STATE_HOME` is ignored, as the XDG rules ask.
    public static func standard(_ name: String? = nil, environment: [String: String]? = nil) -> String {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/miccheck" + (name.map { "/" + $0 } ?? "")
    }
}

/// Reading and writing one JSON state file.
public enum JSONStateFile {
    /// Writes `value` to `path` atomically (a reader sees the old file or the new one, never a
    /// mixture), creating the folder when needed.
    public static func write<Value: Encodable>(_ value: Value, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(value).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The value in `path`, or nil when there is no such file. A file that does not parse is renamed
    /// to `PATH.corrupt` (never deleted: it may hold something the user wants) and reported through
    /// `warn` as one sentence naming `what` it was.
    public static func read<Value: Decodable>(_ type: Value.Type, from path: String, what: String,
                                              warn: (String) -> Void) -> Value? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            let aside = path + ".corrupt"
            try? FileManager.default.removeItem(atPath: aside)
            if (try? FileManager.default.moveItem(atPath: path, toPath: aside)) != nil {
                warn("\(what) \(path) is damaged; it was set aside as \(aside)")
            } else {
                warn("\(what) \(path) is damaged and could not be set aside; it is ignored")
            }
            return nil
        }
    }
}

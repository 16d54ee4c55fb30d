public import Foundation

/// Where MicCheck keeps small state files: `$XDG_STATE_HOME/miccheck` (by default
/// `~/.local/state/miccheck`), following the XDG base directory rules.
public enum StateDirectory {
    /// The folder `name` under MicCheck's state folder, for `environment` (default: this process's).
    /// A relative `XDG_STATE_HOME` is ignored, as the XDG rules ask.
    public static func standard(_ name: String? = nil, environment: [String: String]? = nil) -> String {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/miccheck" + (name.map { "/" + $0 } ?? "")
    }
}

/// What state files are kept in: the file system (``FileStateStorage``, what the commands use) or
/// memory (``MemoryStateStorage``, for tests and apps that keep their own settings). The stores built
/// on it (the permission prompt dismissals, the ducking journals) hold no file code of their own.
public protocol StateStorage: Sendable {
    /// The bytes at `path`, or nil when there is nothing there.
    func contents(at path: String) -> Data?
    /// Puts `data` at `path` atomically (a reader sees the old contents or the new, never a mixture),
    /// creating the folder when needed.
    func write(_ data: Data, to path: String) throws
    /// Moves what is at `path` to `aside`, replacing anything there; false when it could not.
    func move(_ path: String, to aside: String) -> Bool
    /// Removes what is at `path`, if anything.
    func remove(_ path: String)
    /// The names of the files in `folder` (not their paths), sorted; empty when there is no such folder.
    func names(in folder: String) -> [String]
}

/// State files on the file system.
public struct FileStateStorage: StateStorage {
    /// State files on this machine's file system.
    public init() {}

    /// The file's bytes, or nil when there is no file at `path`.
    public func contents(at path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// Writes `data` to the file at `path` atomically, creating the folder when needed.
    public func write(_ data: Data, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Renames the file at `path` to `aside`, replacing anything there; false when it could not.
    public func move(_ path: String, to aside: String) -> Bool {
        try? FileManager.default.removeItem(atPath: aside)
        return (try? FileManager.default.moveItem(atPath: path, toPath: aside)) != nil
    }

    /// Deletes the file at `path`, if there is one.
    public func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// The names of the entries in `folder`, sorted; empty when it cannot be read.
    public func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}

/// State files in memory, keyed by path: nothing touches the disk.
public final class MemoryStateStorage: StateStorage, @unchecked Sendable {
    // @unchecked Sendable: the one mutable property, `files`, is read and written only inside
    // `withFiles`, which holds `lock` for the whole access; `lock` itself is thread-safe. (NSLock
    // rather than Synchronization's Mutex keeps this core module free of its OS-version floor.)
    private let lock = NSLock()
    private var files: [String: Data]

    /// Storage holding `files` (path → contents) at the start.
    public init(_ files: [String: Data] = [:]) { self.files = files }

    private func withFiles<T>(_ body: (inout [String: Data]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&files)
    }

    /// The bytes kept at `path`, or nil.
    public func contents(at path: String) -> Data? { withFiles { $0[path] } }

    /// Keeps `data` at `path`, replacing what was there.
    public func write(_ data: Data, to path: String) throws { withFiles { $0[path] = data } }

    /// Moves the bytes at `path` to `aside`, replacing anything there; false when `path` holds none.
    public func move(_ path: String, to aside: String) -> Bool {
        withFiles { files in
            guard let data = files.removeValue(forKey: path) else { return false }
            files[aside] = data
            return true
        }
    }

    /// Forgets what is at `path`, if anything.
    public func remove(_ path: String) { _ = withFiles { $0.removeValue(forKey: path) } }

    /// The names of the files directly in `folder` (the paths one level under it), sorted.
    public func names(in folder: String) -> [String] {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return withFiles { files in
            files.keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }
                .map { String($0.dropFirst(prefix.count)) }.sorted()
        }
    }
}

/// Reading and writing one JSON state file in a ``StateStorage``.
public enum JSONStateFile {
    /// Writes `value` to `path` atomically, creating the folder when needed.
    public static func write<Value: Encodable>(
        _ value: Value, to path: String,
        in storage: any StateStorage = FileStateStorage()
    ) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try storage.write(encoder.encode(value), to: path)
    }

    /// The value in `path`, or nil when there is no such file. A file that does not parse is renamed
    /// to `PATH.corrupt` (never deleted: it may hold something the user wants) and reported through
    /// `warn` as one sentence naming `what` it was.
    public static func read<Value: Decodable>(
        _ type: Value.Type, from path: String, what: String,
        in storage: any StateStorage = FileStateStorage(),
        warn: (String) -> Void
    ) -> Value? {
        guard let data = storage.contents(at: path) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            let aside = path + ".corrupt"
            if storage.move(path, to: aside) {
                warn("\(what) \(path) is damaged; it was set aside as \(aside)")
            } else {
                warn("\(what) \(path) is damaged and could not be set aside; it is ignored")
            }
            return nil
        }
    }
}

#if os(Linux)
    import Foundation
    public import Logging
    public import MicCheck
    import Glibc

    /// What a ducking run changed, written to disk before each change so that the volumes can be put
    /// back even when the run is killed: by its guard process at once, or by the next miccheck command
    /// that talks to the same server.
    public struct DuckingJournal: Codable, Sendable, Equatable {
        /// One playback stream's volumes.
        public struct Entry: Codable, Sendable, Equatable {
            /// The stream's index on the server (`SinkInput.index`).
            public var index: UInt32
            /// The stream as messages name it: "Application (stream name)", or the stream's name alone.
            public var name: String
            /// The volume before ducking: what is restored.
            public var original: [UInt32]
            /// The volume ducking last set, and the one before it (a change may have been cut short).
            /// A stream found at neither was changed by someone else since, and is left as it is.
            public var applied: [UInt32]
            /// The volume ducking set before `applied` (nil: none).
            public var previous: [UInt32]?

            /// An entry for stream `index`, ducked from `original` to `applied` (after `previous`, if any).
            public init(index: UInt32, name: String, original: [UInt32], applied: [UInt32], previous: [UInt32]? = nil) {
                self.index = index
                self.name = name
                self.original = original
                self.applied = applied
                self.previous = previous
            }

            /// Whether `volume` is one ducking set (so restoring it overrides nobody).
            public func isDucked(_ volume: [UInt32]) -> Bool { volume == applied || volume == previous }
        }

        /// The journal's format version (1).
        public var version = 1
        /// The server's address and the cookie of its running instance: stream indices mean nothing on
        /// another server, or on the same address after a restart.
        public var serverAddress: String
        /// The cookie of the server's running instance (`PulseConnection.ServerDefaults.cookie`).
        public var serverCookie: UInt32
        /// The ducking process, and when it started (so that a reused process ID is not taken for it).
        public var processID: Int32
        /// The ducking process's start time, as `startTime(of:)` gives it (nil: unknown).
        public var processStart: String?
        /// The streams ducked now, with their volumes.
        public var entries: [Entry]

        /// A journal for this process (or for `processID`, in tests).
        public init(serverAddress: String, serverCookie: UInt32, processID: Int32? = nil, entries: [Entry] = []) {
            let pid = processID ?? getpid()
            self.serverAddress = serverAddress
            self.serverCookie = serverCookie
            self.processID = pid
            processStart = Self.startTime(of: pid)
            self.entries = entries
        }

        /// Whether the process that wrote the journal still runs.
        public var ownerIsRunning: Bool {
            guard let start = Self.startTime(of: processID) else { return false }
            return processStart == nil || start == processStart
        }

        /// A running process's start time in clock ticks since boot (field 22 of /proc/PID/stat), or
        /// nil when there is no such process or it has ended (a zombie waiting to be reaped).
        public static func startTime(of pid: Int32) -> String? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // Fields after the command name (which may hold spaces) start at field 3, the state.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 19, fields[0] != "Z", fields[0] != "X" else { return nil }
            return String(fields[19])
        }
    }

    /// The folder of ducking journals: `$XDG_STATE_HOME/miccheck/ducking` (by default
    /// `~/.local/state/miccheck/ducking`), one file per ducking process, in a `StateStorage` (the file
    /// system unless told otherwise).
    public struct DuckingJournalStore: Sendable {
        /// The folder of the journal files.
        public let directory: String
        /// Where the files are read and written (the file system unless told otherwise).
        public let storage: any StateStorage

        /// A store of the journals in `directory`, through `storage`.
        public init(directory: String, storage: any StateStorage = FileStateStorage()) {
            (self.directory, self.storage) = (directory, storage)
        }

        /// The folder the XDG base directory rules give for `environment`.
        public static func standard(
            environment: [String: String]? = nil,
            storage: any StateStorage = FileStateStorage()
        ) -> Self {
            Self(directory: StateDirectory.standard("ducking", environment: environment), storage: storage)
        }

        /// The journal file of process `pid`: `DIRECTORY/PID.json`.
        public func path(forProcess pid: Int32) -> String { "\(directory)/\(pid).json" }

        /// Writes `journal` atomically (a reader sees the old file or the new one, never a mixture).
        public func write(_ journal: DuckingJournal) throws {
            try JSONStateFile.write(journal, to: path(forProcess: journal.processID), in: storage)
        }

        /// Removes the journal file of process `pid`, if there is one.
        public func remove(forProcess pid: Int32) { storage.remove(path(forProcess: pid)) }

        /// A journal file, or nil when it is gone. A file that does not parse is renamed to
        /// `NAME.corrupt`, and `logger` warns of it ("the ducking journal PATH is damaged; it was set aside as
        /// PATH.corrupt", with `ducking.journal`: the path).
        public func load(path: String, logger: Logger) -> DuckingJournal? {
            read(path, warn: warning(to: logger, about: path))
        }

        /// A journal file, or nil when it is gone; a damaged one is set aside and reported through `warn`.
        @available(*, deprecated, message: "Pass a swift-log Logger: load(path:logger:)")
        public func load(path: String, warn: (String) -> Void) -> DuckingJournal? { read(path, warn: warn) }

        private func read(_ path: String, warn: (String) -> Void) -> DuckingJournal? {
            JSONStateFile.read(DuckingJournal.self, from: path, what: "the ducking journal", in: storage, warn: warn)
        }

        /// Journals left by processes that no longer run, with their paths; each damaged one is set aside
        /// and logged, as ``load(path:logger:)`` does.
        public func abandoned(logger: Logger) -> [(path: String, journal: DuckingJournal)] {
            abandonedJournals(loading: { load(path: $0, logger: logger) })
        }

        /// Journals left by processes that no longer run, with their paths; damaged ones are reported through
        /// `warn`.
        @available(*, deprecated, message: "Pass a swift-log Logger: abandoned(logger:)")
        public func abandoned(warn: (String) -> Void) -> [(path: String, journal: DuckingJournal)] {
            abandonedJournals(loading: { read($0, warn: warn) })
        }

        private func abandonedJournals(
            loading: (String) -> DuckingJournal?
        ) -> [(path: String, journal: DuckingJournal)] {
            storage.names(in: directory).filter { $0.hasSuffix(".json") }.compactMap { name in
                let path = "\(directory)/\(name)"
                guard let journal = loading(path), !journal.ownerIsRunning else { return nil }
                return (path, journal)
            }
        }
    }

    /// Puts back what ducking changed.
    public enum DuckingRestore {
        /// What a restore did.
        public struct Outcome: Sendable, Equatable {
            /// Streams set back to their volume from before ducking.
            public var restored = 0
            /// Streams someone changed while they were ducked: their volume is kept.
            public var keptChanged = 0
            /// Streams that no longer play.
            public var gone = 0
        }

        /// Restores every entry whose stream still has a volume ducking set.
        public static func restore(
            _ entries: [DuckingJournal.Entry], on connection: PulseConnection
        ) throws(PulseError) -> Outcome {
            var outcome = Outcome()
            for entry in entries {
                guard let stream = try connection.sinkInput(index: entry.index) else {
                    outcome.gone += 1
                    continue
                }
                if entry.isDucked(stream.volume) {
                    if try connection.setSinkInputVolume(index: entry.index, to: entry.original) {
                        outcome.restored += 1
                    } else {
                        outcome.gone += 1
                    }
                } else {
                    outcome.keptChanged += 1
                }
            }
            return outcome
        }

        /// Restores `journals` (from ``DuckingJournalStore/abandoned(logger:)``, or one whose run is known
        /// to have ended) and removes them from `storage`. Journals of a previous instance of the server
        /// at the same address are removed (their streams went with it); journals of other servers are
        /// left alone. A journal whose volumes cannot be restored is kept, and `logger` warns of it.
        public static func recover(
            _ journals: [(path: String, journal: DuckingJournal)], on connection: PulseConnection,
            server: PulseConnection.ServerDefaults, in storage: any StateStorage = FileStateStorage(),
            logger: Logger
        ) -> Outcome {
            recoverAll(journals, on: connection, server: server, in: storage) { warning(to: logger, about: $0)($1) }
        }

        /// Restores `journals` and removes them; failures are reported through `warn`.
        @available(*, deprecated, message: "Pass a swift-log Logger: recover(_:on:server:in:logger:)")
        public static func recover(
            _ journals: [(path: String, journal: DuckingJournal)], on connection: PulseConnection,
            server: PulseConnection.ServerDefaults, in storage: any StateStorage = FileStateStorage(),
            warn: (String) -> Void
        ) -> Outcome {
            recoverAll(journals, on: connection, server: server, in: storage) { warn($1) }
        }

        private static func recoverAll(
            _ journals: [(path: String, journal: DuckingJournal)], on connection: PulseConnection,
            server: PulseConnection.ServerDefaults, in storage: any StateStorage,
            warn: (_ path: String, _ sentence: String) -> Void
        ) -> Outcome {
            var total = Outcome()
            for (path, journal) in journals {
                let outcome = recoverOne(
                    journal, at: path, on: connection, server: server, in: storage, warn: { warn(path, $0) })
                total.restored += outcome.restored
                total.keptChanged += outcome.keptChanged
                total.gone += outcome.gone
            }
            return total
        }

        /// Restores one journal whose run has ended and removes it, when it belongs to this server (see
        /// ``recover(_:on:server:in:logger:)``). The caller vouches that the run has ended: a process that
        /// is exiting can still look alive for an instant.
        public static func recover(
            _ journal: DuckingJournal, at path: String, on connection: PulseConnection,
            server: PulseConnection.ServerDefaults, in storage: any StateStorage = FileStateStorage(),
            logger: Logger
        ) -> Outcome {
            recoverOne(
                journal, at: path, on: connection, server: server, in: storage, warn: warning(to: logger, about: path))
        }

        /// Restores one journal whose run has ended and removes it; a failure is reported through `warn`.
        @available(*, deprecated, message: "Pass a swift-log Logger: recover(_:at:on:server:in:logger:)")
        public static func recover(
            _ journal: DuckingJournal, at path: String, on connection: PulseConnection,
            server: PulseConnection.ServerDefaults, in storage: any StateStorage = FileStateStorage(),
            warn: (String) -> Void
        ) -> Outcome {
            recoverOne(journal, at: path, on: connection, server: server, in: storage, warn: warn)
        }

        private static func recoverOne(
            _ journal: DuckingJournal, at path: String, on connection: PulseConnection,
            server: PulseConnection.ServerDefaults, in storage: any StateStorage, warn: (String) -> Void
        ) -> Outcome {
            guard journal.serverAddress == server.address else { return Outcome() }
            var outcome = Outcome()
            if journal.serverCookie == server.cookie {
                do {
                    outcome = try restore(journal.entries, on: connection)
                } catch {
                    warn("could not restore the volumes in \(path): \(error)")
                    return Outcome()
                }
            }
            storage.remove(path)
            return outcome
        }
    }

    /// A `warn` closure that logs each sentence as a warning about the journal at `path`.
    private func warning(to logger: Logger, about path: String) -> (String) -> Void {
        { logger.warning("\($0)", metadata: ["ducking.journal": "\(path)"]) }
    }
#endif

public import ArgumentParser
import Foundation
import MicCheck
import MicCheckLive
import MicCheckLivePulse
import MicCheckTerminal

#if canImport(MicCheckPulse)
    import MicCheckPulse
#endif

extension DuckingLevel: ExpressibleByArgument {}

/// The options that duck other applications' audio.
struct DuckingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Lower other applications' playback while listening: default (as it is), min (-10 dB), mid (-20 dB) or max (-30 dB). Volumes come back exactly when listen ends.",
            valueName: "level"))
    var duckOthers: DuckingLevel?

    @Flag(help: "With --duck-others: lower other audio 10 dB more while you speak.")
    var advancedDucking = false

    func validate() throws {
        if advancedDucking && duckOthers == nil {
            throw ValidationError("--advanced-ducking needs --duck-others LEVEL.")
        }
    }
}

#if canImport(MicCheckPulse)
    /// A ducking run with its guard: a child process that restores the volumes if this one is killed.
    final class DuckingSession {
        let ducker: OtherAudioDucker
        private var guardPipe: Int32 = -1

        init(level: DuckingLevel, advanced: Bool, server: String?) throws(PulseError) {
            ducker = try OtherAudioDucker(level: level, advanced: advanced, server: server)
            guardPipe = spawnGuard(server: server)
            try ducker.start()
        }

        /// Restores the volumes; returns a sentence to show, if any.
        func stop() -> String? {
            defer {
                if guardPipe >= 0 {
                    close(guardPipe)
                    guardPipe = -1
                }
            }
            do {
                let outcome = try ducker.stop()
                let notes =
                    ducker.takeNotes().map { "miccheck: \($0)." }
                    + [restoreSentence(outcome, after: nil)].compactMap { $0 }
                return notes.isEmpty ? nil : notes.joined(separator: "\n")
            } catch {
                return "miccheck: could not restore the ducked volumes (\(error)); the next miccheck command will."
            }
        }

        /// Starts `miccheck duck-guard` with a pipe as its standard input, kept open by this process
        /// only: when this process ends in any way, even by SIGKILL, the guard reads end-of-file.
        private func spawnGuard(server: String?) -> Int32 {
            var fds: [Int32] = [-1, -1]
            // Both ends close on exec (pipe2 is not imported; nothing else spawns while this runs).
            guard pipe(&fds) == 0 else { return -1 }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            var arguments = ["miccheck", "duck-guard", "--journal", ducker.journalPath]
            if let server { arguments += ["--server", server] }
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { for arg in argv { free(arg) } }
            var pid: pid_t = 0
            let status = posix_spawn(&pid, "/proc/self/exe", &actions, nil, &argv, environ)
            close(fds[0])
            guard status == 0 else {
                close(fds[1])
                return -1
            }
            return fds[1]
        }
    }

    /// `listen`'s ducking: a session that follows the live analysis (advanced ducking hears speech), ducks
    /// the streams of a new server instance afresh after a restart, and passes the ducker's notes on.
    final class ListenDucking {
        private var session: DuckingSession?
        private let level: DuckingLevel
        private let advanced: Bool
        private let server: String?

        init(level: DuckingLevel, advanced: Bool, server: String?) throws(PulseError) {
            (self.level, self.advanced, self.server) = (level, advanced, server)
            session = try DuckingSession(level: level, advanced: advanced, server: server)
        }

        var duckedStreams: Int { session?.ducker.duckedStreams.count ?? 0 }

        func follow(_ record: LiveRecord, display: LiveDisplay) {
            if case .restarted = record {
                _ = session?.stop()
                session = try? DuckingSession(level: level, advanced: advanced, server: server)
            }
            session?.ducker.consume(record)
            for note in session?.ducker.takeNotes() ?? [] { display.message("miccheck: \(note).") }
        }

        /// Restores the volumes; returns a sentence to show, if any.
        func stop() -> String? { session?.stop() }
    }

    /// One sentence about a restore, or nil when there was nothing to restore.
    func restoreSentence(_ outcome: DuckingRestore.Outcome, after owner: String?) -> String? {
        guard outcome.restored + outcome.keptChanged > 0 else { return nil }
        var s =
            "miccheck: restored the volume of \(outcome.restored) playback stream\(outcome.restored == 1 ? "" : "s")"
        if let owner { s += " that \(owner) left ducked" }
        if outcome.keptChanged > 0 {
            s += "; kept \(outcome.keptChanged) that \(outcome.keptChanged == 1 ? "was" : "were") changed while ducked"
        }
        return s + "."
    }

    /// Restores what earlier runs killed while ducking left behind on this server, if anything.
    /// Cheap when there is nothing to do: the server is asked only if a journal is there.
    func recoverAbandonedDucking(server: String?, connection: PulseConnection? = nil) {
        let journals = DuckingJournalStore.standard().abandoned(logger: .sentences())
        restoreDucking(journals, server: server, connection: connection, owner: "an earlier miccheck run")
    }

    /// Restores `journals` on the server (over `connection`, or a connection of its own) and says so.
    func restoreDucking(
        _ journals: [(path: String, journal: DuckingJournal)], server: String?,
        connection existing: PulseConnection? = nil, owner: String
    ) {
        guard !journals.isEmpty, let connection = existing ?? (try? PulseConnection(server: server)) else { return }
        defer { if existing == nil { connection.close() } }
        guard let defaults = try? connection.serverDefaults() else { return }
        let outcome = DuckingRestore.recover(journals, on: connection, server: defaults, logger: .sentences())
        if let sentence = restoreSentence(outcome, after: owner) { printError(sentence) }
    }
#endif

/// `miccheck duck-guard`: waits for its parent to end, then restores what the parent's ducking left.
struct DuckGuard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duck-guard",
        abstract: "Restores ducked volumes when the miccheck that started it ends (started by listen --duck-others).",
        shouldDisplay: false
    )

    @Option(help: "The journal of the run to guard.")
    var journal: String

    @Option(help: "The PulseAudio server.")
    var server: String?

    func run() throws {
        #if canImport(MicCheckPulse)
            // Ctrl-C and a closing terminal reach the whole process group; the guard must outlive them.
            for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_IGN) }
            var byte: UInt8 = 0
            while true {
                let n = read(0, &byte, 1)
                if n == 0 || (n < 0 && errno != EINTR) { break }
            }
            // The parent has ended (only it held the pipe), though for an instant it may still look
            // alive in /proc. If it restored the volumes itself, its journal is gone.
            let store = DuckingJournalStore(directory: (journal as NSString).deletingLastPathComponent)
            guard let entries = store.load(path: journal, logger: .sentences()) else { return }
            restoreDucking([(journal, entries)], server: server, owner: "miccheck (process \(entries.processID))")
        #endif
    }
}

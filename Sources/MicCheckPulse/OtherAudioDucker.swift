#if os(Linux)
    import CPulseAudio
    import Foundation
    import Glibc
    public import Logging
    public import MicCheck

    /// Lowers the volume of other applications' playback streams (PulseAudio sink inputs) during a call,
    /// streams that start later included, and puts every one back exactly when it ends.
    ///
    /// Before each change, the volumes are written to a ``DuckingJournal``, so that a run killed outright
    /// is undone by its guard process or by the next miccheck command (``DuckingRestore``). A stream whose
    /// volume someone else changes while it is ducked is left alone from then on: their choice is kept.
    ///
    /// Not ducked: this process's own streams, streams that belong to a server module (loopback,
    /// echo-cancel) rather than to an application, and streams whose volume cannot be set.
    ///
    /// - Important: Call ``start()``, ``setSomeoneSpeaking(_:)`` and ``stop()`` from threads of your
    ///   own, never from a libpulse callback.
    public final class OtherAudioDucker: @unchecked Sendable {
        // @unchecked Sendable: the mutable state (`journal`, `generation`, `someoneSpeaking`, `stopped`,
        // `notes`) is read and written only with the connection's main-loop lock held: by the event
        // thread's callbacks (which libpulse runs with that lock held) and by the public methods inside
        // `connection.locked`. The lock orders every access.
        /// How deep other audio is lowered (`DuckingLevel`: 0, 10, 20 or 30 dB).
        public let level: DuckingLevel
        /// Whether ducking goes `DuckingLevel.speechExtraDB` (10 dB) deeper while someone speaks.
        public let advanced: Bool
        private let connection: PulseConnection
        private let store: DuckingJournalStore
        private var journal: DuckingJournal
        /// Per stream, how many volume changes ducking has asked for: an answer to a question asked
        /// before the latest change is stale.
        private var generation: [UInt32: Int] = [:]
        private var someoneSpeaking = false
        private var stopped = false
        private var journalFailed = false
        private var notes: [String] = []
        private let ownProcess = getpid()
        private let logger: Logger

        /// Connects to the server (its own connection, so that journal writes never delay capture).
        /// - Parameter logger: where each stream ducked is logged (debug), a stream the user turned up (info),
        ///   a journal that cannot be written (error), with the stream or the journal as metadata, and what
        ///   ``stop()`` restored (debug). nil: nowhere. Its handler is called with the server connection's lock
        ///   held, often on libpulse's event thread: it must not block, and must not call this ducker.
        public init(
            level: DuckingLevel, advanced: Bool, server: String? = nil,
            store: DuckingJournalStore = .standard(), logger: Logger? = nil
        ) throws(PulseError) {
            self.level = level
            self.advanced = advanced
            self.store = store
            self.logger = logger ?? Logger(label: "miccheck.ducking", factory: { _ in SwiftLogNoOpLogHandler() })
            connection = try PulseConnection(applicationName: "miccheck ducking", server: server)
            let defaults = try connection.serverDefaults()
            journal = DuckingJournal(serverAddress: defaults.address, serverCookie: defaults.cookie)
        }

        deinit { connection.close() }

        /// The journal file this run writes.
        public var journalPath: String { store.path(forProcess: journal.processID) }

        /// The attenuation applied now, in dB.
        public var attenuationDB: Double {
            (try? connection.locked { level.attenuationDB(advanced: advanced, someoneSpeaking: someoneSpeaking) }) ?? 0
        }

        /// Streams ducked now.
        public var duckedStreams: [UInt32] { (try? connection.locked { journal.entries.map(\.index) }) ?? [] }

        /// Sentences about what happened on the event thread since the last call (a stream the user
        /// turned up while ducked, a journal that could not be written), without a final stop. Each was
        /// logged too.
        public func takeNotes() -> [String] {
            (try? connection.locked { () -> [String] in
                defer { notes = [] }
                return notes
            }) ?? []
        }

        /// Ducks every playback stream there is, and from now on every new one.
        /// - Throws: ``PulseError`` when the server fails, or `.failed` when the journal cannot be written
        ///   (ducking without it could leave volumes lowered for good).
        public func start() throws(PulseError) {
            do { try store.write(journal) } catch {
                throw PulseError(
                    .failed, "cannot write the ducking journal in \(store.directory) (\(error.localizedDescription))")
            }
            let me = Unmanaged.passUnretained(self).toOpaque()
            // Subscribe before listing, so that no stream starts unseen in between.
            try connection.locked { () throws(PulseError) in
                pa_context_set_subscribe_callback(
                    connection.context,
                    { _, type, index, userdata in
                        guard let userdata else { return }
                        Unmanaged<OtherAudioDucker>.fromOpaque(userdata).takeUnretainedValue().event(type, index)
                    }, me)
                try connection.subscribe(PA_SUBSCRIPTION_MASK_SINK_INPUT, doing: "subscribing to playback streams")
            }
            let streams = try connection.sinkInputs()
            try connection.locked { () throws(PulseError) in
                for stream in streams { adopt(stream) }
            }
        }

        /// With advanced ducking: ducks deeper while someone speaks. Without it, does nothing.
        public func setSomeoneSpeaking(_ speaking: Bool) {
            guard advanced else { return }
            try? connection.locked { () throws(PulseError) in
                guard !stopped, speaking != someoneSpeaking else { return }
                someoneSpeaking = speaking
                let attenuation = level.attenuationDB(advanced: advanced, someoneSpeaking: speaking)
                for k in journal.entries.indices {
                    journal.entries[k].previous = journal.entries[k].applied
                    journal.entries[k].applied = SinkInput.attenuated(journal.entries[k].original, by: attenuation)
                }
                saveJournal()
                for entry in journal.entries { apply(entry) }
            }
        }

        /// Stops ducking: every stream still at a volume ducking set gets its old volume back, and the
        /// journal is removed. Safe to call more than once.
        @discardableResult
        public func stop() throws(PulseError) -> DuckingRestore.Outcome {
            let (entries, first) = try connection.locked { () throws(PulseError) -> ([DuckingJournal.Entry], Bool) in
                if stopped { return ([], false) }
                stopped = true
                pa_context_set_subscribe_callback(connection.context, nil, nil)
                return (journal.entries, true)
            }
            let outcome = try DuckingRestore.restore(entries, on: connection)
            store.remove(forProcess: journal.processID)
            guard first else { return outcome }
            logger.debug(
                "ducking stopped",
                metadata: [
                    "ducking.restored": "\(outcome.restored)", "ducking.kept_changed": "\(outcome.keptChanged)",
                    "ducking.gone": "\(outcome.gone)",
                ])
            return outcome
        }

        // MARK: The event thread (main-loop lock held)

        private func event(_ type: pa_subscription_event_type_t, _ index: UInt32) {
            guard !stopped,
                type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
                    == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue
            else { return }
            switch type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue {
            case PA_SUBSCRIPTION_EVENT_REMOVE.rawValue:
                if journal.entries.contains(where: { $0.index == index }) {
                    journal.entries.removeAll { $0.index == index }
                    generation[index] = nil
                    saveJournal()
                }
            default:
                // New, or changed: look at it, remembering which of our changes the answer will reflect.
                let query = InfoQuery(ducker: self, generation: generation[index] ?? 0)
                let op = pa_context_get_sink_input_info(
                    connection.context, index,
                    { _, info, eol, userdata in
                        guard let userdata else { return }
                        let query = Unmanaged<InfoQuery>.fromOpaque(userdata)
                        if eol == 0, let info = info?.pointee {
                            let q = query.takeUnretainedValue()
                            q.ducker.examine(SinkInput(info), asked: q.generation)
                        } else {
                            query.release()
                        }
                    }, Unmanaged.passRetained(query).toOpaque())
                if let op { pa_operation_unref(op) } else { Unmanaged.passUnretained(query).release() }
            }
        }

        private func examine(_ stream: SinkInput, asked: Int) {
            guard !stopped else { return }
            guard let k = journal.entries.firstIndex(where: { $0.index == stream.index }) else {
                adopt(stream)
                return
            }
            // An answer from before our latest change says nothing about the user.
            guard asked == (generation[stream.index] ?? 0), !journal.entries[k].isDucked(stream.volume) else { return }
            let name = journal.entries[k].name
            journal.entries.remove(at: k)
            generation[stream.index] = nil
            saveJournal()
            let note =
                "the volume of \(name) was changed during ducking; it is kept, and that stream is no longer ducked"
            logger.info("\(note)", metadata: ["ducking.stream": "\(stream.index)"])
            notes.append(note)
        }

        private func adopt(_ stream: SinkInput) {
            guard !stopped, stream.hasClient, stream.volumeIsSettable, stream.processID != ownProcess,
                !stream.volume.isEmpty, !journal.entries.contains(where: { $0.index == stream.index })
            else { return }
            let attenuation = level.attenuationDB(advanced: advanced, someoneSpeaking: someoneSpeaking)
            let entry = DuckingJournal.Entry(
                index: stream.index, name: stream.applicationName.map { "\($0) (\(stream.name))" } ?? stream.name,
                original: stream.volume, applied: SinkInput.attenuated(stream.volume, by: attenuation))
            journal.entries.append(entry)
            saveJournal()
            if !journalFailed {
                logger.debug(
                    "ducking \(entry.name) by \(Int(attenuation)) dB", metadata: ["ducking.stream": "\(stream.index)"])
            }
            apply(entry)
        }

        /// Asks for `entry.applied` (without waiting: this may run on the event thread).
        private func apply(_ entry: DuckingJournal.Entry) {
            guard !journalFailed else { return }
            generation[entry.index, default: 0] += 1
            var cvolume = SinkInput.cvolume(entry.applied)
            if let op = pa_context_set_sink_input_volume(connection.context, entry.index, &cvolume, nil, nil) {
                pa_operation_unref(op)
            }
        }

        private func saveJournal() {
            do { try store.write(journal) } catch {
                if !journalFailed {
                    let note =
                        "cannot write the ducking journal (\(error.localizedDescription)); ducking stops changing volumes"
                    logger.error("\(note)", metadata: ["ducking.journal": "\(journalPath)"])
                    notes.append(note)
                }
                journalFailed = true
            }
        }
    }

    /// What an info request's callback needs: the ducker, and the change count when it was asked.
    private final class InfoQuery: @unchecked Sendable {
        // @unchecked Sendable: created on the event thread (or under the main-loop lock) and used only by
        // the one libpulse callback it is handed to, which runs on the event thread with that lock held.
        let ducker: OtherAudioDucker
        let generation: Int
        init(ducker: OtherAudioDucker, generation: Int) {
            self.ducker = ducker
            self.generation = generation
        }
    }
#endif

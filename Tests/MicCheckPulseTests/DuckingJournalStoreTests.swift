#if os(Linux)
    import Foundation
    import Logging
    import MicCheck
    import MicCheckPulse
    import MicCheckTesting
    import Testing

    @Suite("DuckingJournalStore: journals through a StateStorage")
    struct DuckingJournalStoreTests {
        let entry = DuckingJournal.Entry(index: 7, name: "Music", original: [65536, 65536], applied: [6554, 6554])

        @Test("only the journals of processes that have ended are abandoned, and nothing touches the disk")
        func abandonedInMemory() throws {
            let storage = MemoryStateStorage()
            let store = DuckingJournalStore(directory: "/nowhere/ducking", storage: storage)
            let mine = DuckingJournal(serverAddress: "unix:/run/pulse", serverCookie: 1, entries: [entry])
            // A process ID above Linux's largest (2^22): no such process runs.
            let gone = DuckingJournal(
                serverAddress: "unix:/run/pulse", serverCookie: 1, processID: 4_194_999, entries: [entry])
            try store.write(mine)
            try store.write(gone)
            try storage.write(Data("not a journal".utf8), to: "/nowhere/ducking/notes.txt")
            try storage.write(Data("{}".utf8), to: "/nowhere/ducking/deeper/1.json")
            #expect(mine.ownerIsRunning)
            // Listed in name order, where this process's own ID falls wherever its digits put it.
            #expect(
                storage.names(in: "/nowhere/ducking")
                    == ["\(mine.processID).json", "4194999.json", "notes.txt"].sorted())

            let log = LogRecorder()
            let abandoned = store.abandoned(logger: log.logger())
            #expect(abandoned.map(\.path) == [store.path(forProcess: 4_194_999)])
            #expect(abandoned.first?.journal == gone)
            #expect(log.entries.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: "/nowhere"))

            store.remove(forProcess: 4_194_999)
            #expect(store.abandoned(logger: log.logger()).isEmpty)
            #expect(store.load(path: store.path(forProcess: mine.processID), logger: log.logger()) == mine)
            #expect(log.entries.isEmpty)
        }

        @Test("a damaged journal is set aside, logged once as a warning with its path, and not taken for one")
        func damagedJournal() throws {
            let storage = MemoryStateStorage(["/s/ducking/12.json": Data("{\"version\": 1, \"entr".utf8)])
            let store = DuckingJournalStore(directory: "/s/ducking", storage: storage)
            let log = LogRecorder()
            #expect(store.abandoned(logger: log.logger()).isEmpty)
            #expect(
                log.entries == [
                    LogRecorder.Entry(
                        level: .warning,
                        message:
                            "the ducking journal /s/ducking/12.json is damaged; it was set aside as /s/ducking/12.json.corrupt",
                        metadata: ["ducking.journal": "/s/ducking/12.json"])
                ])
            #expect(storage.contents(at: "/s/ducking/12.json") == nil)
            #expect(storage.contents(at: "/s/ducking/12.json.corrupt") == Data("{\"version\": 1, \"entr".utf8))
            #expect(store.abandoned(logger: log.logger()).isEmpty)
            #expect(log.entries.count == 1)
            // An app that logs only errors hears nothing of it.
            let quiet = LogRecorder()
            try storage.write(Data("{".utf8), to: "/s/ducking/13.json")
            #expect(store.abandoned(logger: quiet.logger(level: .error)).isEmpty)
            #expect(quiet.entries.isEmpty && storage.contents(at: "/s/ducking/13.json.corrupt") != nil)
        }

        @Test("the deprecated warn: forms still hear of a damaged journal, in the same sentence")
        func deprecatedWarnForms() {
            let storage = MemoryStateStorage(["/s/ducking/12.json": Data("{".utf8)])
            let store = DuckingJournalStore(directory: "/s/ducking", storage: storage)
            let forms: any WarnForms = DeprecatedWarnForms()
            var warnings: [String] = []
            #expect(forms.abandoned(store) { warnings.append($0) }.isEmpty)
            #expect(
                warnings == [
                    "the ducking journal /s/ducking/12.json is damaged; it was set aside as /s/ducking/12.json.corrupt"
                ])
            try? storage.write(Data("[".utf8), to: "/s/ducking/13.json")
            #expect(forms.load(store, path: "/s/ducking/13.json") { warnings.append($0) } == nil)
            #expect(warnings.count == 2 && storage.contents(at: "/s/ducking/13.json.corrupt") != nil)
        }

        @Test("the file store writes what the memory store holds, byte for byte")
        func filesAndMemoryAgree() throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
                "miccheck-journal-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let memory = MemoryStateStorage()
            let journal = DuckingJournal(serverAddress: "unix:/run/pulse", serverCookie: 9, entries: [entry])
            try DuckingJournalStore(directory: dir, storage: memory).write(journal)
            let files = DuckingJournalStore(directory: dir)
            try files.write(journal)
            let path = files.path(forProcess: journal.processID)
            #expect(FileManager.default.contents(atPath: path) == memory.contents(at: path))
            #expect(FileStateStorage().names(in: dir) == ["\(journal.processID).json"])
            files.remove(forProcess: journal.processID)
            #expect(FileStateStorage().names(in: dir).isEmpty)
        }
    }

    /// The deprecated `warn:` forms, called through a protocol whose witnesses are deprecated: the test compiles
    /// without deprecation warnings.
    private protocol WarnForms {
        func abandoned(
            _ store: DuckingJournalStore, warn: (String) -> Void
        ) -> [(path: String, journal: DuckingJournal)]
        func load(_ store: DuckingJournalStore, path: String, warn: (String) -> Void) -> DuckingJournal?
    }

    private struct DeprecatedWarnForms: WarnForms {
        @available(*, deprecated)
        func abandoned(
            _ store: DuckingJournalStore, warn: (String) -> Void
        ) -> [(path: String, journal: DuckingJournal)] {
            store.abandoned(warn: warn)
        }

        @available(*, deprecated)
        func load(_ store: DuckingJournalStore, path: String, warn: (String) -> Void) -> DuckingJournal? {
            store.load(path: path, warn: warn)
        }
    }
#endif
